using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Per-level summaries kept for the results pages (docs/web.md, "Results read model"): the warm-up request count and
/// the level's requests over time (LevelTimeSeries as JSON), computed from the raw samples when the level is stored.
/// Null in older rows: the dashboard fills them from the samples on first read. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261125100000_LevelSummaries")]
public class LevelSummaries : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<long>(name: "WarmupRequests", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<string>(name: "TimeSeriesJson", table: "Levels", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "WarmupRequests", table: "Levels");
        migrationBuilder.DropColumn(name: "TimeSeriesJson", table: "Levels");
    }
}
