using System.Globalization;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Web.Results;
using Dashboard.Service.Contracts.Payloads;

namespace Dashboard.Web.Charts;

/// <summary>A chart with its key (Blazor's <c>@key</c>, the element's test id and the exported file's name).</summary>
/// <param name="Key">Stable key, e.g. <c>throughput-secure</c>.</param>
/// <param name="Spec">What to draw.</param>
public sealed record KeyedChart(string Key, ChartSpec Spec);

/// <summary>One entry of the payload selector.</summary>
/// <param name="Value">Query string value: a payload id, <c>class:Small</c> or <c>all</c>.</param>
/// <param name="Label">What the selector shows.</param>
public sealed record PayloadOption(string Value, string Label);

/// <summary>Everything the run page draws for one <see cref="RunView"/>.</summary>
/// <param name="PayloadOptions">The payload selector's entries (payloads of the run, their classes, all).</param>
/// <param name="Payload">The payload choice in effect (a value of <paramref name="PayloadOptions"/>), or null when the run has no level.</param>
/// <param name="PayloadLabel">What the choice means, for titles: e.g. <c>Int</c> or <c>Small payloads (mean of 10)</c>.</param>
/// <param name="HasUnsecure">The run has variants with security mode None.</param>
/// <param name="HasSecure">The run has variants with another security mode.</param>
/// <param name="LevelNote">Why the level filter differs from what was asked, or null.</param>
/// <param name="Panels">Response time and throughput vs clients, unsecure and secure panels.</param>
/// <param name="SpectrumLevels">Concurrency levels the percentile spectrum can show.</param>
/// <param name="SpectrumClients">The level it shows, or null.</param>
/// <param name="Views">Percentile spectrum, latency vs payload size, bytes on the wire, sequential calls per second.</param>
/// <param name="ViewNotes">Why a view is missing (e.g. no level with one client).</param>
/// <param name="OverTime">Response time, server CPU and available memory over time, level boundaries marked.</param>
public sealed record RunFigures(
    IReadOnlyList<PayloadOption> PayloadOptions,
    string? Payload,
    string PayloadLabel,
    bool HasUnsecure,
    bool HasSecure,
    string? LevelNote,
    IReadOnlyList<KeyedChart> Panels,
    IReadOnlyList<int> SpectrumLevels,
    int? SpectrumClients,
    IReadOnlyList<KeyedChart> Views,
    IReadOnlyList<string> ViewNotes,
    IReadOnlyList<KeyedChart> OverTime);

/// <summary>
/// The run page's figures, built from its data (pure: no I/O). Definitions are the thesis's (ch. 7.2.2: throughput = completed
/// requests ÷ (end of the last client − start of the first); mean response time; percentiles of the raw samples);
/// the layout follows the thesis's ch. 8 figures (response time and throughput vs clients from 20 clients on, secure
/// and unsecure panels, CPU and available memory over time) and seeds 002–004 (bytes on the wire per data type,
/// latency vs size log-log, sequential calls per second).
/// </summary>
public static class RunCharts
{
    private const string Clients = "concurrent clients";
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;
    private static readonly string[] PercentileNames = ["p50", "p90", "p99", "p99.9", "max"];

