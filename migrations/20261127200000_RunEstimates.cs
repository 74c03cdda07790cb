using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Estimates checked against the run (issue #36): <c>Runs.EstimatedSeconds</c>, <c>EstimatedLowSeconds</c> and
/// <c>EstimatedHighSeconds</c> keep the plan's expected wall time and its range from when the run was queued; null for
/// runs stored before. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261127200000_RunEstimates")]
public class RunEstimates : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<double>(name: "EstimatedSeconds", table: "Runs", nullable: true);
        migrationBuilder.AddColumn<double>(name: "EstimatedLowSeconds", table: "Runs", nullable: true);
        migrationBuilder.AddColumn<double>(name: "EstimatedHighSeconds", table: "Runs", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "EstimatedHighSeconds", table: "Runs");
        migrationBuilder.DropColumn(name: "EstimatedLowSeconds", table: "Runs");
        migrationBuilder.DropColumn(name: "EstimatedSeconds", table: "Runs");
    }
}
