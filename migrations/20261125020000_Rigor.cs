using Dashboard.Data;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Dashboard.Migrations;

/// <summary>
/// Measurement rigor (docs/statistics.md): per level whether it ran to its end (partial levels), the steady-state
/// warm-up (reached, length, CoV), the server's CPU, what bound it and the generator's CPU µs per request; per run the
/// seed of its randomized cell order. Levels stored before are complete. Written by hand and provider-agnostic, like <see cref="Initial"/>.
/// </summary>
[DbContext(typeof(ResultsDbContext))]
[Migration("20261125020000_Rigor")]
public class Rigor : Migration
{
    /// <inheritdoc />
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        migrationBuilder.AddColumn<bool>(name: "Complete", table: "Levels", nullable: false, defaultValue: true);
        migrationBuilder.AddColumn<string>(name: "PartialReason", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<bool>(name: "SteadyStateReached", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "SteadyStateWarmupSeconds", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "SteadyStateCoefficientOfVariation", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "ServerCpuPercent", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "GeneratorCoresBusyPercent", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<string>(name: "Bound", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<double>(name: "GeneratorCpuMicrosPerRequest", table: "Levels", nullable: true);
        migrationBuilder.AddColumn<int>(name: "OrderSeed", table: "Runs", nullable: true);
    }

    /// <inheritdoc />
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        ArgumentNullException.ThrowIfNull(migrationBuilder);
        foreach (var column in new[] { "Complete", "PartialReason", "SteadyStateReached", "SteadyStateWarmupSeconds", "SteadyStateCoefficientOfVariation", "ServerCpuPercent", "GeneratorCoresBusyPercent", "Bound", "GeneratorCpuMicrosPerRequest" })
        {
            migrationBuilder.DropColumn(name: column, table: "Levels");
        }

        migrationBuilder.DropColumn(name: "OrderSeed", table: "Runs");
    }
}
