using System.Globalization;
using Dashboard.Web.Results;

namespace Dashboard.Web.Charts;

/// <summary>
/// The run page's charts over the run's time: response time and throughput per interval of each level, CPU (server
/// machine, host process, JVM, generator) and available memory, with the levels marked (<see cref="Spans"/>).
/// </summary>
public static class OverTimeCharts
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// <summary>The over-time charts of <paramref name="data"/>: response time, throughput, CPU and memory; those without data left out.</summary>
    internal static List<KeyedChart> Build(RunPageData data)
    {
        var charts = new List<KeyedChart>();
        var spans = Spans(data);
        var errorSpans = spans.Count(s => s.HasErrors);
        var note = errorSpans > 0 ? $"{errorSpans} level(s) with errors (shaded red, ✕)" : null;
        const string boundaries = "lines: level starts, clients at the bottom";
        if (data.Latency.Count > 0)
        {
            var cellOfLevel = data.Levels.ToDictionary(l => l.Id, l => $"{l.Variant} × {l.Client} × {l.Payload}");
            var series = data.Latency
                .GroupBy(p => cellOfLevel.GetValueOrDefault(p.LevelId, "?"))
                .Select(g => Broken(g.Key, g, p => p.MeanMs))
                .ToList();
            charts.Add(new KeyedChart("latency-over-time", new ChartSpec(
                "Response time during the run", "time since the run started (s)", "mean response time (ms)", series, note,
                Subtitle: "mean of the raw samples per interval · " + boundaries)
            { Spans = spans }));
            var rates = data.Latency
                .Where(p => p.BucketSeconds > 0)
                .GroupBy(p => cellOfLevel.GetValueOrDefault(p.LevelId, "?"))
                .Select(g => Broken(g.Key, g, p => p.Requests / p.BucketSeconds))
                .ToList();
            charts.Add(new KeyedChart("throughput-over-time", new ChartSpec(
                "Throughput during the run", "time since the run started (s)", "throughput (requests/s)", rates, note,
                Subtitle: "measured requests started per interval ÷ its length · " + boundaries)
            { Spans = spans }));
        }

        if (data.Resources.Count > 0)
        {
            var x = data.Resources.Select(r => r.Seconds).ToArray();
            var cpu = new List<ChartSeries>
            {
                new("server machine CPU", x, [.. data.Resources.Select(r => (double?)r.MachineCpuPercent)]),
                new("host process CPU (aspnet stack)", x, [.. data.Resources.Select(r => (double?)r.ProcessCpuPercent)], Dash: "dot"),
            };
            if (data.Resources.Any(r => r.JvmCpuPercent is not null))
            {
                cpu.Add(new("JVM process CPU (metro, ice stacks)", x, [.. data.Resources.Select(r => r.JvmCpuPercent)], Dash: "dashdot"));
            }

            if (data.Resources.Any(r => r.GeneratorCpuPercent is not null))
            {
                cpu.Add(new("load generator CPU", x, [.. data.Resources.Select(r => r.GeneratorCpuPercent)], Dash: "dash"));
            }

            charts.Add(new KeyedChart("server-cpu", new ChartSpec(
                "Server CPU utilisation over time", "time since the run started (s)", "CPU (% of all cores)", cpu, note,
                Subtitle: "host's /resources; generator = runner + drivers · " + boundaries)
            { Spans = spans }));
            // MB up to 10,000 MB, else GB (1 GB = 1,024 MB, as /proc/meminfo's kB are KiB).
            var gb = data.Resources.Max(r => r.AvailableMemoryMb) >= 10_000;
            charts.Add(new KeyedChart("server-memory", new ChartSpec(
                "Server available memory over time", "time since the run started (s)", gb ? "available memory (GB)" : "available memory (MB)",
                [new("available memory", x, [.. data.Resources.Select(r => (double?)(gb ? r.AvailableMemoryMb / 1024 : r.AvailableMemoryMb))],
                    [.. data.Resources.Select(r => string.Create(Inv, $"{r.Seconds:0} s: {(gb ? $"{r.AvailableMemoryMb / 1024:0.00} GB" : $"{r.AvailableMemoryMb:0} MB")}"))])], note,
                Subtitle: "lowest reading per interval (MemAvailable) · " + boundaries, ZeroY: false)
            { Spans = spans }));
        }

        return charts;
    }

    /// <summary>
    /// One line per cell (variant × client × payload) over its levels in time order, broken (a null point) wherever one
    /// level ends and the next begins: a line never joins two levels across the other cells' levels between them.
    /// </summary>
    internal static ChartSeries Broken(string name, IEnumerable<LatencyPoint> points, Func<LatencyPoint, double> value)
    {
        var x = new List<double>();
        var y = new List<double?>();
        long? level = null;
        foreach (var point in points.OrderBy(p => p.Seconds))
        {
            if (level is { } previous && previous != point.LevelId)
            {
                x.Add(point.Seconds);
                y.Add(null);
            }

            x.Add(point.Seconds);
            y.Add(value(point));
            level = point.LevelId;
        }

        return new ChartSeries(name, x, y);
    }

    /// <summary>The run's levels (one per repetition) on the time axis of <see cref="RunPageData.TimeOrigin"/>.</summary>
    public static IReadOnlyList<ChartSpan> Spans(RunPageData data)
    {
        ArgumentNullException.ThrowIfNull(data);
        var spans = new List<ChartSpan>();
        string? previous = null;
        foreach (var level in data.Levels.OrderBy(l => l.StartedUtc).ThenBy(l => l.Id))
        {
            var cell = $"{level.Variant} × {level.Client} × {level.Payload}";
            var start = (level.StartedUtc - data.TimeOrigin).TotalSeconds;
            var end = Math.Max(start, (level.EndedUtc - data.TimeOrigin).TotalSeconds);
            spans.Add(new ChartSpan(
                start, end, level.Clients.ToString(Inv), level.Errors > 0, cell != previous,
                string.Create(Inv, $"{cell}, {Format.Level(level.Clients, level.TargetRateRps is not null)}{(level.Repetition > 1 ? $", repetition {level.Repetition}" : "")}{(level.Errors > 0 ? $": {level.Errors} errors" : "")}")));
            previous = cell;
        }

        return spans;
    }
}
