using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// A level's CPU figures from its own window (issue #32, items 2 and 4; docs/statistics.md, "CPU per request, from the
/// window's ends"): the window's length, server CPU µs per request (with why it is missing), the machine's busy and
/// steal shares, others' CPU in cores and the <c>Disturbed</c> flag. Null in levels stored before. Written by hand and
/// provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261127010000_WindowCpu")]
public class WindowCpu : Migration
{
    private static readonly string[] Doubles = ["CpuWindowSeconds", "ServerCpuMicrosPerRequest", "MachineBusyPercent", "StealPercent", "OthersCpuCores"];

    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        foreach (var column in Doubles)
        {
            migrationBuilder.AddColumn<double>(name: column, table: "Levels", nullable: true);
        }

        migrationBuilder.AddColumn<string>(name: "ServerCpuMissingReason", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<bool>(name: "Disturbed", table: "Levels", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "Disturbed", table: "Levels");
        migrationBuilder.DropColumn(name: "ServerCpuMissingReason", table: "Levels");
        foreach (var column in Doubles.Reverse())
        {
            migrationBuilder.DropColumn(name: column, table: "Levels");
        }
    }
}