    /// <summary>The figures of <paramref name="data"/> as <paramref name="view"/> asks.</summary>
    public static RunFigures Build(RunPageData data, RunView view)
    {
        ArgumentNullException.ThrowIfNull(data);
        ArgumentNullException.ThrowIfNull(view);
        var all = data.Aggregates;
        var payloads = all.Select(a => a.Payload).Distinct().OrderBy(PayloadOrder).ThenBy(p => p, StringComparer.Ordinal).ToList();
        var options = PayloadOptions(all, payloads);
        var choice = options.Any(o => o.Value == view.Payload) ? view.Payload : payloads.FirstOrDefault();
        var selected = Selected(all, choice, payloads);
        var label = options.FirstOrDefault(o => o.Value == choice)?.Label ?? "";
        var rows = all.Where(a => selected.Contains(a.Payload)).ToList();

        var thesisFilter = RunView.ThesisFilterApplies(view.AllLevels, rows.Select(a => a.Clients));
        string? levelNote = !view.AllLevels && !thesisFilter && rows.Count > 0
            ? $"Fewer than two levels have {RunView.ThesisFromClients} or more clients: every level is shown."
            : null;
        var shown = thesisFilter ? rows.Where(a => a.Clients >= RunView.ThesisFromClients).ToList() : rows;
        var points = Combine(shown);
        var hasUnsecure = all.Any(a => !a.IsSecure);
        var hasSecure = all.Any(a => a.IsSecure);

        var panels = new List<KeyedChart>();
        var kinds = new List<(string Key, string Name, bool Secure)>();
        if (hasUnsecure && view.Panels != PanelChoice.Secure)
        {
            kinds.Add(("unsecure", "unsecure variants", false));
        }

        if (hasSecure && view.Panels != PanelChoice.Unsecure)
        {
            kinds.Add(("secure", "secure variants", true));
        }

        var levelsText = thesisFilter ? $"from {RunView.ThesisFromClients} clients" : "all levels";
        // One concurrency level only (presets 4–6: one client): bars by variant × client, not lines over one x.
        var singleLevel = points.Select(p => p.Clients).Distinct().Count() == 1;
        var responseRange = view.IndependentY || kinds.Count < 2 ? null : SharedRange(points, p => view.P99 ? Math.Max(p.MeanHigh ?? p.MeanMs ?? 0, p.P99Ms ?? 0) : p.MeanHigh ?? p.MeanMs);
        var throughputRange = view.IndependentY || kinds.Count < 2 ? null : SharedRange(points, p => p.ThroughputHigh ?? p.ThroughputRps);
        foreach (var kind in kinds)
        {
            var kindPoints = points.Where(p => p.IsSecure == kind.Secure).ToList();
            panels.Add(new KeyedChart($"response-time-{kind.Key}", (singleLevel
                ? SingleLevel(kindPoints, $"Mean response time — {kind.Name}, {label}", "mean response time (ms)", p => p.MeanMs, p => p.MeanLow, p => p.MeanHigh, "ms")
                : VsClients(kindPoints, $"Mean response time — {kind.Name}, {label}", "mean response time (ms)", p => p.MeanMs, view.P99 ? p => p.P99Ms : null, levelsText, isThroughput: false))
                with { YRange = responseRange }));
        }

        foreach (var kind in kinds)
        {
            var kindPoints = points.Where(p => p.IsSecure == kind.Secure).ToList();
            panels.Add(new KeyedChart($"throughput-{kind.Key}", (singleLevel
                ? SingleLevel(kindPoints, $"Throughput — {kind.Name}, {label}", "throughput (requests/s)", p => p.ThroughputRps, p => p.ThroughputLow, p => p.ThroughputHigh, "req/s")
                : VsClients(kindPoints, $"Throughput — {kind.Name}, {label}", "throughput (requests/s)", p => p.ThroughputRps, null, levelsText, isThroughput: true))
                with { YRange = throughputRange }));
        }

        var views = new List<KeyedChart>();
        var notes = new List<string>();
        var spectrumLevels = rows.Select(a => a.Clients).Distinct().Order().ToList();
        int? spectrumClients = spectrumLevels.Count == 0 ? null
            : view.SpectrumClients is { } asked && spectrumLevels.Contains(asked) ? asked : spectrumLevels[^1];
        if (spectrumClients is { } sc)
        {
            views.Add(new KeyedChart("percentile-spectrum", Spectrum(Combine(rows.Where(a => a.Clients == sc).ToList()), sc, label)));
        }

        AddOrNote(views, notes, "latency-vs-size", LatencyVsSize(all));
        AddOrNote(views, notes, "wire-bytes", WireBytes(all, payloads));
        AddOrNote(views, notes, "sequential-calls", Sequential(rows, label));
        AddOrNote(views, notes, "upstart", UpstartChart(data.Upstart ?? [], selected, label));

        return new RunFigures(options, choice, label, hasUnsecure, hasSecure, levelNote, panels, spectrumLevels, spectrumClients, views, notes, OverTime(data));
    }

    private static void AddOrNote(List<KeyedChart> views, List<string> notes, string key, (ChartSpec? Spec, string? Note) result)
    {
        if (result.Spec is not null)
        {
            views.Add(new KeyedChart(key, result.Spec));
        }
        else if (result.Note is not null)
        {
            notes.Add(result.Note);
        }
    }

