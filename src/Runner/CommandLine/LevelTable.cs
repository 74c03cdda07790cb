using System.Globalization;
using Dashboard.Data.Entities;
using Spectre.Console;

namespace Dashboard.Runner.CommandLine;

/// <summary>The per-level table printed at the end of a run: one row per level, times in ms, throughput in req/s, mean bytes on the wire.</summary>
public static class LevelTable
{
    /// <summary>Builds the table for <paramref name="levels"/>.</summary>
    public static Table Create(IEnumerable<LevelEntity> levels)
    {
        ArgumentNullException.ThrowIfNull(levels);
        var table = new Table().Title("Per-level results (warm-up excluded)");
        foreach (var column in new[] { "variant", "client", "payload", "rep", "clients", "requests", "errors", "throughput req/s", "mean ms", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "req B", "resp B", "gen CPU %" })
        {
            table.AddColumn(new TableColumn(column).RightAligned());
        }

        foreach (var l in levels)
        {
            // A level where nothing succeeded has no response time: shown as "-".
            var none = l.Requests == l.Errors ? double.NaN : 0;
            table.AddRow(l.Variant, l.Client, l.Payload, Format(l.Repetition), Format(l.Clients), Format(l.Requests), Format(l.Errors),
                Format(l.ThroughputRps, "0.0"), Format(l.MeanMs + none, "0.000"), Format(l.P50Ms + none, "0.000"), Format(l.P90Ms + none, "0.000"),
                Format(l.P99Ms + none, "0.000"), Format(l.P999Ms + none, "0.000"), Format(l.MaxMs + none, "0.000"),
                Format(l.MeanRequestBytes ?? double.NaN, "0"), Format(l.MeanResponseBytes ?? double.NaN, "0"), Format(l.GeneratorCpuPercent ?? double.NaN, "0"));
        }

        return table;
    }

    private static string Format(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Format(double value, string format) =>
        double.IsNaN(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
