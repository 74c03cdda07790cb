using System.Globalization;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Microsoft.AspNetCore.Components;
using Dashboard.Web.Results;

namespace Dashboard.Web.Components.Pages;

/// <summary>One cell of one run in the comparison.</summary>
/// <param name="Rank">Rank by peak throughput, from 1.</param>
/// <param name="RunId">Run id.</param>
/// <param name="Cell">Variant × client × payload.</param>
/// <param name="PeakThroughputRps">Highest mean throughput over the levels, req/s.</param>
/// <param name="PeakClients">Clients at the peak.</param>
/// <param name="LowestMeanMs">Lowest mean response time over the levels, ms.</param>
/// <param name="Errors">Failed requests over all levels.</param>
/// <param name="PeakDeltaPercent">Peak throughput relative to the baseline run's same cell, % (null for the baseline or when it lacks the cell).</param>
public sealed record CompareRow(int Rank, int RunId, string Cell, double PeakThroughputRps, int PeakClients, double LowestMeanMs, long Errors, double? PeakDeltaPercent);

/// <summary>One run's figures at one level of a cell, beside the baseline's.</summary>
/// <param name="RunId">Run id.</param>
/// <param name="ThroughputRps">Mean throughput, req/s.</param>
/// <param name="MeanMs">Mean response time, ms.</param>
/// <param name="Errors">Failed requests.</param>
/// <param name="ThroughputDeltaPercent">(throughput − baseline's) ÷ baseline's × 100; null for the baseline.</param>
/// <param name="MeanDeltaPercent">(mean response time − baseline's) ÷ baseline's × 100; null for the baseline.</param>
public sealed record CompareValue(int RunId, double ThroughputRps, double MeanMs, long Errors, double? ThroughputDeltaPercent, double? MeanDeltaPercent);

/// <summary>One level (cell × clients) of the baseline run and the same level in the other runs.</summary>
/// <param name="Cell">Variant × client × payload.</param>
/// <param name="Clients">Concurrent clients.</param>
/// <param name="Values">One entry per run in the order of the link; null where a run lacks the level.</param>
public sealed record CompareLevel(string Cell, int Clients, IReadOnlyList<CompareValue?> Values);

/// <summary>Everything the compare page shows for its runs (<see cref="CompareBuilder.Build"/>).</summary>
/// <param name="Runs">The run ids, in the order picked.</param>
/// <param name="Rows">Ranking by peak throughput.</param>
/// <param name="Levels">The baseline's levels beside the others'.</param>
/// <param name="Charts">Throughput and response time vs clients.</param>
/// <param name="Cases">Every case (variant × client × payload) of the runs, fastest baseline peak first.</param>
/// <param name="ShownCases">The cases drawn on the charts.</param>
public sealed record CompareResult(IReadOnlyList<int> Runs, List<CompareRow> Rows, List<CompareLevel> Levels, List<KeyedChart> Charts, IReadOnlyList<string> Cases, IReadOnlyList<string> ShownCases);

