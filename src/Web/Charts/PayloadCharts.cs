using System.Globalization;
using Dashboard.Data.Results;

namespace Dashboard.Web.Charts;

/// <summary>
/// The run page's charts across payloads: response time vs message size (seed 003, log-log), bytes on the wire per
/// message (seed 002), sequential calls per second (seed 004) and upstart (seed 002, Fig. 7). Each returns its chart or
/// the note that says why it cannot be drawn.
/// </summary>
internal static class PayloadCharts
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    internal static (ChartSpec?, string?) LatencyVsSize(IReadOnlyList<LevelAggregate> all)
    {
        if (all.Count == 0)
        {
            return (null, null);
        }

        var open = all.Any(a => a.IsOpen);
        var clients = !open && all.Any(a => a.Clients == 1) ? 1 : all.Min(a => a.Clients);
        var at = all.Where(a => a.Clients == clients && Size(a) is > 0).ToList();
        if (at.Select(a => a.Payload).Distinct().Count() < 2)
        {
            return (null, "Latency vs payload size needs two or more payloads whose wire bytes were counted.");
        }

        var series = new List<ChartSeries>();
        foreach (var line in at.GroupBy(a => (a.Variant, a.Client)).OrderBy(g => g.Key.Variant, StringComparer.Ordinal).ThenBy(g => g.Key.Client, StringComparer.Ordinal))
        {
            var ordered = line.OrderBy(a => Size(a)).ToList();
            var reps = ordered.Any(a => a.MeanMs.HasInterval);
            series.Add(new ChartSeries(
                $"{line.Key.Variant} × {line.Key.Client}", [.. ordered.Select(a => Size(a)!.Value)], [.. ordered.Select(a => a.MeanMs.Mean > 0 ? (double?)a.MeanMs.Mean : null)],
                [.. ordered.Select(a => string.Create(Inv, $"{a.Payload}: {Size(a):0} bytes, {a.MeanMs.Mean:0.###} ms{(a.Errors > 0 ? $" — {a.Errors} errors of {a.Requests}" : "")}"))],
                ErrorPoints: [.. ordered.Select((a, i) => (a, i)).Where(t => t.a.Errors > 0).Select(t => t.i)])
            {
                Low = reps ? [.. ordered.Select(a => a.MeanMs.HasInterval ? (double?)a.MeanMs.Low95 : null)] : null,
                High = reps ? [.. ordered.Select(a => a.MeanMs.HasInterval ? (double?)a.MeanMs.High95 : null)] : null,
            });
        }

        var withErrors = at.Count(a => a.Errors > 0);
        return (new ChartSpec(
            $"Response time vs message size, {Format.Level(clients, open)}", "message size on the wire (log scale)", "mean response time (ms, log scale)",
            series, withErrors > 0 ? $"{withErrors} level(s) had errors (marked ✕)" : null, LogY: true,
            Subtitle: open
                ? $"lowest offered rate: {Format.Level(clients, open)} · size: larger of request and response"
                : clients == 1
                ? "one call in flight (seed 003) · size: larger of request and response"
                : $"no 1-client level: {Format.Clients(clients)} · size: larger of request and response")
        { LogX = true, XUnit = AxisUnit.Bytes }, null);
    }

    private static double? Size(LevelAggregate a) =>
        a.MeanRequestBytes is { } req && a.MeanResponseBytes is { } resp ? Math.Max(req, resp) : a.MeanRequestBytes ?? a.MeanResponseBytes;

    internal static (ChartSpec?, string?) WireBytes(IReadOnlyList<LevelAggregate> all, List<string> payloads)
    {
        var counted = all.Where(a => a.MeanRequestBytes is not null || a.MeanResponseBytes is not null).ToList();
        if (counted.Count == 0)
        {
            return (null, all.Count == 0 ? null : "Bytes on the wire: no client counted them in this run.");
        }

        var shownPayloads = payloads.Where(p => counted.Any(a => a.Payload == p)).ToList();
        var series = new List<ChartSeries>();
        foreach (var cell in counted.GroupBy(a => (a.Variant, a.Client)).OrderBy(g => g.Key.Variant, StringComparer.Ordinal).ThenBy(g => g.Key.Client, StringComparer.Ordinal))
        {
            var name = $"{cell.Key.Variant} × {cell.Key.Client}";
            var byPayload = shownPayloads.Select(p => cell.Where(a => a.Payload == p).ToList()).ToList();
            var errors = byPayload.Select((l, i) => (l, i)).Where(t => t.l.Any(a => a.Errors > 0)).Select(t => t.i).ToList();
            foreach (var (direction, pick, pattern) in new (string, Func<LevelAggregate, double?>, string?)[] { ("request", a => a.MeanRequestBytes, null), ("response", a => a.MeanResponseBytes, "/") })
            {
                var y = byPayload.Select(l => l.Select(pick).Where(v => v is not null).Select(v => v!.Value).DefaultIfEmpty(double.NaN).Average()).Select(v => double.IsNaN(v) ? (double?)null : v).ToList();
                series.Add(new ChartSeries(
                    $"{name} {direction}", [.. shownPayloads.Select((_, i) => (double)i)], y,
                    [.. shownPayloads.Select((p, i) => string.Create(Inv, $"{p} {direction}: {y[i]:0} bytes"))], ErrorPoints: errors)
                { Categories = shownPayloads, ColorKey = name, Pattern = pattern });
            }
        }

        var withErrors = counted.Where(a => a.Errors > 0).Select(a => $"{a.Variant} × {a.Client} × {a.Payload}").Distinct().ToList();
        var values = series.SelectMany(x => x.Y).Where(v => v is > 0).Select(v => v!.Value).ToList();
        var logY = values.Count > 0 && values.Max() / values.Min() > 20;
        return (new ChartSpec(
            "Bytes on the wire per message", "payload", logY ? "size per message (log scale)" : "bytes per message", series,
            withErrors.Count > 0 ? $"with errors (✕ hatched): {string.Join(", ", withErrors.Take(2))}{(withErrors.Count > 2 ? ", …" : "")}" : null,
            LogY: logY, Subtitle: "counted on the socket by the client (seed 002) · request solid, response hatched")
        { Kind = "bar", YUnit = AxisUnit.Bytes }, null);
    }

    internal static (ChartSpec?, string?) Sequential(List<LevelAggregate> rows, string label)
    {
        // An open level of 1 req/s is not one client calling in sequence.
        var single = rows.Where(a => a.Clients == 1 && !a.IsOpen).ToList();
        if (single.Count == 0)
        {
            return (null, rows.Count == 0 ? null : $"Sequential calls per second need a level with 1 client ({label} has none).");
        }

        var cells = single.Select(a => $"{a.Variant} × {a.Client}").Distinct().Order(StringComparer.Ordinal).ToList();
        var payloads = single.Select(a => a.Payload).Distinct().OrderBy(RunCharts.PayloadOrder).ToList();
        if (payloads.Count == 1)
        {
            // One payload: one series per variant × client, in that case's colour of every chart (one colour for all bars
            // said nothing; issue #36), the legend naming each.
            return (SequentialSpec(label, [.. cells.Select(c => SequentialBar(c, single.First(a => $"{a.Variant} × {a.Client}" == c)))], single), null);
        }

        var series = new List<ChartSeries>();
        foreach (var payload in payloads)
        {
            var byCell = cells.Select(c => single.FirstOrDefault(a => a.Payload == payload && $"{a.Variant} × {a.Client}" == c)).ToList();
            var reps = byCell.Any(a => a is { Repetitions: > 1 });
            series.Add(new ChartSeries(
                payload, [.. cells.Select((_, i) => (double)i)], [.. byCell.Select(a => a?.ThroughputRps.Mean)],
                [.. byCell.Select(a => a is null ? "" : SequentialHover(a))],
                ErrorPoints: [.. byCell.Select((a, i) => (a, i)).Where(t => t.a is { Errors: > 0 }).Select(t => t.i)])
            {
                Categories = cells,
                Low = reps ? [.. byCell.Select(a => a?.ThroughputRps.Low95)] : null,
                High = reps ? [.. byCell.Select(a => a?.ThroughputRps.High95)] : null,
            });
        }

        return (SequentialSpec(label, series, single), null);
    }

    private static ChartSpec SequentialSpec(string label, List<ChartSeries> series, List<LevelAggregate> single)
    {
        var withErrors = single.Count(a => a.Errors > 0);
        return new ChartSpec(
            $"Sequential calls per second — {label}", "variant × client", "calls per second (requests/s)", series,
            withErrors > 0 ? $"{withErrors} level(s) with errors (✕ hatched)" : null,
            Subtitle: "throughput of the 1-client level: one call in flight (seed 004)")
        { Kind = "bar" };
    }

    // The bar of one variant × client (one payload): its own series, coloured as that case is everywhere.
    private static ChartSeries SequentialBar(string cell, LevelAggregate a) =>
        new(cell, [0], [a.ThroughputRps.Mean], [SequentialHover(a)], ErrorPoints: a.Errors > 0 ? [0] : null)
        {
            Categories = [cell],
            ColorKey = cell,
            Low = a.Repetitions > 1 ? [a.ThroughputRps.Low95] : null,
            High = a.Repetitions > 1 ? [a.ThroughputRps.High95] : null,
        };

    private static string SequentialHover(LevelAggregate a) =>
        string.Create(Inv, $"{a.ThroughputRps.Mean:0.#} calls/s, {a.MeanMs.Mean:0.###} ms per call{(a.Errors > 0 ? $" — {a.Errors} errors of {a.Requests}" : "")}");

    /// <summary>Seed 002's Fig. 7: mean round trip of the first 1, 5, 10, … 1000 calls, one line per variant × client (mean over the payloads shown).</summary>
    internal static (ChartSpec?, string?) UpstartChart(IReadOnlyList<UpstartLine> lines, HashSet<string> payloads, string label)
    {
        var shown = lines.Where(l => payloads.Contains(l.Payload) && l.Points.Count >= 2).ToList();
        if (shown.Count == 0)
        {
            return (null, null);
        }

        var series = new List<ChartSeries>();
        foreach (var cell in shown.GroupBy(l => (l.Variant, l.Client)).OrderBy(g => g.Key.Variant, StringComparer.Ordinal).ThenBy(g => g.Key.Client, StringComparer.Ordinal))
        {
            var name = $"{cell.Key.Variant} × {cell.Key.Client}";
            var points = Dashboard.Data.Results.Upstart.Mean([.. cell.Select(l => l.Points)]);
            series.Add(new ChartSeries(
                name, [.. points.Select(p => (double)p.Calls)], [.. points.Select(p => p.MeanMs)],
                [.. points.Select(p => string.Create(Inv, $"first {p.Calls} calls: {p.MeanMs:0.###} ms mean{(p.Errors > 0 ? $" — {p.Errors} failed" : "")}"))],
                ErrorPoints: [.. points.Select((p, i) => (p, i)).Where(t => t.p.Errors > 0).Select(t => t.i)])
            { ColorKey = name });
        }

        return (new ChartSpec(
            $"Upstart: mean round trip of the first calls — {label}", "first calls of the client (log scale)", "mean response time (ms, log scale)", series,
            LogY: true, Subtitle: "1-client levels, calls in order of start, warm-up included (seed 002, Fig. 7)")
        { LogX = true }, null);
    }
}
