using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Placement of 1-client levels (issue #32; scenario <c>placement: "shared-core"</c>): <c>Levels.SharedCore</c>, the core
/// the runner, its drivers and the host shared during the level; null for levels placed freely and for levels stored
/// before. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261128120000_SharedCore")]
public class SharedCore : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<int>(name: "SharedCore", table: "Levels", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "SharedCore", table: "Levels");
    }
}