    private static int PayloadOrder(string id)
    {
        for (var i = 0; i < PayloadCatalogue.Ids.Count; i++)
        {
            if (PayloadCatalogue.Ids[i] == id)
            {
                return i;
            }
        }

        return int.MaxValue;
    }

    private static List<PayloadOption> PayloadOptions(IReadOnlyList<LevelAggregate> all, List<string> payloads)
    {
        var options = new List<PayloadOption>();
        foreach (var p in payloads)
        {
            options.Add(new PayloadOption(p, p));
        }

        var classes = all.GroupBy(a => a.PayloadClass).OrderBy(g => g.Key, StringComparer.Ordinal).ToList();
        foreach (var group in classes)
        {
            var members = group.Select(a => a.Payload).Distinct().ToList();
            if (members.Count > 1 || classes.Count > 1)
            {
                options.Add(new PayloadOption(RunView.ClassPrefix + group.Key, members.Count == 1
                    ? $"{group.Key} payloads ({members[0]})"
                    : $"{group.Key} payloads (mean of {members.Count})"));
            }
        }

        if (payloads.Count > 1)
        {
            options.Add(new PayloadOption(RunView.AllPayloads, $"all payloads (mean of {payloads.Count})"));
        }

        return options;
    }

    private static HashSet<string> Selected(IReadOnlyList<LevelAggregate> all, string? choice, List<string> payloads)
    {
        if (choice is null)
        {
            return [];
        }

        if (choice == RunView.AllPayloads)
        {
            return [.. payloads];
        }

        if (choice.StartsWith(RunView.ClassPrefix, StringComparison.Ordinal))
        {
            var cls = choice[RunView.ClassPrefix.Length..];
            return [.. all.Where(a => a.PayloadClass == cls).Select(a => a.Payload)];
        }

        return [choice];
    }

    /// <summary>
    /// One point per variant × client × clients. With one payload it is that payload's level (95 % CI over its
    /// repetitions when there are several); with several payloads the mean of their levels' figures, without CI.
    /// </summary>
    private static List<Point> Combine(IReadOnlyList<LevelAggregate> rows) =>
    [
        .. rows.GroupBy(a => (a.Variant, a.Client, a.Clients)).Select(g =>
        {
            var list = g.ToList();
            var one = list.Count == 1 ? list[0] : null;
            var answered = list.Where(a => a.MeanMs.N > 0).ToList();
            return new Point(
                g.Key.Variant, g.Key.Client, g.Key.Clients, list[0].IsSecure, list.Count, list.Max(a => a.Repetitions),
                list.Sum(a => a.Requests), list.Sum(a => a.Errors),
                list.Average(a => a.ThroughputRps.Mean), Bound(one?.ThroughputRps, low: true), Bound(one?.ThroughputRps, low: false),
                answered.Count == 0 ? null : answered.Average(a => a.MeanMs.Mean), Bound(one?.MeanMs, low: true), Bound(one?.MeanMs, low: false),
                Average(answered, a => a.P50Ms), Average(answered, a => a.P90Ms), Average(answered, a => a.P99Ms), Average(answered, a => a.P999Ms),
                answered.Count == 0 ? null : answered.Max(a => a.MaxMs));
        }),
    ];

    /// <summary>What the error bars are, by the most repetitions of a level: a 95 % interval only from <see cref="Estimate.MinimumForInterval"/> on.</summary>
    private static string RepetitionsNote(int reps) =>
        reps >= Estimate.MinimumForInterval ? $"bars: 95 % CI, {reps} reps"
        : reps > 1 ? $"{reps} reps, no CI (at least {Estimate.MinimumForInterval})"
        : "1 repetition, no CI";

    private static double? Bound(Estimate? estimate, bool low) =>
        estimate is { HasInterval: true } e ? (low ? e.Low95 : e.High95) : null;

    private static double? Average(List<LevelAggregate> rows, Func<LevelAggregate, double> value) =>
        rows.Count == 0 ? null : rows.Average(value);