/// <summary>
/// <c>/compare?runs=1,2,3&amp;base=2</c>: runs picked by name and date, the runs' throughput and response time vs
/// clients on one chart each (one colour per case in every run, the legend grouped by run), relative differences of
/// every level against the baseline (the first run unless <c>base</c> names another), each with its test
/// (<see cref="RunComparison"/>, shown by <c>DifferenceBadge</c>: coloured only when the test calls a difference), the
/// warnings of the comparison at the top, a ranking by peak throughput, the runs side by side by topology when they
/// include both same-machine and emulated-lan runs, and the claims' verdicts for the runs taken together. The link reproduces the view (<c>levels=all</c> shows the levels under 20 clients too; <c>cases=</c>
/// the cases drawn when there are many).
/// </summary>
public sealed partial class Compare
{
    [Inject] public required RunResultsService Results { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    /// <summary>The signed-in user, or a share link's reader (who picks among the shared runs only).</summary>
    [CascadingParameter] public Task<Microsoft.AspNetCore.Components.Authorization.AuthenticationState>? AuthState { get; set; }

    [SupplyParameterFromQuery(Name = "runs")] public string? RunsQuery { get; set; }

    [SupplyParameterFromQuery(Name = "base")] public string? BaseQuery { get; set; }

    [SupplyParameterFromQuery(Name = "levels")] public string? LevelsQuery { get; set; }

    [SupplyParameterFromQuery(Name = "cases")] public string? CasesQuery { get; set; }

    /// <summary><c>preset=1</c>: the claims panel lists preset 1's claims, as that preset's card counts them (its link says so).</summary>
    [SupplyParameterFromQuery(Name = "preset")] public int? PresetQuery { get; set; }

    private IReadOnlyList<RunChoice> Choices { get; set; } = [];

    private List<int> Ids { get; set; } = [];

    private IReadOnlyList<RunAggregates> Found { get; set; } = [];

    private IReadOnlyList<int> Missing { get; set; } = [];

    private CompareResult? Result { get; set; }

    private IReadOnlyDictionary<(int RunId, string Cell, int Clients), LevelDifference> Tests { get; set; } = new Dictionary<(int, string, int), LevelDifference>();

    private IReadOnlyList<string> Warnings { get; set; } = [];

    private TopologyComparisonResult? TopologyResult { get; set; }

    private string ClaimsKey => string.Join(',', Found.Select(f => f.Run.Id)) + $"|{PresetQuery}";

    private bool AllLevels { get; set; }

    private int? BaseChoice { get; set; }

    private IReadOnlyList<string>? CaseChoice { get; set; }

    private int? Baseline => Found.Count == 0 ? null : BaseChoice is { } b && Found.Any(f => f.Run.Id == b) ? b : Found[0].Run.Id;

    private string SelectedText => Ids.Count == 0 ? "" : string.Join(", ", Ids.Select(id => $"#{id}"));

    private string Permalink =>
        $"/compare?runs={string.Join(',', Ids)}{(BaseChoice is { } b && Ids.Contains(b) && Ids.IndexOf(b) > 0 ? $"&base={b}" : "")}{(AllLevels ? "&levels=all" : "")}"
        + (CaseChoice is { Count: > 0 } cases ? "&cases=" + Uri.EscapeDataString(string.Join('|', cases)) : "");

    /// <inheritdoc />
    protected override async Task OnParametersSetAsync()
    {
        Ids = Parse(RunsQuery);
        AllLevels = string.Equals(LevelsQuery, "all", StringComparison.OrdinalIgnoreCase);
        BaseChoice = int.TryParse(BaseQuery, NumberStyles.None, CultureInfo.InvariantCulture, out var b) ? b : null;
        CaseChoice = string.IsNullOrEmpty(CasesQuery) ? null : CasesQuery.Split('|', StringSplitOptions.RemoveEmptyEntries);
        Choices = await Results.ListRunsAsync(200, CancellationToken.None);
        // A share link's reader picks among the shared runs only (Auth/AccessPolicy.cs).
        if (AuthState is not null && Auth.AccessPolicy.SharedRuns((await AuthState).User) is { } shared)
        {
            Choices = [.. Choices.Where(c => shared.Contains(c.Id))];
        }
        (Found, Missing) = await Results.AggregatesAsync(Ids, CancellationToken.None);
        Result = Found.Count == 0 ? null : CompareBuilder.Build(
            [.. Found.Select(f => (f.Run.Id, Label(f.Run), f.Aggregates))], Baseline ?? 0, AllLevels, CaseChoice);
        var comparisons = Found.Count > 1 && Baseline is { } baseline
            ? await Results.CompareAsync(baseline, [.. Found.Select(f => f.Run.Id)], CancellationToken.None)
            : [];
        Tests = comparisons.SelectMany(c => c.Levels.Select(l => (Key: (c.CandidateRunId, $"{l.Variant} × {l.Client} × {l.Payload}", l.Clients), Level: l)))
            .ToDictionary(x => x.Key, x => x.Level);
        Warnings = CompareWarnings.Of(Found.Select(f => f.Run).ToList(), comparisons);
        TopologyResult = CompareWarnings.MixesTopologies(Found.Select(f => f.Run).ToList())
            ? await Results.TopologiesAsync([.. Found.Select(f => f.Run.Id)], RunView.ThesisFromClients, CancellationToken.None)
            : null;
    }

    private LevelDifference? TestOf(int runId, CompareLevel level) => Tests.GetValueOrDefault((runId, level.Cell, level.Clients));

    private string TopologyNote(int runId) =>
        CompareWarnings.MixesTopologies(Found.Select(f => f.Run).ToList()) && Found.FirstOrDefault(f => f.Run.Id == runId)?.Run is { } run
            ? $" ({Dashboard.Service.Contracts.Scenarios.Topology.Describe(run.Topology, run.LinkRateMbps)})"
            : "";

    private static string Label(RunEntity run) => $"#{run.Id} {run.ScenarioName} ({run.CreatedUtc:yyyy-MM-dd HH:mm} UTC)";

    private string RunLabel(int id) =>
        Found.FirstOrDefault(f => f.Run.Id == id)?.Run is { } run ? Label(run)
        : Choices.FirstOrDefault(c => c.Id == id) is { } choice ? choice.Label : $"#{id}";

    private string RunName(int id) => Found.FirstOrDefault(f => f.Run.Id == id)?.Run.ScenarioName ?? "";

    private void SetRuns(IEnumerable<int> ids)
    {
        // Keep the order runs were picked in (the first is the default baseline).
        var picked = ids.ToList();
        Ids = [.. Ids.Where(picked.Contains), .. picked.Where(id => !Ids.Contains(id))];
        Go();
    }

    private void SetBaseline(int id)
    {
        BaseChoice = id;
        Go();
    }

    private void SetAllLevels(bool all)
    {
        AllLevels = all;
        Go();
    }

    private void SetCases(IEnumerable<string> cases)
    {
        CaseChoice = [.. cases];
        Go();
    }

    private void Go() => Navigation.NavigateTo(Permalink.TrimStart('/'), replace: true);

    private static List<int> Parse(string? text) =>
        [.. (text ?? "").Split([',', ' ', ';'], StringSplitOptions.RemoveEmptyEntries)
            .Select(s => int.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out var id) ? id : -1)
            .Where(id => id > 0).Distinct()];
}

