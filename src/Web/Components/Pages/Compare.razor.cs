using System.Globalization;
using Dashboard.Data;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Microsoft.AspNetCore.Components;
using Microsoft.EntityFrameworkCore;

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

/// <summary>
/// <c>/compare?runs=1,2,3</c>: the runs' throughput and response time vs clients on one chart each, relative
/// differences of every level against the first run (the baseline), and a ranking by peak throughput. The link
/// reproduces the view (<c>levels=all</c> shows the levels under 20 clients too).
/// </summary>
public sealed partial class Compare
{
    [Inject] public required IDbContextFactory<ResultsDbContext> Contexts { get; init; }

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    [SupplyParameterFromQuery(Name = "runs")] public string? RunsQuery { get; set; }

    [SupplyParameterFromQuery(Name = "levels")] public string? LevelsQuery { get; set; }

    private string RunsText { get; set; } = "";

    private List<int> Ids { get; set; } = [];

    private List<int> Found { get; set; } = [];

    private List<int> Missing { get; set; } = [];

    private List<CompareRow> Rows { get; set; } = [];

    private List<CompareLevel> Levels { get; set; } = [];

    private List<KeyedChart> Charts { get; set; } = [];

    private bool AllLevels { get; set; }

    private int? Baseline => Found.Count > 0 ? Found[0] : null;

    private string Permalink => $"/compare?runs={string.Join(',', Ids)}{(AllLevels ? "&levels=all" : "")}";

    /// <inheritdoc />
    protected override async Task OnParametersSetAsync()
    {
        Ids = Parse(RunsQuery);
        AllLevels = string.Equals(LevelsQuery, "all", StringComparison.OrdinalIgnoreCase);
        RunsText = string.Join(", ", Ids);
        await LoadAsync();
    }

    private void Apply() => Navigation.NavigateTo($"compare?runs={string.Join(',', Parse(RunsText))}{(AllLevels ? "&levels=all" : "")}");

    private void SetAllLevels(bool all)
    {
        AllLevels = all;
        Navigation.NavigateTo(Permalink.TrimStart('/'), replace: true);
    }

    private async Task LoadAsync()
    {
        await using var db = await Contexts.CreateDbContextAsync();
        var perRun = new List<(int RunId, IReadOnlyList<LevelAggregate> Rows)>();
        Missing = [];
        foreach (var id in Ids)
        {
            if (!await db.Runs.AnyAsync(r => r.Id == id))
            {
                Missing.Add(id);
                continue;
            }

            perRun.Add((id, await ResultsQueries.LevelAggregatesAsync(db, [.. Store.DataRunIds(id)], CancellationToken.None)));
        }

        Found = [.. perRun.Select(r => r.RunId)];
        var (rows, levels, charts) = CompareBuilder.Build(perRun, AllLevels);
        (Rows, Levels, Charts) = (rows, levels, charts);
    }

    private static List<int> Parse(string? text) =>
        [.. (text ?? "").Split([',', ' ', ';'], StringSplitOptions.RemoveEmptyEntries)
            .Select(s => int.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out var id) ? id : -1)
            .Where(id => id > 0).Distinct()];
}

/// <summary>The comparison's tables and charts (pure: no I/O). Relative differences are against the first run.</summary>
public static class CompareBuilder
{
    /// <summary>
    /// Ranking by peak throughput, the per-level table with relative differences against the first run of
    /// <paramref name="runs"/>, and the charts; levels from 20 clients on unless <paramref name="allLevels"/> (or fewer
    /// than two levels reach 20 clients: <see cref="RunView.ThesisFilterApplies"/>).
    /// </summary>
    public static (List<CompareRow> Rows, List<CompareLevel> Levels, List<KeyedChart> Charts) Build(
        IReadOnlyList<(int RunId, IReadOnlyList<LevelAggregate> Rows)> runs, bool allLevels)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var thesis = RunView.ThesisFilterApplies(allLevels, runs.SelectMany(r => r.Rows.Select(a => a.Clients)));
        var filtered = runs.Select(r => (r.RunId, Rows: r.Rows.Where(a => !thesis || a.Clients >= RunView.ThesisFromClients).ToList())).ToList();

