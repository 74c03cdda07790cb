using Dashboard.Data.Accounts;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations.Accounts;

/// <summary>
/// <see cref="UserEntity.ExternalLogin"/>: the OpenID Connect identity (issuer and subject) an account signs in with,
/// unique (several nulls allowed on both SQLite and PostgreSQL). Written by hand and provider-agnostic like <see cref="AccountsInitial"/>.
/// </summary>
[DbContext(typeof(AccountsDbContext))]
[Migration("20261127100000_ExternalLogin")]
public class ExternalLogin : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<string>(name: "ExternalLogin", table: "Users", nullable: true);
        migrationBuilder.CreateIndex(name: "IX_Users_ExternalLogin", table: "Users", column: "ExternalLogin", unique: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropIndex(name: "IX_Users_ExternalLogin", table: "Users");
        migrationBuilder.DropColumn(name: "ExternalLogin", table: "Users");
    }
}
