using System.Globalization;
using Dashboard.Data;
using Dashboard.Web.Charts;
using Microsoft.AspNetCore.Components;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Components.Pages;

/// <summary>One cell of one run in the comparison.</summary>
/// <param name="Rank">Rank by peak throughput, from 1.</param>
/// <param name="RunId">Run id.</param>
/// <param name="Cell">Variant × client × payload.</param>
/// <param name="PeakThroughputRps">Highest throughput over the levels, req/s.</param>
/// <param name="PeakClients">Clients at the peak.</param>
/// <param name="LowestMeanMs">Lowest mean response time over the levels, ms.</param>
/// <param name="Errors">Failed requests over all levels.</param>
public sealed record CompareRow(int Rank, int RunId, string Cell, double PeakThroughputRps, int PeakClients, double LowestMeanMs, long Errors);

/// <summary><c>/compare?runs=1,2,3</c>: the runs' throughput and response time vs clients on one chart each, and a ranking.</summary>
public sealed partial class Compare
{
    [Inject] public required IDbContextFactory<ResultsDbContext> Contexts { get; init; }

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    [SupplyParameterFromQuery(Name = "runs")] public string? RunsQuery { get; set; }

    private string RunsText { get; set; } = "";

    private List<int> Ids { get; set; } = [];

    private List<int> Missing { get; set; } = [];

    private List<CompareRow> Rows { get; set; } = [];

    private List<(string Key, ChartSpec Spec)> Charts { get; set; } = [];

    private string Permalink => $"/compare?runs={string.Join(',', Ids)}";

    /// <inheritdoc />
    protected override async Task OnParametersSetAsync()
    {
        Ids = Parse(RunsQuery);
        RunsText = string.Join(", ", Ids);
        await LoadAsync();
    }

    private void Apply() => Navigation.NavigateTo($"compare?runs={string.Join(',', Parse(RunsText))}");

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

            perRun.Add((id, await RunPageQueries.AggregateAsync(db, [.. Store.DataRunIds(id)], CancellationToken.None)));
        }

        Rows = [.. perRun
            .SelectMany(r => r.Rows.GroupBy(a => a.Cell).Select(cell =>
            {
                var peak = cell.MaxBy(a => a.ThroughputRps)!;
                return (r.RunId, Cell: cell.Key, Peak: peak, Lowest: cell.Min(a => a.MeanMs), Errors: cell.Sum(a => a.Errors));
            }))
            .OrderByDescending(x => x.Peak.ThroughputRps)
            .Select((x, i) => new CompareRow(i + 1, x.RunId, x.Cell, x.Peak.ThroughputRps, x.Peak.Clients, x.Lowest, x.Errors))];

        var throughput = new List<ChartSeries>();
        var response = new List<ChartSeries>();
        foreach (var (runId, rows) in perRun)
        {
            foreach (var cell in rows.GroupBy(a => a.Cell))
            {
                var points = cell.OrderBy(a => a.Clients).ToList();
                var x = points.Select(p => (double)p.Clients).ToArray();
                var errors = points.Select((p, i) => (p, i)).Where(t => t.p.Errors > 0).Select(t => t.i).ToList();
                throughput.Add(new ChartSeries($"#{runId} {cell.Key}", x, [.. points.Select(p => (double?)p.ThroughputRps)], ErrorPoints: errors));
                response.Add(new ChartSeries($"#{runId} {cell.Key}", x, [.. points.Select(p => (double?)p.MeanMs)], ErrorPoints: errors));
            }
        }

        var note = Rows.Any(r => r.Errors > 0) ? "some levels had errors (marked ✕)" : null;
        Charts = throughput.Count == 0 ? [] :
        [
            ("compare-throughput", new ChartSpec("Throughput vs concurrent clients", "concurrent clients", "throughput (req/s)", throughput, note)),
            ("compare-response-time", new ChartSpec("Mean response time vs concurrent clients", "concurrent clients", "response time (ms)", response, note)),
        ];
    }

    private static List<int> Parse(string? text) =>
        [.. (text ?? "").Split([',', ' ', ';'], StringSplitOptions.RemoveEmptyEntries)
            .Select(s => int.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out var id) ? id : -1)
            .Where(id => id > 0).Distinct()];
}