/// <summary>What the compare page warns about (pure: no I/O).</summary>
public static class CompareWarnings
{
    /// <summary>
    /// "#candidate vs #baseline: …" for every warning of <paramref name="comparisons"/> (workload, environment, topology,
    /// partial levels, levels without a test: <see cref="RunComparison.Compare"/>), plus a topology warning when the runs'
    /// recorded topologies differ and the comparison did not already say so.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static IReadOnlyList<string> Of(IReadOnlyList<RunEntity> runs, IReadOnlyList<RunComparisonResult> comparisons)
    {
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentNullException.ThrowIfNull(comparisons);
        var byId = runs.ToDictionary(r => r.Id);
        var warnings = new List<string>();
        foreach (var c in comparisons)
        {
            var lines = c.Warnings.ToList();
            if (byId.TryGetValue(c.BaselineRunId, out var a) && byId.TryGetValue(c.CandidateRunId, out var b)
                && (a.Topology != b.Topology || a.LinkRateMbps != b.LinkRateMbps)
                && !lines.Any(w => w.StartsWith("topology", StringComparison.Ordinal)))
            {
                lines.Add($"topology differs ({Describe(a)} in run {a.Id}, {Describe(b)} in run {b.Id}): a difference may come from the network, not the stacks");
            }

            warnings.AddRange(lines.Select(w => $"#{c.CandidateRunId} vs #{c.BaselineRunId}: {w}"));
        }

        return warnings;
    }

