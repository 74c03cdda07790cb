using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// The load agent that sent each request (docs/agents.md, "A level over several agents"): null for samples written by
/// the runner itself (every SQLite deployment, and older rows). Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261125110000_SampleAgent")]
public class SampleAgent : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<string>(name: "Agent", table: "Samples", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "Agent", table: "Samples");
    }
}
