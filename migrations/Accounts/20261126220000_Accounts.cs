using Dashboard.Data.Accounts;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

namespace Dashboard.Migrations.Accounts;

/// <summary>
/// The accounts' tables (<see cref="AccountsDbContext"/>): users, API tokens, setup links, audit log. Written by hand and
/// provider-agnostic like <see cref="Initial"/>: no store types.
/// </summary>
[DbContext(typeof(AccountsDbContext))]
[Migration("20261126220000_Accounts")]
public class AccountsInitial : Migration
{
    private const string NpgsqlIdentity = Initial.NpgsqlIdentity;

    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);

        migrationBuilder.CreateTable(
            name: "Users",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                UserName = table.Column<string>(nullable: false),
                NormalizedUserName = table.Column<string>(nullable: false),
                PasswordHash = table.Column<string>(nullable: true),
                Role = table.Column<string>(nullable: false),
                SecurityStamp = table.Column<string>(nullable: false),
                AccessFailedCount = table.Column<int>(nullable: false),
                LockoutEndUtc = table.Column<DateTime>(nullable: true),
                CreatedUtc = table.Column<DateTime>(nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Users", x => x.Id));
        migrationBuilder.CreateIndex(name: "IX_Users_NormalizedUserName", table: "Users", column: "NormalizedUserName", unique: true);

        migrationBuilder.CreateTable(
            name: "ApiTokens",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                Name = table.Column<string>(nullable: false),
                Role = table.Column<string>(nullable: false),
                Hash = table.Column<string>(nullable: false),
                CreatedBy = table.Column<string>(nullable: false),
                CreatedUtc = table.Column<DateTime>(nullable: false),
                ExpiresUtc = table.Column<DateTime>(nullable: true),
                RevokedUtc = table.Column<DateTime>(nullable: true),
            },
            constraints: table => table.PrimaryKey("PK_ApiTokens", x => x.Id));
        migrationBuilder.CreateIndex(name: "IX_ApiTokens_Hash", table: "ApiTokens", column: "Hash", unique: true);

        migrationBuilder.CreateTable(
            name: "SetupLinks",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                Hash = table.Column<string>(nullable: false),
                UserName = table.Column<string>(nullable: true),
                Role = table.Column<string>(nullable: false),
                CreatedUtc = table.Column<DateTime>(nullable: false),
                ExpiresUtc = table.Column<DateTime>(nullable: false),
                UsedUtc = table.Column<DateTime>(nullable: true),
            },
            constraints: table => table.PrimaryKey("PK_SetupLinks", x => x.Id));
        migrationBuilder.CreateIndex(name: "IX_SetupLinks_Hash", table: "SetupLinks", column: "Hash", unique: true);

        migrationBuilder.CreateTable(
            name: "AuditEvents",
            columns: table => new
            {
                Id = table.Column<long>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                TimeUtc = table.Column<DateTime>(nullable: false),
                Actor = table.Column<string>(nullable: false),
                Action = table.Column<string>(nullable: false),
                Target = table.Column<string>(nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_AuditEvents", x => x.Id));
        migrationBuilder.CreateIndex(name: "IX_AuditEvents_TimeUtc", table: "AuditEvents", column: "TimeUtc");
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropTable(name: "AuditEvents");
        migrationBuilder.DropTable(name: "SetupLinks");
        migrationBuilder.DropTable(name: "ApiTokens");
        migrationBuilder.DropTable(name: "Users");
    }
}