    /// <summary>[0, 1.08 × the largest value] of <paramref name="value"/> over every panel's points (null when none): the panels share it.</summary>
    private static IReadOnlyList<double>? SharedRange(List<Point> points, Func<Point, double?> value)
    {
        var max = points.Select(value).Where(v => v is > 0).Select(v => v!.Value).DefaultIfEmpty(0).Max();
        return max > 0 ? [0, max * 1.08] : null;
    }

    private static ChartSpec SingleLevel(List<Point> points, string title, string yTitle, Func<Point, double?> value, Func<Point, double?> low, Func<Point, double?> high, string unit)
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

        var clients = points.Count == 0 ? 1 : points[0].Clients;
        var reps = points.Count == 0 ? 1 : points.Max(p => p.Repetitions);
        var ci = points.Any(p => p.Payloads > 1) ? "mean over payloads, no CI" : RepetitionsNote(reps);
        return new ChartSpec(title, $"variant × client ({clients} client{(clients == 1 ? "" : "s")})", yTitle, series, ErrorNote(points), Subtitle: $"one concurrency level: {clients} client{(clients == 1 ? "" : "s")} · {ci}")
        { Kind = "bar" };
    }

    private static ChartSpec VsClients(List<Point> points, string title, string yTitle, Func<Point, double?> value, Func<Point, double?>? second, string levelsText, bool isThroughput)
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
        return new ChartSpec(title, Clients, yTitle, series, ErrorNote(points), Subtitle: $"{how} · {levelsText} · {ci}") { IntegerX = true };
    }

    private static string Hover(Point p, double? value, double? low, double? high, string unit)
    {
        if (value is null)
        {
            return string.Create(Inv, $"{p.Clients} clients: no request succeeded — {p.Errors} errors of {p.Requests} requests");
        }

        var ci = low is { } l && high is { } h ? string.Create(Inv, $" (95 % CI {l:0.###}–{h:0.###})") : "";
        var errors = p.Errors > 0 ? string.Create(Inv, $" — {p.Errors} errors of {p.Requests} requests") : "";
        return string.Create(Inv, $"{p.Clients} clients: {value:0.###} {unit}{ci}{errors}");
    }

    private static string? ErrorNote(IReadOnlyCollection<Point> points)
    {
        var withErrors = points.Where(p => p.Errors > 0).ToList();
        return withErrors.Count == 0 ? null
            : $"{withErrors.Count} level(s) with errors (✕): {string.Join(", ", withErrors.Take(2).Select(p => $"{p.Variant} × {p.Client} at {p.Clients}"))}{(withErrors.Count > 2 ? ", …" : "")}";
    }

    private static ChartSpec Spectrum(List<Point> points, int clients, string label)
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
            $"Response time percentiles, {clients} clients — {label}", "percentile", "response time (ms, log scale)",
            series, ErrorNote(points), LogY: true,
            Subtitle: $"from each level's raw samples, warm-up excluded{(reps > 1 ? $" · mean of {reps} reps" : "")}");
    }

    private static (ChartSpec?, string?) LatencyVsSize(IReadOnlyList<LevelAggregate> all)
    {
        if (all.Count == 0)
        {
            return (null, null);
        }

        var clients = all.Any(a => a.Clients == 1) ? 1 : all.Min(a => a.Clients);
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
            $"Response time vs message size, {clients} client{(clients == 1 ? "" : "s")}", "message size on the wire (log scale)", "mean response time (ms, log scale)",
            series, withErrors > 0 ? $"{withErrors} level(s) had errors (marked ✕)" : null, LogY: true,
            Subtitle: clients == 1
                ? "one call in flight (seed 003) · size: larger of request and response"
                : $"no 1-client level: {clients} clients · size: larger of request and response")
        { LogX = true, XUnit = AxisUnit.Bytes }, null);
    }

    private static double? Size(LevelAggregate a) =>
        a.MeanRequestBytes is { } req && a.MeanResponseBytes is { } resp ? Math.Max(req, resp) : a.MeanRequestBytes ?? a.MeanResponseBytes;

    private static (ChartSpec?, string?) WireBytes(IReadOnlyList<LevelAggregate> all, List<string> payloads)
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

    private static (ChartSpec?, string?) Sequential(List<LevelAggregate> rows, string label)
    {
        var single = rows.Where(a => a.Clients == 1).ToList();
        if (single.Count == 0)
        {
            return (null, rows.Count == 0 ? null : $"Sequential calls per second need a level with 1 client ({label} has none).");
        }

        var cells = single.Select(a => $"{a.Variant} × {a.Client}").Distinct().Order(StringComparer.Ordinal).ToList();
        var series = new List<ChartSeries>();
        foreach (var payload in single.Select(a => a.Payload).Distinct().OrderBy(PayloadOrder))
        {
            var byCell = cells.Select(c => single.FirstOrDefault(a => a.Payload == payload && $"{a.Variant} × {a.Client}" == c)).ToList();
            var reps = byCell.Any(a => a is { Repetitions: > 1 });
            series.Add(new ChartSeries(
                payload, [.. cells.Select((_, i) => (double)i)], [.. byCell.Select(a => a?.ThroughputRps.Mean)],
                [.. byCell.Select(a => a is null ? "" : string.Create(Inv, $"{a.ThroughputRps.Mean:0.#} calls/s, {a.MeanMs.Mean:0.###} ms per call{(a.Errors > 0 ? $" — {a.Errors} errors of {a.Requests}" : "")}"))],
                ErrorPoints: [.. byCell.Select((a, i) => (a, i)).Where(t => t.a is { Errors: > 0 }).Select(t => t.i)])
            {
                Categories = cells,
                Low = reps ? [.. byCell.Select(a => a?.ThroughputRps.Low95)] : null,
                High = reps ? [.. byCell.Select(a => a?.ThroughputRps.High95)] : null,
            });
        }

        var withErrors = single.Count(a => a.Errors > 0);
        return (new ChartSpec(
            $"Sequential calls per second — {label}", "variant × client", "calls per second (requests/s)", series,
            withErrors > 0 ? $"{withErrors} level(s) with errors (✕ hatched)" : null,
            Subtitle: "throughput of the 1-client level: one call in flight (seed 004)")
        { Kind = "bar" }, null);
    }

    /// <summary>Seed 002's Fig. 7: mean round trip of the first 1, 5, 10, … 1000 calls, one line per variant × client (mean over the payloads shown).</summary>
    private static (ChartSpec?, string?) UpstartChart(IReadOnlyList<UpstartLine> lines, HashSet<string> payloads, string label)
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

    private static List<KeyedChart> OverTime(RunPageData data)
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
                .Select(g => g.OrderBy(p => p.Seconds).ToList())
                .Select(g => new ChartSeries(cellOfLevel.GetValueOrDefault(g[0].LevelId, "?"), [.. g.Select(p => p.Seconds)], [.. g.Select(p => (double?)p.MeanMs)]))
                .ToList();
            charts.Add(new KeyedChart("latency-over-time", new ChartSpec(
                "Response time during the run", "time since the run started (s)", "mean response time (ms)", series, note,
                Subtitle: "mean of the raw samples per interval · " + boundaries)
            { Spans = spans }));
            var rates = data.Latency
                .Where(p => p.BucketSeconds > 0)
                .GroupBy(p => cellOfLevel.GetValueOrDefault(p.LevelId, "?"))
                .Select(g => g.OrderBy(p => p.Seconds).ToList())
                .Select(g => new ChartSeries(cellOfLevel.GetValueOrDefault(g[0].LevelId, "?"), [.. g.Select(p => p.Seconds)], [.. g.Select(p => (double?)(p.Requests / p.BucketSeconds))]))
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
                string.Create(Inv, $"{cell}, {level.Clients} clients{(level.Repetition > 1 ? $", repetition {level.Repetition}" : "")}{(level.Errors > 0 ? $": {level.Errors} errors" : "")}")));
            previous = cell;
        }

        return spans;
    }

    private sealed record Point(
        string Variant, string Client, int Clients, bool IsSecure, int Payloads, int Repetitions, long Requests, long Errors,
        double ThroughputRps, double? ThroughputLow, double? ThroughputHigh, double? MeanMs, double? MeanLow, double? MeanHigh,
        double? P50Ms, double? P90Ms, double? P99Ms, double? P999Ms, double? MaxMs);
}
