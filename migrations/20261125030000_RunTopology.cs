using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// The topology of a run (docs/topologies.md): <c>Runs.Topology</c> (<c>same-machine</c>, <c>emulated-lan</c>,
/// <c>remote</c>; runs recorded before get <c>same-machine</c>, the only topology there was) and the emulated link's rate
/// <c>Runs.LinkRateMbps</c>. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261125030000_RunTopology")]
public class RunTopology : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<string>(name: "Topology", table: "Runs", nullable: false, defaultValue: "same-machine");
        migrationBuilder.AddColumn<int>(name: "LinkRateMbps", table: "Runs", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "Topology", table: "Runs");
        migrationBuilder.DropColumn(name: "LinkRateMbps", table: "Runs");
    }
}
