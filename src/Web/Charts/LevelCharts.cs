using System.Globalization;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;

namespace Dashboard.Web.Charts;

/// <summary>
/// The run page's charts of one figure per level: response time and throughput vs concurrent clients (thesis ch. 8: from
/// 20 clients on, secure and unsecure panels), the one-level bar form (presets 4–6) and the percentile spectrum; 95 %
/// intervals over repetitions from <see cref="Estimate.MinimumForInterval"/> on (docs/statistics.md).
/// </summary>
internal static class LevelCharts
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;
    private static readonly string[] PercentileNames = ["p50", "p90", "p99", "p99.9", "max"];

    /// <summary>
    /// One point per variant × client × clients. With one payload it is that payload's level (95 % CI over its
    /// repetitions when there are several); with several payloads the mean of their levels' figures, without CI.
    /// </summary>
    internal static List<ChartPoint> Combine(IReadOnlyList<LevelAggregate> rows) =>
    [
        .. rows.GroupBy(a => (a.Variant, a.Client, a.Clients)).Select(g =>
        {
            var list = g.ToList();
            var one = list.Count == 1 ? list[0] : null;
            var answered = list.Where(a => a.MeanMs.N > 0).ToList();
            return new ChartPoint(
                g.Key.Variant, g.Key.Client, g.Key.Clients, list[0].IsSecure, list.Count, list.Max(a => a.Repetitions),
                list.Sum(a => a.Requests), list.Sum(a => a.Errors),
                list.Average(a => a.ThroughputRps.Mean), Bound(one?.ThroughputRps, low: true), Bound(one?.ThroughputRps, low: false),
                answered.Count == 0 ? null : answered.Average(a => a.MeanMs.Mean), Bound(one?.MeanMs, low: true), Bound(one?.MeanMs, low: false),
                Average(answered, a => a.P50Ms), Average(answered, a => a.P90Ms), Average(answered, a => a.P99Ms), Average(answered, a => a.P999Ms),
                answered.Count == 0 ? null : answered.Max(a => a.MaxMs), list[0].IsOpen);
        }),
    ];

    /// <summary>What the error bars are, by the most repetitions of a level: a 95 % interval only from <see cref="Estimate.MinimumForInterval"/> on.</summary>
    internal static string RepetitionsNote(int reps) =>
        reps >= Estimate.MinimumForInterval ? $"bars: 95 % CI, {reps} reps"
        : reps > 1 ? $"{reps} reps, no CI (at least {Estimate.MinimumForInterval})"
        : "1 repetition, no CI";

    private static double? Bound(Estimate? estimate, bool low) =>
        estimate is { HasInterval: true } e ? (low ? e.Low95 : e.High95) : null;

    private static double? Average(List<LevelAggregate> rows, Func<LevelAggregate, double> value) =>
        rows.Count == 0 ? null : rows.Average(value);

    /// <summary>[0, 1.08 × the largest value] of <paramref name="value"/> over every panel's points (null when none): the panels share it.</summary>
    internal static IReadOnlyList<double>? SharedRange(List<ChartPoint> points, Func<ChartPoint, double?> value)
    {
        var max = points.Select(value).Where(v => v is > 0).Select(v => v!.Value).DefaultIfEmpty(0).Max();
        return max > 0 ? [0, max * 1.08] : null;
    }

    internal static ChartSpec SingleLevel(List<ChartPoint> points, string title, string yTitle, Func<ChartPoint, double?> value, Func<ChartPoint, double?> low, Func<ChartPoint, double?> high, string unit)
    {
        var series = new List<ChartSeries>();
        foreach (var p in points.OrderBy(p => p.Variant, StringComparer.Ordinal).ThenBy(p => p.Client, StringComparer.Ordinal))
        {
            var name = $"{p.Variant} × {p.Client}";
            series.Add(new ChartSeries(name, [0], [value(p)], [Hover(p, value(p), low(p), high(p), unit)], ErrorPoints: p.Errors > 0 ? [0] : null)
            {
                Categories = [name],
                Low = low(p) is null ? null : [low(p)],
                High = high(p) is null ? null : [high(p)],
                ColorKey = name,
            });
        }

        var level = points.Count == 0 ? "1 client" : Format.Level(points[0].Clients, points[0].Open);
        var reps = points.Count == 0 ? 1 : points.Max(p => p.Repetitions);
        var ci = points.Any(p => p.Payloads > 1) ? "mean over payloads, no CI" : RepetitionsNote(reps);
        var one = points.Any(p => p.Open) ? "one offered rate" : "one concurrency level";
        return new ChartSpec(title, $"variant × client ({level})", yTitle, series, ErrorNote(points), Subtitle: $"{one}: {level} · {ci}")
        { Kind = "bar" };
    }

    internal static ChartSpec VsClients(List<ChartPoint> points, string title, string yTitle, Func<ChartPoint, double?> value, Func<ChartPoint, double?>? second, string levelsText, bool isThroughput)
    {
        var series = new List<ChartSeries>();
        foreach (var line in points.GroupBy(p => (p.Variant, p.Client)).OrderBy(g => g.Key.Variant, StringComparer.Ordinal).ThenBy(g => g.Key.Client, StringComparer.Ordinal))
        {
            var ordered = line.OrderBy(p => p.Clients).ToList();
            var x = ordered.Select(p => (double)p.Clients).ToArray();
            var errors = ordered.Select((p, i) => (p, i)).Where(t => t.p.Errors > 0).Select(t => t.i).ToList();
            var text = ordered.Select(p => Hover(p, value(p), isThroughput ? p.ThroughputLow : p.MeanLow, isThroughput ? p.ThroughputHigh : p.MeanHigh, isThroughput ? "req/s" : "ms")).ToList();
            var name = $"{line.Key.Variant} × {line.Key.Client}";
            var low = ordered.Select(p => isThroughput ? p.ThroughputLow : p.MeanLow).ToList();
            var high = ordered.Select(p => isThroughput ? p.ThroughputHigh : p.MeanHigh).ToList();
            series.Add(new ChartSeries(name, x, [.. ordered.Select(value)], text, ErrorPoints: errors)
            {
                Low = low.Any(v => v is not null) ? low : null,
                High = high.Any(v => v is not null) ? high : null,
                ColorKey = name,
            });
            if (second is not null)
            {
                series.Add(new ChartSeries(name + " p99", x, [.. ordered.Select(second)], Dash: "dot") { ColorKey = name });
            }
        }

        var reps = points.Count == 0 ? 1 : points.Max(p => p.Repetitions);
        var combined = points.Any(p => p.Payloads > 1);
        var how = isThroughput ? "completed requests ÷ level duration" : second is null ? "mean per level" : "mean per level, p99 dotted";
        var ci = combined ? "mean over payloads, no CI" : RepetitionsNote(reps);
        return new ChartSpec(title, Format.LevelAxis(points.Any(p => p.Open)), yTitle, series, ErrorNote(points), Subtitle: $"{how} · {levelsText} · {ci}") { IntegerX = true };
    }

    private static string Hover(ChartPoint p, double? value, double? low, double? high, string unit)
    {
        if (value is null)
        {
            return string.Create(Inv, $"{Format.Level(p.Clients, p.Open)}: no request succeeded — {p.Errors} errors of {p.Requests} requests");
        }

        var ci = low is { } l && high is { } h ? string.Create(Inv, $" (95 % CI {l:0.###}–{h:0.###})") : "";
        var errors = p.Errors > 0 ? string.Create(Inv, $" — {p.Errors} errors of {p.Requests} requests") : "";
        return string.Create(Inv, $"{Format.Level(p.Clients, p.Open)}: {value:0.###} {unit}{ci}{errors}");
    }

    private static string? ErrorNote(IReadOnlyCollection<ChartPoint> points)
    {
        var withErrors = points.Where(p => p.Errors > 0).ToList();
        return withErrors.Count == 0 ? null
            : $"{withErrors.Count} level(s) with errors (✕): {string.Join(", ", withErrors.Take(2).Select(p => $"{p.Variant} × {p.Client} at {Format.Level(p.Clients, p.Open)}"))}{(withErrors.Count > 2 ? ", …" : "")}";
    }

    internal static ChartSpec Spectrum(List<ChartPoint> points, int clients, string label)
    {
        var series = new List<ChartSeries>();
        foreach (var p in points.OrderBy(p => p.Variant, StringComparer.Ordinal).ThenBy(p => p.Client, StringComparer.Ordinal))
        {
            double?[] values = [p.P50Ms, p.P90Ms, p.P99Ms, p.P999Ms, p.MaxMs];
            var errors = p.Errors > 0 ? Enumerable.Range(0, values.Length).ToList() : null;
            series.Add(new ChartSeries(
                $"{p.Variant} × {p.Client}", [0, 1, 2, 3, 4], [.. values.Select(v => v > 0 ? v : null)],
                [.. values.Select((v, i) => string.Create(Inv, $"{PercentileNames[i]}: {v:0.###} ms{(p.Errors > 0 ? $" — {p.Errors} errors of {p.Requests}" : "")}"))],
                ErrorPoints: errors)
            { Categories = PercentileNames });
        }

        var reps = points.Count == 0 ? 1 : points.Max(p => p.Repetitions);
        return new ChartSpec(
            $"Response time percentiles, {Format.Level(clients, points.Any(p => p.Open))} — {label}", "percentile", "response time (ms, log scale)",
            series, ErrorNote(points), LogY: true,
            Subtitle: $"from each level's raw samples, warm-up excluded{(reps > 1 ? $" · mean of {reps} reps" : "")}");
    }
}

/// <summary>One chart point: a variant × client × clients level (several payloads: the mean of their levels); <c>Open</c>: <c>Clients</c> is an offered rate in req/s.</summary>
internal sealed record ChartPoint(
    string Variant, string Client, int Clients, bool IsSecure, int Payloads, int Repetitions, long Requests, long Errors,
    double ThroughputRps, double? ThroughputLow, double? ThroughputHigh, double? MeanMs, double? MeanLow, double? MeanHigh,
    double? P50Ms, double? P90Ms, double? P99Ms, double? P999Ms, double? MaxMs, bool Open = false);
