using Dashboard.Data.Entities;
using Dashboard.Data.Statistics;
using Spectre.Console;

namespace Dashboard.Runner.CommandLine;

/// <summary>
/// The per-level table printed at the end of a run: one row per level, one column per statistic of
/// <see cref="LevelStatistics.Console"/> (times in ms, throughput in req/s, mean bytes on the wire); <c>-</c> where a
/// level has no value (no response time when nothing succeeded).
/// </summary>
public static class LevelTable
{
    /// <summary>Builds the table for <paramref name="levels"/>.</summary>
    public static Table Create(IEnumerable<LevelEntity> levels)
    {
        ArgumentNullException.ThrowIfNull(levels);
        var table = new Table().Title("Per-level results (warm-up excluded)");
        foreach (var statistic in LevelStatistics.Console)
        {
            table.AddColumn(new TableColumn(statistic.ConsoleTitle!).RightAligned());
        }

        foreach (var level in levels)
        {
            var row = new LevelRow(level, "", null, null);
            table.AddRow([.. LevelStatistics.Console.Select(s => s.Cell(row))]);
        }

        return table;
    }
}
