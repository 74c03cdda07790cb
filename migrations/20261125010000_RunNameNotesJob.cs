using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// A run's own name and notes (PATCH /api/runs/{id}), the time a scheduled run is due (its queue time stays in
/// CreatedUtc), and the id of the queue job that runs it (docs/architecture.md,
/// "The queue"). Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261125010000_RunNameNotesJob")]
public class RunNameNotesJob : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<string>(name: "Name", table: "Runs", nullable: true);
        migrationBuilder.AddColumn<string>(name: "Notes", table: "Runs", nullable: true);
        migrationBuilder.AddColumn<string>(name: "JobId", table: "Runs", nullable: true);
        migrationBuilder.AddColumn<DateTime>(name: "ScheduledUtc", table: "Runs", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "Name", table: "Runs");
        migrationBuilder.DropColumn(name: "Notes", table: "Runs");
        migrationBuilder.DropColumn(name: "JobId", table: "Runs");
        migrationBuilder.DropColumn(name: "ScheduledUtc", table: "Runs");
    }
}