    /// <summary>True when <paramref name="runs"/> include both a same-machine and an emulated-lan run (docs/topologies.md).</summary>
    public static bool MixesTopologies(IReadOnlyList<RunEntity> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        return runs.Any(r => r.Topology == Dashboard.Service.Contracts.Scenarios.Topology.SameMachine)
            && runs.Any(r => r.Topology == Dashboard.Service.Contracts.Scenarios.Topology.EmulatedLan);
    }

    private static string Describe(RunEntity run) => Dashboard.Service.Contracts.Scenarios.Topology.Describe(run.Topology, run.LinkRateMbps);
}

/// <summary>The comparison's tables and charts (pure: no I/O). Relative differences are against the first run.</summary>
public static class CompareBuilder
{
    /// <summary>Cases drawn on the charts when the user has not chosen: more make the legend unreadable.</summary>
    public const int MaxCasesByDefault = 8;

    private static readonly string[] Dashes = ["solid", "dash", "dot", "dashdot"];
    private static readonly string[] Symbols = ["circle", "square", "diamond", "triangle-up", "star"];

    /// <summary>
    /// Ranking by peak throughput, the per-level table with relative differences against run
    /// <paramref name="baselineId"/> (the first of <paramref name="runs"/> when it is not among them), and the charts;
    /// levels from 20 clients on unless <paramref name="allLevels"/> (or fewer than two levels reach 20 clients:
    /// <see cref="RunView.ThesisFilterApplies"/>). The charts draw <paramref name="cases"/>, or (null) every case when
    /// there are at most <see cref="MaxCasesByDefault"/>, else the fastest ones of the baseline.
    /// </summary>
    public static CompareResult Build(
        IReadOnlyList<(int RunId, string Label, IReadOnlyList<LevelAggregate> Rows)> runs, int baselineId, bool allLevels, IReadOnlyList<string>? cases = null)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var thesis = RunView.ThesisFilterApplies(allLevels, runs.SelectMany(r => r.Rows.Select(a => a.Clients)));
        var filtered = runs.Select(r => (r.RunId, r.Label, Rows: r.Rows.Where(a => !thesis || a.Clients >= RunView.ThesisFromClients).ToList())).ToList();
        var baseIndex = Math.Max(0, filtered.FindIndex(r => r.RunId == baselineId));
        baselineId = filtered.Count > 0 ? filtered[baseIndex].RunId : 0;

        var peaks = filtered
            .SelectMany(r => r.Rows.GroupBy(Cell).Select(cell =>
            {
                var peak = cell.MaxBy(a => a.ThroughputRps.Mean)!;
                return (r.RunId, Cell: cell.Key, Peak: peak, Lowest: cell.Min(a => a.MeanMs.Mean), Errors: cell.Sum(a => a.Errors));
            }))
            .ToList();
        var baselinePeaks = peaks.Where(p => p.RunId == baselineId).ToDictionary(p => p.Cell, p => p.Peak.ThroughputRps.Mean);
        var rows = peaks
            .OrderByDescending(x => x.Peak.ThroughputRps.Mean)
            .Select((x, i) => new CompareRow(
                i + 1, x.RunId, x.Cell, x.Peak.ThroughputRps.Mean, x.Peak.Clients, x.Lowest, x.Errors,
                x.RunId != baselineId && baselinePeaks.TryGetValue(x.Cell, out var b) ? Delta(x.Peak.ThroughputRps.Mean, b) : null))
            .ToList();

        var levels = new List<CompareLevel>();
        if (filtered.Count > 0)
        {
            var lookup = filtered.Select(r => r.Rows.ToDictionary(a => (Cell(a), a.Clients))).ToList();
            foreach (var b in filtered[baseIndex].Rows.OrderBy(Cell, StringComparer.Ordinal).ThenBy(a => a.Clients))
            {
                var values = lookup.Select((l, i) => l.TryGetValue((Cell(b), b.Clients), out var a)
                    ? new CompareValue(filtered[i].RunId, a.ThroughputRps.Mean, a.MeanMs.Mean, a.Errors,
                        i == baseIndex ? null : Delta(a.ThroughputRps.Mean, b.ThroughputRps.Mean), i == baseIndex ? null : Delta(a.MeanMs.Mean, b.MeanMs.Mean))
                    : null).ToList();
                levels.Add(new CompareLevel(Cell(b), b.Clients, values));
            }
        }