        var peaks = filtered
            .SelectMany(r => r.Rows.GroupBy(Cell).Select(cell =>
            {
                var peak = cell.MaxBy(a => a.ThroughputRps.Mean)!;
                return (r.RunId, Cell: cell.Key, Peak: peak, Lowest: cell.Min(a => a.MeanMs.Mean), Errors: cell.Sum(a => a.Errors));
            }))
            .ToList();
        var baselineId = filtered.Count > 0 ? filtered[0].RunId : 0;
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
            foreach (var b in filtered[0].Rows.OrderBy(Cell, StringComparer.Ordinal).ThenBy(a => a.Clients))
            {
                var values = lookup.Select((l, i) => l.TryGetValue((Cell(b), b.Clients), out var a)
                    ? new CompareValue(filtered[i].RunId, a.ThroughputRps.Mean, a.MeanMs.Mean, a.Errors,
                        i == 0 ? null : Delta(a.ThroughputRps.Mean, b.ThroughputRps.Mean), i == 0 ? null : Delta(a.MeanMs.Mean, b.MeanMs.Mean))
                    : null).ToList();
                levels.Add(new CompareLevel(Cell(b), b.Clients, values));
            }
        }

        var throughput = new List<ChartSeries>();
        var response = new List<ChartSeries>();
        foreach (var (runId, list) in filtered)
        {
            foreach (var cell in list.GroupBy(Cell))
            {
                var points = cell.OrderBy(a => a.Clients).ToList();
                var x = points.Select(p => (double)p.Clients).ToArray();
                var errors = points.Select((p, i) => (p, i)).Where(t => t.p.Errors > 0).Select(t => t.i).ToList();
                var reps = points.Any(p => p.Repetitions > 1);
                throughput.Add(new ChartSeries($"#{runId} {cell.Key}", x, [.. points.Select(p => (double?)p.ThroughputRps.Mean)], ErrorPoints: errors)
                {
                    Low = reps ? [.. points.Select(p => (double?)p.ThroughputRps.Low95)] : null,
                    High = reps ? [.. points.Select(p => (double?)p.ThroughputRps.High95)] : null,
                });
                response.Add(new ChartSeries($"#{runId} {cell.Key}", x, [.. points.Select(p => (double?)p.MeanMs.Mean)], ErrorPoints: errors)
                {
                    Low = reps ? [.. points.Select(p => (double?)p.MeanMs.Low95)] : null,
                    High = reps ? [.. points.Select(p => (double?)p.MeanMs.High95)] : null,
                });
            }
        }

        var note = rows.Any(r => r.Errors > 0) ? "some levels had errors (marked ✕)" : null;
        var subtitle = (thesis ? $"from {RunView.ThesisFromClients} clients on" : "all levels") + "; error bars: 95 % CI over repetitions where there are several";
        List<KeyedChart> charts = throughput.Count == 0 ? [] :
        [
            new("compare-throughput", new ChartSpec("Throughput vs concurrent clients", "concurrent clients", "throughput (requests/s)", throughput, note, Subtitle: subtitle)),
            new("compare-response-time", new ChartSpec("Mean response time vs concurrent clients", "concurrent clients", "mean response time (ms)", response, note, Subtitle: subtitle)),
        ];
        return (rows, levels, charts);
    }

    /// <summary>(value − baseline) ÷ baseline × 100, or null when the baseline is 0.</summary>
    public static double? Delta(double value, double baseline) => baseline == 0 ? null : (value - baseline) / baseline * 100;

    private static string Cell(LevelAggregate a) => $"{a.Variant} × {a.Client} × {a.Payload}";
}
