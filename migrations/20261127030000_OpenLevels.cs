using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Open levels (issue #35, docs/statistics.md, "Closed and open workloads"): the arrival rate the schedule kept
/// (<c>Levels.TargetRateRps</c>), late starts and dropped requests (<c>Levels.LateStarts</c>, <c>Levels.DroppedRequests</c>),
/// the connections opened (<c>Levels.Connections</c>) and the service-time p99 (<c>Levels.ServiceP99Ms</c>); null in
/// closed levels and in levels stored before. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261127030000_OpenLevels")]
public class OpenLevels : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<int>(name: "TargetRateRps", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<long>(name: "LateStarts", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<long>(name: "DroppedRequests", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<int>(name: "Connections", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "ServiceP99Ms", table: "Levels", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "TargetRateRps", table: "Levels");
        migrationBuilder.DropColumn(name: "LateStarts", table: "Levels");
        migrationBuilder.DropColumn(name: "DroppedRequests", table: "Levels");
        migrationBuilder.DropColumn(name: "Connections", table: "Levels");
        migrationBuilder.DropColumn(name: "ServiceP99Ms", table: "Levels");
    }
}
