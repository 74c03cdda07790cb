using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Wire bytes per sample (seed 002's comparison; -1 = the client could not count them), their per-level means,
/// the "wrong reply" error kind per level, and the JVM service process's CPU and resident memory per resource reading. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261122100000_WireBytes")]
public class WireBytes : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<int>(name: "RequestBytes", table: "Samples", nullable: false, defaultValue: -1);
        migrationBuilder.AddColumn<int>(name: "ResponseBytes", table: "Samples", nullable: false, defaultValue: -1);
        migrationBuilder.AddColumn<long>(name: "WrongReplyErrors", table: "Levels", nullable: false, defaultValue: 0L);
        migrationBuilder.AddColumn<double>(name: "MeanRequestBytes", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "MeanResponseBytes", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "JvmCpuPercent", table: "ResourceSamples", nullable: true);
        migrationBuilder.AddColumn<double>(name: "JvmResidentMb", table: "ResourceSamples", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.DropColumn(name: "RequestBytes", table: "Samples");
        migrationBuilder.DropColumn(name: "ResponseBytes", table: "Samples");
        migrationBuilder.DropColumn(name: "WrongReplyErrors", table: "Levels");
        migrationBuilder.DropColumn(name: "MeanRequestBytes", table: "Levels");
        migrationBuilder.DropColumn(name: "MeanResponseBytes", table: "Levels");
        migrationBuilder.DropColumn(name: "JvmCpuPercent", table: "ResourceSamples");
        migrationBuilder.DropColumn(name: "JvmResidentMb", table: "ResourceSamples");
    }
}
