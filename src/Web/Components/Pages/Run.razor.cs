using Dashboard.Service.Contracts.Progress;
using System.Globalization;
using Dashboard.Data;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Charts;
using Dashboard.Web.Runs;
using Microsoft.AspNetCore.Components;
using Microsoft.EntityFrameworkCore;
using Radzen;

namespace Dashboard.Web.Components.Pages;

/// <summary>
/// The run page (<c>/runs/{id}</c>): live progress while the run runs, then the per-level table; charts of
/// response time and throughput vs clients, response time during the run, server CPU and memory over time.
/// </summary>
public sealed partial class Run : IDisposable
{
    private static readonly CultureInfo Culture = CultureInfo.InvariantCulture;
    private IDisposable? _subscription;
    private bool _loaded;
    private int _loading;
    private volatile bool _dirty;

    [Parameter] public int Id { get; set; }

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required IDbContextFactory<ResultsDbContext> Contexts { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required QueueService Queue { get; init; }

    [Inject] public required NotificationService Notifications { get; init; }

    [Inject] public required DialogService Dialogs { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    private RunPageData? Data { get; set; }

    private List<ProgressEvent> LiveEvents { get; } = [];

    private List<(string Key, ChartSpec Spec)> Charts { get; set; } = [];

    private bool FromTwentyClients { get; set; }

    private double ProgressPercent => Data?.Run is { TotalLevels: > 0 } r ? 100.0 * r.CompletedLevels / r.TotalLevels : Data?.Run.Status == RunStatus.Completed ? 100 : 0;

    /// <inheritdoc />
    protected override async Task OnParametersSetAsync()
    {
        _subscription?.Dispose();
        LiveEvents.Clear();
        _subscription = Events.Subscribe(OnRunUpdate);
        await LoadAsync();
    }

    private void OnRunUpdate(RunUpdate update)
    {
        if (update.RunId != Id)
        {
            return;
        }

        _ = InvokeAsync(async () =>
        {
            if (update.Progress is { Event: "level-completed" } progress)
            {
                LiveEvents.Add(progress);
            }

            await LoadAsync();
            StateHasChanged();
        });
    }

    private async Task LoadAsync()
    {
        // One load at a time; updates arriving meanwhile cause one more load.
        _dirty = true;
        if (Interlocked.Exchange(ref _loading, 1) == 1)
        {
            return;
        }

        try
        {
            while (_dirty)
            {
                _dirty = false;
                await using var db = await Contexts.CreateDbContextAsync();
                Data = await RunPageQueries.LoadAsync(db, Id, Store.DataRunIds(Id), CancellationToken.None);
                BuildCharts();
            }
        }
        finally
        {
            _loaded = true;
            Interlocked.Exchange(ref _loading, 0);
        }
    }

    private void BuildCharts()
    {
        Charts = Data is null ? [] : RunCharts.Build(Data, FromTwentyClients);
    }

    private async Task CancelAsync()
    {
        var confirmed = await Dialogs.Confirm(
            $"Cancel run #{Id}? A running benchmark stops after its current level's requests; the samples measured so far are kept.",
            "Cancel run", new ConfirmOptions { OkButtonText = "Cancel the run", CancelButtonText = "Keep it running" });
        if (confirmed != true)
        {
            return;
        }

        var result = await Queue.CancelAsync(Id, CancellationToken.None);
        Notifications.Notify(new NotificationMessage
        {
            Severity = result is CancelResult.Cancelled or CancelResult.Stopping ? NotificationSeverity.Info : NotificationSeverity.Warning,
            Summary = result switch
            {
                CancelResult.Cancelled => "Run cancelled",
                CancelResult.Stopping => "Stopping the runner (SIGINT); samples are kept",
                CancelResult.AlreadyFinished => "The run had already ended",
                _ => "No such run",
            },
            Duration = 5000,
        });
        await LoadAsync();
    }

    private async Task RequeueAsync()
    {
        var run = await Queue.RequeueAsync(Id, CancellationToken.None);
        if (run is not null)
        {
            Navigation.NavigateTo($"runs/{run.Id}");
        }
    }

    private static string Time(DateTime utc) => utc.ToString("yyyy-MM-dd HH:mm:ss 'UTC'", Culture);

    /// <inheritdoc />
    public void Dispose() => _subscription?.Dispose();
}

/// <summary>The run page's charts, built from its data (pure: no I/O).</summary>
public static class RunCharts
{
    /// <summary>The charts of <paramref name="data"/>, keyed for <c>@key</c> and test ids.</summary>
    public static List<(string Key, ChartSpec Spec)> Build(RunPageData data, bool fromTwentyClients)
    {
        ArgumentNullException.ThrowIfNull(data);
        var charts = new List<(string, ChartSpec)>();
        var aggregates = data.Aggregates.Where(a => !fromTwentyClients || a.Clients >= 20).ToList();
        if (aggregates.Count > 0)
        {
            var secure = aggregates.Where(a => IsSecure(a.Variant)).ToList();
            var unsecure = aggregates.Where(a => !IsSecure(a.Variant)).ToList();
            var panels = secure.Count > 0 && unsecure.Count > 0
                ? new[] { ("unsecure", " — unsecure variants", unsecure), ("secure", " — secure variants", secure) }
                : [("all", "", aggregates)];
            foreach (var (key, suffix, rows) in panels)
            {
                charts.Add(($"throughput-{key}", VsClients(rows, "Throughput vs concurrent clients" + suffix, "throughput (req/s)", a => a.ThroughputRps, null)));
                charts.Add(($"response-time-{key}", VsClients(rows, "Mean response time vs concurrent clients" + suffix, "response time (ms)", a => a.MeanMs, a => a.P99Ms)));
            }
        }

        if (data.Latency.Count > 0)
        {
            var cellOfLevel = data.Levels.ToDictionary(l => l.Id, l => $"{l.Variant} × {l.Client} × {l.Payload}");
            var series = data.Latency
                .GroupBy(p => cellOfLevel.GetValueOrDefault(p.LevelId, "?"))
                .Select(g => new ChartSeries(g.Key, [.. g.Select(p => p.Seconds)], [.. g.Select(p => (double?)p.MeanMs)]))
                .ToList();
            charts.Add(("latency-over-time", new ChartSpec(
                "Response time during the run", "time since the run started (s)", "response time (ms)", series,
                Subtitle: "mean of the raw samples (warm-up excluded) per time interval")));
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

            charts.Add(("server-cpu", new ChartSpec("Server CPU over time", "time since the run started (s)", "CPU (% of all cores)", cpu,
                Subtitle: "host's /resources, polled by the runner; generator = the runner and its drivers")));
            charts.Add(("server-memory", new ChartSpec("Server available memory over time", "time since the run started (s)", "available memory (MB)",
                [new("available memory", x, [.. data.Resources.Select(r => (double?)r.AvailableMemoryMb)])],
                Subtitle: "lowest reading per interval (Linux MemAvailable)", ZeroY: false)));
        }

        return charts;
    }

    private static ChartSpec VsClients(List<LevelAggregate> rows, string title, string yTitle, Func<LevelAggregate, double> value, Func<LevelAggregate, double>? second)
    {
        var series = new List<ChartSeries>();
        foreach (var cell in rows.GroupBy(r => r.Cell))
        {
            var points = cell.OrderBy(r => r.Clients).ToList();
            var errors = points.Select((p, i) => (p, i)).Where(t => t.p.Errors > 0).Select(t => t.i).ToList();
            var text = points.Select(p => string.Create(CultureInfo.InvariantCulture,
                $"{p.Clients} clients: {value(p):0.###}{(p.Errors > 0 ? $" — {p.Errors} errors of {p.Requests}" : "")}")).ToList();
            series.Add(new ChartSeries(cell.Key, [.. points.Select(p => (double)p.Clients)], [.. points.Select(p => (double?)value(p))], text, ErrorPoints: errors));
            if (second is not null)
            {
                series.Add(new ChartSeries(cell.Key + " p99", [.. points.Select(p => (double)p.Clients)], [.. points.Select(p => (double?)second(p))], Dash: "dot", Hidden: true));
            }
        }

        var errorLevels = rows.Count(r => r.Errors > 0);
        var note = errorLevels > 0 ? $"{errorLevels} level(s) had errors (marked ✕); their figures include failed requests" : null;
        var subtitle = second is null
            ? "completed requests ÷ (end of the last client − start of the first), per level"
            : "mean per level; p99 (dotted) listed in the legend, click to show";
        return new ChartSpec(title, "concurrent clients", yTitle, series, note, Subtitle: subtitle);
    }

    private static bool IsSecure(string variant) => VariantCatalogue.TryGet(variant, out var v) && v.IsSecure;
}