        // Cases, the baseline's fastest first (then the others' by their peak).
        var allCases = peaks.OrderByDescending(p => p.RunId == baselineId).ThenByDescending(p => p.Peak.ThroughputRps.Mean)
            .Select(p => p.Cell).Distinct().ToList();
        var shown = cases is { Count: > 0 } ? allCases.Where(cases.Contains).ToList() : allCases.Take(MaxCasesByDefault).ToList();

        var throughput = new List<ChartSeries>();
        var response = new List<ChartSeries>();
        for (var r = 0; r < filtered.Count; r++)
        {
            var (runId, label, list) = filtered[r];
            foreach (var cell in list.GroupBy(Cell).Where(g => shown.Contains(g.Key)).OrderBy(g => shown.IndexOf(g.Key)))
            {
                var points = cell.OrderBy(a => a.Clients).ToList();
                var x = points.Select(p => (double)p.Clients).ToArray();
                var errors = points.Select((p, i) => (p, i)).Where(t => t.p.Errors > 0).Select(t => t.i).ToList();
                var reps = points.Any(p => p.Repetitions > 1);
                var name = $"#{runId} {cell.Key}";
                throughput.Add(new ChartSeries(name, x, [.. points.Select(p => (double?)p.ThroughputRps.Mean)], Dash: Dashes[r % Dashes.Length], ErrorPoints: errors)
                {
                    Low = reps ? [.. points.Select(p => (double?)p.ThroughputRps.Low95)] : null,
                    High = reps ? [.. points.Select(p => (double?)p.ThroughputRps.High95)] : null,
                    ColorKey = cell.Key,
                    Group = label,
                    Symbol = Symbols[r % Symbols.Length],
                });
                response.Add(new ChartSeries(name, x, [.. points.Select(p => (double?)p.MeanMs.Mean)], Dash: Dashes[r % Dashes.Length], ErrorPoints: errors)
                {
                    Low = reps ? [.. points.Select(p => (double?)p.MeanMs.Low95)] : null,
                    High = reps ? [.. points.Select(p => (double?)p.MeanMs.High95)] : null,
                    ColorKey = cell.Key,
                    Group = label,
                    Symbol = Symbols[r % Symbols.Length],
                });
            }
        }

        var note = rows.Any(r => r.Errors > 0) ? "some levels had errors (marked ✕)" : null;
        var subtitle = (thesis ? $"from {RunView.ThesisFromClients} clients on" : "all levels") + " · error bars: 95 % CI over repetitions where there are several"
            + (shown.Count < allCases.Count ? $" · {shown.Count} of {allCases.Count} cases" : "");
        List<KeyedChart> charts = throughput.Count == 0 ? [] :
        [
            new("compare-throughput", new ChartSpec("Throughput vs concurrent clients", "concurrent clients", "throughput (requests/s)", throughput, note, Subtitle: subtitle) { IntegerX = true }),
            new("compare-response-time", new ChartSpec("Mean response time vs concurrent clients", "concurrent clients", "mean response time (ms)", response, note, Subtitle: subtitle) { IntegerX = true }),
        ];
        return new CompareResult([.. filtered.Select(f => f.RunId)], rows, levels, charts, allCases, shown);
    }

    /// <summary>(value − baseline) ÷ baseline × 100, or null when the baseline is 0.</summary>
    public static double? Delta(double value, double baseline) => baseline == 0 ? null : (value - baseline) / baseline * 100;

    private static string Cell(LevelAggregate a) => $"{a.Variant} × {a.Client} × {a.Payload}";
}
