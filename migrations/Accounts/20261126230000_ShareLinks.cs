using Dashboard.Data.Accounts;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

namespace Dashboard.Migrations.Accounts;

/// <summary>Read-only share links (<see cref="ShareLinkEntity"/>). Written by hand and provider-agnostic like <see cref="AccountsInitial"/>.</summary>
[DbContext(typeof(AccountsDbContext))]
[Migration("20261126230000_ShareLinks")]
public class ShareLinks : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.CreateTable(
            name: "ShareLinks",
            columns: table => new
            {
                Id = table.Column<int>(nullable: false).Annotation("Sqlite:Autoincrement", true).Annotation(Initial.NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                Hash = table.Column<string>(nullable: false),
                RunIds = table.Column<string>(nullable: false),
                CreatedBy = table.Column<string>(nullable: false),
                CreatedUtc = table.Column<DateTime>(nullable: false),
                RevokedUtc = table.Column<DateTime>(nullable: true),
            },
            constraints: table => table.PrimaryKey("PK_ShareLinks", x => x.Id));
        migrationBuilder.CreateIndex(name: "IX_ShareLinks_Hash", table: "ShareLinks", column: "Hash", unique: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropTable(name: "ShareLinks");
    }
}
