using Dashboard.Service.Contracts.Progress;
using System.Globalization;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Charts;
using Dashboard.Web.Runs;
using Microsoft.AspNetCore.Components;
using Microsoft.JSInterop;
using Dashboard.Web.Results;
using MudBlazor;

namespace Dashboard.Web.Components.Pages;

/// <summary>
/// The run page (<c>/runs/{id}</c>): live progress while the run runs; the thesis's panels (response time and
/// throughput vs clients, unsecure and secure side by side, per payload or payload class, from 20 clients on unless
/// all levels are asked for), ranking tables, percentile spectrum, latency vs payload size, bytes on the wire,
/// sequential calls per second, response time, server CPU and available memory over time; the per-level table.
/// The panel choices live in the query string (<see cref="RunView"/>).
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

    [Inject] public required RunResultsService Results { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required QueueService Queue { get; init; }

    [Inject] public required ISnackbar Snackbar { get; init; }

    [Inject] public required IDialogService Dialogs { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    [Inject] public required IJSRuntime JS { get; init; }

    /// <summary>The signed-in user (Auth/CircuitAccess.cs: cancel and run again need Operator).</summary>
    [CascadingParameter] public Task<Microsoft.AspNetCore.Components.Authorization.AuthenticationState>? AuthState { get; set; }

    /// <summary><c>claims=open</c>: the claims panel starts expanded (the preset cards' verdict summaries link to it).</summary>
    [SupplyParameterFromQuery(Name = "claims")] public string? ClaimsQuery { get; set; }

    /// <summary><c>preset=4</c>: the claims panel lists preset 4's claims, as that preset's card counts them (its link says so).</summary>
    [SupplyParameterFromQuery(Name = "preset")] public int? PresetQuery { get; set; }

    private bool ClaimsOpen => string.Equals(ClaimsQuery, "open", StringComparison.OrdinalIgnoreCase);

    // The claims panel is computed once it is first opened (or the address opens it), not with every view of the page: its
    // verdicts read raw samples (1.2 s for a run of 2 M samples), time the charts waited for (issue #36).
    private bool _claimsShown;
    private bool _claimsExpanded;

    private bool ClaimsExpanded
    {
        get => _claimsExpanded;
        set
        {
            _claimsExpanded = value;
            _claimsShown |= value;
        }
    }

    // Renders left to try scrolling to the address's #fragment (a chart, the claims panel) once it is rendered.
    private int _anchorTries = 40;

    /// <summary>The scenario's precision target (a fraction, docs/statistics.md "Precision target"), or null when it had none or its JSON does not say.</summary>
    internal static double? PrecisionTargetOf(string scenarioJson)
    {
        try
        {
            using var document = System.Text.Json.JsonDocument.Parse(scenarioJson);
            return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object
                && document.RootElement.TryGetProperty("precision", out var p) && p.TryGetDouble(out var target) ? target : null;
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }

    private int PrecisionReached(double target) => Data?.Aggregates.Count(a => LevelPrecision.Of(a).Meets(target)) ?? 0;

    private string PrecisionNote(double target)
    {
        var levels = Data?.Aggregates.Count ?? 0;
        var reached = PrecisionReached(target);
        var within = string.Create(Culture, $"±{target * 100:0.0##} %");
        return reached == levels
            ? $"Precision target {within}: every level reached it (the 95 % intervals of throughput and, where measured, server CPU per request). The Precision column gives each level's."
            : $"Precision target {within}: {reached} of {levels} levels reached it; the others stopped at a cap (maxRepetitions or precisionTimeLimit) or were cut. The Precision column gives what each level reached: treat the wider ones as noisier than the target.";
    }

    private RunPageData? Data { get; set; }

    private List<ProgressEvent> LiveEvents { get; } = [];

    private RunFigures? Figures { get; set; }

    private IReadOnlyList<RankingTable> Rankings { get; set; } = [];

    private RunView View { get; set; } = RunView.Default;

    /// <summary>Chart key → the id of its container (<c>chart-throughput</c>, …) for the first chart of each kind; the claims panel links to them.</summary>
    private IReadOnlyDictionary<string, string> Anchors { get; set; } = new Dictionary<string, string>();

    /// <summary>The levels the panels show that were generator-bound, e.g. <c>IceTcp × java at 300 clients</c>.</summary>
    private IReadOnlyList<string> GeneratorBound { get; set; } = [];

    /// <summary>The run's levels by topology, when the run has parts on and across machines; else one topology.</summary>
    private Dashboard.Data.Results.TopologyComparisonResult? TopologyResult { get; set; }

    private int _loadedId;

    [SupplyParameterFromQuery(Name = "levels")] public string? LevelsQuery { get; set; }

    [SupplyParameterFromQuery(Name = "payload")] public string? PayloadQuery { get; set; }

    [SupplyParameterFromQuery(Name = "panels")] public string? PanelsQuery { get; set; }

    [SupplyParameterFromQuery(Name = "spectrum")] public string? SpectrumQuery { get; set; }

    [SupplyParameterFromQuery(Name = "size")] public string? SizeQuery { get; set; }

    [SupplyParameterFromQuery(Name = "p99")] public string? P99Query { get; set; }

    [SupplyParameterFromQuery(Name = "y")] public string? YQuery { get; set; }

    /// <summary>The latest within-level progress of the running level (a <c>level-progress</c> event), or null.</summary>
    private ProgressEvent? LiveProgress { get; set; }

    /// <summary>True once the run has stored a sample (its CSV links and charts have something to show).</summary>
    private bool HasData => Data is { } d && d.SampleCounts.Measured + d.SampleCounts.Warmup > 0;

    /// <summary>
    /// "N of M levels", then the runner's text without its own count (it repeated it); before the runner has said how many
    /// levels there are: when a scheduled run starts, that a queued run waits, or that an ended run measured nothing.
    /// </summary>
    private string ProgressLine
    {
        get
        {
            var run = Data!.Run;
            if (run.TotalLevels == 0)
            {
                return run.Status switch
                {
                    RunStatus.Scheduled => $"scheduled: starts at {(run.ScheduledUtc is { } at ? Time(at) : "its time")}; nothing measured yet",
                    RunStatus.Queued => "queued: waiting for the benchmark worker (one run at a time per machine)",
                    RunStatus.Running => "starting: the runner is checking the host and planning the levels",
                    _ when !HasData => $"{StatusWord(run.Status)} before its first level: nothing was measured",
                    _ => string.Create(Culture, $"{run.CompletedLevels} levels"),
                };
            }

            var head = string.Create(Culture, $"{run.CompletedLevels} of {run.TotalLevels} levels");
            var text = run.ProgressText is null ? "" : LevelCount().Replace(run.ProgressText, "").Trim();
            return text.Length == 0 ? head : $"{head} — {text}";
        }
    }

    /// <summary>Elapsed time, the ETA (from the mean level time so far) while running, and the live rate.</summary>
    private RunTiming? Timing => Data?.Run is { StartedUtc: { } started } run
        ? RunTiming.Of(started, run.EndedUtc ?? DateTime.UtcNow, run.CompletedLevels, run.TotalLevels, run.Status == RunStatus.Running)
        : null;

    /// <summary>
    /// Where the run ran, for its header (issue #36: a run shows its target host with the topology): <c>on
    /// http://10.9.9.9:5090 · cross-machine (emulated LAN, 100 Mbit/s)</c>; the host part is left out when the scenario
    /// names none (or is not JSON).
    /// </summary>
    internal static string TargetText(Dashboard.Data.Entities.RunEntity run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var topology = Dashboard.Service.Contracts.Scenarios.Topology.Describe(run.Topology, run.LinkRateMbps);
        return HostOf(run.ScenarioJson) is { } host ? $"on {host} · {topology}" : topology;
    }

    private static string? HostOf(string scenarioJson)
    {
        try
        {
            using var document = System.Text.Json.JsonDocument.Parse(scenarioJson);
            return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object && document.RootElement.TryGetProperty("host", out var host)
                && host.ValueKind == System.Text.Json.JsonValueKind.String && host.GetString() is { Length: > 0 } text ? text : null;
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// True for a run of open levels (arrival rates, not client counts): a level says so, or, before any level is stored,
    /// the scenario asks for <c>workload: "open"</c>. Labels then say "req/s" (offered rate) where closed runs say "clients".
    /// </summary>
    private bool Open => Data is { } d && (d.Levels.Any(l => l.TargetRateRps is not null) || Dashboard.Data.Results.OpenSweep.IsOpenWorkload(d.Run.ScenarioJson));

    /// <summary>
    /// The open sweep's answer, "Highest rate with p99 ≤ 10 ms and nothing dropped — AspNetHttpJson × dotnet × Int: 2,000 req/s"
    /// (<see cref="OpenSweepCharts.Highest"/>), shown at the top of the page: it was only the end of the sweep chart's
    /// caption, far down. Null for a closed run, a scenario without a p99 target, or before an open level is stored.
    /// </summary>
    private string? OpenSweepHighest => Open && Data is { } d
        ? OpenSweepCharts.Highest(Dashboard.Data.Results.OpenSweep.Of(d.Levels, Dashboard.Data.Results.OpenSweep.P99TargetOf(d.Run.ScenarioJson)))
        : null;

    /// <summary>The running level's live figures, e.g. <c>MetroSoap11 × java × Int, 20 clients: 1,234 requests, 812 req/s</c>.</summary>
    private string? Live => Data?.Run.Status == RunStatus.Running && LiveProgress is { } p
        ? string.Create(Culture, $"{p.Variant} × {p.Client} × {p.Payload}, {(p.Clients is { } level ? Format.Level(level, Open) : "level")}: {p.Requests:N0} requests, {p.ThroughputRps:N0} req/s{(p.Errors > 0 ? $", {p.Errors:N0} errors" : "")}")
        : null;

    private string FileName(string key, RunFigures figures) =>
        $"run-{Id}-{key}{(figures.Payload is { } payload && !key.StartsWith("server-", StringComparison.Ordinal) && !key.EndsWith("-over-time", StringComparison.Ordinal) && key is not ("latency-vs-size" or "wire-bytes") ? "-" + Slug(payload) : "")}";

    private static string Slug(string text) => new([.. text.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '-')]);

    [System.Text.RegularExpressions.GeneratedRegex(@"^(running: )?\d+ of \d+ levels[;,]?\s*")]
    private static partial System.Text.RegularExpressions.Regex LevelCount();

    private static IReadOnlyList<ExportSize> SizeChoices => ExportSize.Choices;

    private string ViewLink => View.ToQuery() is { Length: > 0 } q ? $"runs/{Id}?{q}" : $"runs/{Id}";

    private double ProgressPercent => Data?.Run is { TotalLevels: > 0 } r ? 100.0 * r.CompletedLevels / r.TotalLevels : Data?.Run.Status == RunStatus.Completed ? 100 : 0;

    /// <inheritdoc />
    protected override async Task OnParametersSetAsync()
    {
        if (ClaimsOpen)
        {
            ClaimsExpanded = true;
        }

        _anchorTries = 40; // a new address may name a chart (#chart-…) that the charts below render later
        var view = RunView.Parse(LevelsQuery, PayloadQuery, PanelsQuery, SpectrumQuery, SizeQuery, P99Query, YQuery);
        if (_loadedId == Id && Data is not null)
        {
            // Only the query string changed: rebuild from the loaded data, unless SetView already did.
            if (view != View)
            {
                View = view;
                BuildCharts();
            }

            return;
        }

        View = view;

        _loadedId = Id;
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

        if (update.Progress is { Event: ProgressEvents.LevelProgress } live)
        {
            // Within a level: only the live line changes; nothing is read from the database.
            _ = InvokeAsync(() =>
            {
                LiveProgress = live;
                StateHasChanged();
            });
            return;
        }

        _ = InvokeAsync(async () =>
        {
            if (update.Progress is { Event: ProgressEvents.LevelCompleted } progress)
            {
                LiveEvents.Add(progress);
                LiveProgress = null;
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
                // A loaded run is brought up to date (new levels only); a first visit reads it whole.
                Data = Data is { } current && current.Run.Id == Id
                    ? await Results.RefreshAsync(current, CancellationToken.None)
                    : await Results.LoadRunAsync(Id, CancellationToken.None);
                BuildCharts();
            }

            if (Data?.Run.Status is RunStatus.Completed or RunStatus.Cancelled or RunStatus.Failed && TopologyResult is null)
            {
                TopologyResult = await Results.TopologyAsync(Id, RunView.ThesisFromClients, CancellationToken.None);
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
        Figures = Data is null ? null : RunCharts.Build(Data, View);
        Anchors = Figures is null ? new Dictionary<string, string>() : AnchorsOf([.. Figures.Panels, .. Figures.Views, .. Figures.OverTime]);
        var shownFrom = Data is not null && !Open && RunView.ThesisFilterApplies(View.AllLevels, Data.Aggregates.Select(a => a.Clients)) ? RunView.ThesisFromClients : 1;
        GeneratorBound = Data is null ? [] : [.. Data.Aggregates
            .Where(a => a.Bound == Dashboard.Data.Entities.LevelBound.Generator && a.Clients >= shownFrom)
            .Select(a => string.Create(Culture, $"{a.Variant} × {a.Client} × {a.Payload} at {Format.Level(a.Clients, a.IsOpen)}"))];
        // Rankings count the levels the panels show: from 20 clients on, or every level when asked or when none reaches 20.
        var thesis = Data is not null && !Open && RunView.ThesisFilterApplies(View.AllLevels, Data.Aggregates.Select(a => a.Clients));
        Rankings = Data is null ? [] : Dashboard.Data.Results.Rankings.Compute(
            Data.Aggregates, new RankingOptions(FromClients: thesis ? RunView.ThesisFromClients : 1));
    }

    /// <summary>The anchor of each chart kind the claims panel links to (<c>/runs/{id}#chart-throughput</c>), on its first chart.</summary>
    internal static IReadOnlyDictionary<string, string> AnchorsOf(IEnumerable<KeyedChart> charts)
    {
        var anchors = new Dictionary<string, string>(StringComparer.Ordinal);
        var used = new HashSet<string>(StringComparer.Ordinal);
        foreach (var chart in charts)
        {
            var anchor = chart.Key switch
            {
                "server-cpu" => "chart-cpu",
                "server-memory" => "chart-memory",
                "wire-bytes" => "chart-wire-bytes",
                "sequential-calls" => "chart-sequential-calls",
                "open-sweep" => "chart-open-sweep",
                _ when chart.Key.StartsWith("throughput-", StringComparison.Ordinal) && !chart.Key.EndsWith("-over-time", StringComparison.Ordinal) => "chart-throughput",
                _ when chart.Key.StartsWith("response-time-", StringComparison.Ordinal) => "chart-response-time",
                _ => null,
            };
            if (anchor is not null && used.Add(anchor))
            {
                anchors[chart.Key] = anchor;
            }
        }

        return anchors;
    }

    /// <inheritdoc />
    protected override async Task OnAfterRenderAsync(bool firstRender)
    {
        // The browser looked for the #fragment before the charts existed: scroll once the element is rendered.
        if (_anchorTries <= 0 || Data is null)
        {
            return;
        }

        _anchorTries--;
        try
        {
            if (!await JS.InvokeAsync<bool>("dashboardAnchors.hasHash") || await JS.InvokeAsync<bool>("dashboardAnchors.scrollToHash"))
            {
                _anchorTries = 0;
            }
        }
        catch (JSException)
        {
            _anchorTries = 0;
        }
        catch (JSDisconnectedException)
        {
            _anchorTries = 0;
        }
    }

    /// <summary>Shows <paramref name="view"/> and puts it in the address, so a link reproduces it.</summary>
    private void SetView(RunView view)
    {
        View = view;
        BuildCharts();
        Navigation.NavigateTo(ViewLink, replace: true);
    }

    private async Task CancelAsync()
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "cancel runs"))
        {
            return;
        }

        var confirmed = await Dialogs.ShowMessageBoxAsync("Cancel run",
            $"Cancel run #{Id}? A running benchmark stops after its current level's requests; the samples measured so far are kept.",
            yesText: "Cancel the run", cancelText: "Keep it running");
        if (confirmed != true)
        {
            return;
        }

        var result = await Queue.CancelAsync(Id, CancellationToken.None);
        Snackbar.Add(
            result switch
            {
                CancelResult.Cancelled => "Run cancelled",
                CancelResult.Stopping => "Stopping the runner (SIGTERM); samples are kept",
                CancelResult.AlreadyFinished => "The run had already ended",
                _ => "No such run",
            },
            result is CancelResult.Cancelled or CancelResult.Stopping ? Severity.Info : Severity.Warning);
        await LoadAsync();
    }

    private async Task RequeueAsync()
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "queue runs"))
        {
            return;
        }

        var run = await Queue.RequeueAsync(Id, CancellationToken.None);
        if (run is not null)
        {
            Navigation.NavigateTo($"runs/{run.Id}");
        }
    }

    private static string StatusWord(RunStatus status) => status switch
    {
        RunStatus.Failed => "failed",
        RunStatus.Cancelled => "cancelled",
        RunStatus.Interrupted => "interrupted",
        _ => "ended",
    };

    /// <summary>Where an imported run came from, for its note: "run #12 of the exporting dashboard, exported 2026-11-27 14:02:11 UTC by Dashboard 1.0.0 (commit abc1234)".</summary>
    internal static string ImportedText(string importedJson)
    {
        try
        {
            var origin = System.Text.Json.JsonSerializer.Deserialize<Dashboard.Data.Export.BundleOrigin>(importedJson, System.Text.Json.JsonSerializerOptions.Web);
            if (origin is null)
            {
                return "origin not recorded";
            }

            var product = origin.Product is { } p ? $" by Dashboard {p.Version}{(p.Commit is { } c ? $" (commit {c[..Math.Min(12, c.Length)]})" : "")}" : "";
            return $"run #{origin.OriginalRunId} of the exporting dashboard, exported {Time(origin.ExportedUtc)}{product}";
        }
        catch (System.Text.Json.JsonException)
        {
            return "origin not readable";
        }
    }

    private static string Time(DateTime utc) => utc.ToString("yyyy-MM-dd HH:mm:ss 'UTC'", Culture);

    /// <inheritdoc />
    public void Dispose() => _subscription?.Dispose();
}
