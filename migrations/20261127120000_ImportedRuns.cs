using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Result bundles (issue #36, docs/web.md, "Result bundles"): <c>Runs.ImportedJson</c> says where an imported run came
/// from; null for runs measured here and runs stored before. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261127120000_ImportedRuns")]
public class ImportedRuns : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<string>(name: "ImportedJson", table: "Runs", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "ImportedJson", table: "Runs");
    }
}
