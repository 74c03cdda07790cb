using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// The measurement protocol of a level repetition (issue #32, docs/statistics.md, "The protocol"): the measured window's
/// length in s (<c>Levels.WindowSeconds</c>), the launch it ran in (<c>Levels.Launch</c>) and the service host's process id
/// (<c>Levels.HostProcessId</c>); null in levels stored before. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261127020000_LevelProtocol")]
public class LevelProtocol : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<double>(name: "WindowSeconds", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<int>(name: "Launch", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<int>(name: "HostProcessId", table: "Levels", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "WindowSeconds", table: "Levels");
        migrationBuilder.DropColumn(name: "Launch", table: "Levels");
        migrationBuilder.DropColumn(name: "HostProcessId", table: "Levels");
    }
}
