using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Web.Results;

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
/// latency vs size log-log, sequential calls per second). The charts themselves: <see cref="LevelCharts"/>,
/// <see cref="PayloadCharts"/>, <see cref="OverTimeCharts"/>.
/// </summary>
public static class RunCharts
{
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

        // Open levels are arrival rates: the thesis's "from 20 clients on" does not apply to them.
        var open = all.Any(a => a.IsOpen);
        var thesisFilter = !open && RunView.ThesisFilterApplies(view.AllLevels, rows.Select(a => a.Clients));
        string? levelNote = !open && !view.AllLevels && !thesisFilter && rows.Count > 0
            ? $"Fewer than two levels have {RunView.ThesisFromClients} or more clients: every level is shown."
            : null;
        var shown = thesisFilter ? rows.Where(a => a.Clients >= RunView.ThesisFromClients).ToList() : rows;
        var points = LevelCharts.Combine(shown);
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

        var levelsText = thesisFilter ? $"from {RunView.ThesisFromClients} clients" : open ? "every offered rate" : "all levels";
        // One concurrency level only (presets 4–6: one client): bars by variant × client, not lines over one x.
        var singleLevel = points.Select(p => p.Clients).Distinct().Count() == 1;
        var responseRange = view.IndependentY || kinds.Count < 2 ? null : LevelCharts.SharedRange(points, p => view.P99 ? Math.Max(p.MeanHigh ?? p.MeanMs ?? 0, p.P99Ms ?? 0) : p.MeanHigh ?? p.MeanMs);
        var throughputRange = view.IndependentY || kinds.Count < 2 ? null : LevelCharts.SharedRange(points, p => p.ThroughputHigh ?? p.ThroughputRps);
        foreach (var kind in kinds)
        {
            var kindPoints = points.Where(p => p.IsSecure == kind.Secure).ToList();
            panels.Add(new KeyedChart($"response-time-{kind.Key}", (singleLevel
                ? LevelCharts.SingleLevel(kindPoints, $"Mean response time — {kind.Name}, {label}", "mean response time (ms)", p => p.MeanMs, p => p.MeanLow, p => p.MeanHigh, "ms")
                : LevelCharts.VsClients(kindPoints, $"Mean response time — {kind.Name}, {label}", "mean response time (ms)", p => p.MeanMs, view.P99 ? p => p.P99Ms : null, levelsText, isThroughput: false))
                with { YRange = responseRange }));
        }

        foreach (var kind in kinds)
        {
            var kindPoints = points.Where(p => p.IsSecure == kind.Secure).ToList();
            panels.Add(new KeyedChart($"throughput-{kind.Key}", (singleLevel
                ? LevelCharts.SingleLevel(kindPoints, $"Throughput — {kind.Name}, {label}", "throughput (requests/s)", p => p.ThroughputRps, p => p.ThroughputLow, p => p.ThroughputHigh, "req/s")
                : LevelCharts.VsClients(kindPoints, $"Throughput — {kind.Name}, {label}", "throughput (requests/s)", p => p.ThroughputRps, null, levelsText, isThroughput: true))
                with { YRange = throughputRange }));
        }

        var views = new List<KeyedChart>();
        var notes = new List<string>();
        var spectrumLevels = rows.Select(a => a.Clients).Distinct().Order().ToList();
        int? spectrumClients = spectrumLevels.Count == 0 ? null
            : view.SpectrumClients is { } asked && spectrumLevels.Contains(asked) ? asked : spectrumLevels[^1];
        if (spectrumClients is { } sc)
        {
            views.Add(new KeyedChart("percentile-spectrum", LevelCharts.Spectrum(LevelCharts.Combine(rows.Where(a => a.Clients == sc).ToList()), sc, label)));
        }

        AddOrNote(views, notes, "open-sweep", OpenSweepCharts.Curve(data.Levels, OpenSweep.P99TargetOf(data.Run.ScenarioJson)));
        AddOrNote(views, notes, "latency-vs-size", PayloadCharts.LatencyVsSize(all));
        AddOrNote(views, notes, "wire-bytes", PayloadCharts.WireBytes(all, payloads));
        AddOrNote(views, notes, "sequential-calls", PayloadCharts.Sequential(rows, label));
        AddOrNote(views, notes, "upstart", PayloadCharts.UpstartChart(data.Upstart ?? [], selected, label));

        return new RunFigures(options, choice, label, hasUnsecure, hasSecure, levelNote, panels, spectrumLevels, spectrumClients, views, notes, OverTimeCharts.Build(data));
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

    internal static int PayloadOrder(string id)
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
}
