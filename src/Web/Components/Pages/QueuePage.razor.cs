using System.Globalization;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Hosts;
using Dashboard.Web.Options;
using Dashboard.Web.Runs;
using Dashboard.Web.Scenarios;
using Dashboard.Web.Components.Shared;
using Microsoft.AspNetCore.Components;
using Microsoft.Extensions.Options;
using MudBlazor;

namespace Dashboard.Web.Components.Pages;

/// <summary>
/// The queue (docs/web.md, "Queue"): the run in progress, queued and scheduled runs (cancel), recurring runs (pause,
/// resume, delete, add one from a preset or an earlier run's scenario) and finished runs in a server-paged grid with
/// duration, end time and peak throughput (run again, rename and annotate, delete with the samples). Live: it reloads on
/// every run update.
/// </summary>
public sealed partial class QueuePage : IDisposable
{
    private IDisposable? _subscription;
    private MudDataGrid<RunEntity>? _finished;
    private IReadOnlyDictionary<int, double> _peaks = new Dictionary<int, double>();

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required QueueService Queue { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required ScenarioPresets Presets { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required IDialogService Dialogs { get; init; }

    [Inject] public required ISnackbar Snackbar { get; init; }

    [Inject] public required IOptions<QueueOptions> QueueOptions { get; init; }

    /// <summary>The signed-in user (Auth/CircuitAccess.cs: every button here but reading needs Operator, delete Admin).</summary>
    [CascadingParameter] public Task<Microsoft.AspNetCore.Components.Authorization.AuthenticationState>? AuthState { get; set; }

    private IReadOnlyList<RunEntity> Running { get; set; } = [];

    private IReadOnlyList<RunEntity> Waiting { get; set; } = [];

    private IReadOnlyList<RecurringRun> Recurring { get; set; } = [];

    private IReadOnlyList<(string Key, string Label)> Sources { get; set; } = [];

    private string NewId { get; set; } = "nightly";

    private string NewCron { get; set; } = "0 2 * * *";

    private string? NewSource { get; set; }

    private string HangfirePath => QueueOptions.Value.DashboardPath;

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        await LoadAsync();
        Sources = await SourcesAsync();
        NewSource = Sources.Count > 0 ? Sources[0].Key : null;
        _subscription = Events.Subscribe(update => _ = InvokeAsync(async () =>
        {
            await LoadAsync();
            if (_finished is not null)
            {
                await _finished.ReloadServerData();
            }

            StateHasChanged();
        }));
    }

    private async Task LoadAsync()
    {
        Running = await Store.ListAsync(10, [RunStatus.Running], CancellationToken.None);
        Waiting = [.. (await Store.ListAsync(500, RunStore.Waiting, CancellationToken.None)).OrderBy(r => r.ScheduledUtc ?? r.CreatedUtc).ThenBy(r => r.Id)];
        Recurring = Queue.ListRecurring();
    }

    private async Task<GridData<RunEntity>> LoadFinishedAsync(GridState<RunEntity> state, CancellationToken cancellationToken)
    {
        var sort = state.SortDefinitions.FirstOrDefault();
        var sortBy = sort?.SortBy switch
        {
            "Name" or "Title" => "name",
            "Status" => "status",
            "EndedUtc" or "Ended (UTC)" => "ended",
            "Id" or "Run" => "id",
            _ => null,
        };
        var page = await Store.FinishedPageAsync(state.Page * state.PageSize, state.PageSize, sortBy, sort?.Descending ?? true, cancellationToken);
        _peaks = page.PeakThroughputRps;
        return new GridData<RunEntity> { Items = page.Runs, TotalItems = page.Total };
    }

    private async Task<IReadOnlyList<(string Key, string Label)>> SourcesAsync()
    {
        var presets = Presets.Load().Where(p => p.CanQueue).Select(p => ($"preset:{p.FileName}", $"preset: {p.Title} ({(p.IsQuick ? "quick" : "full")}, {p.FileName})"));
        var runs = (await Store.ListAsync(20, null, CancellationToken.None)).Select(r => ($"run:{r.Id.ToString(CultureInfo.InvariantCulture)}", $"as run #{r.Id}: {DisplayName(r)}"));
        return [.. presets, .. runs];
    }

    private async Task<ScenarioDocument?> ScenarioOfAsync(string? source)
    {
        if (source?.StartsWith("preset:", StringComparison.Ordinal) == true)
        {
            var preset = Presets.Load().FirstOrDefault(p => p.FileName == source["preset:".Length..] && p.CanQueue);
            return preset?.Scenario is { } scenario ? OnLocalHost(scenario) : null;
        }

        if (source?.StartsWith("run:", StringComparison.Ordinal) == true && int.TryParse(source["run:".Length..], CultureInfo.InvariantCulture, out var id))
        {
            return await Store.FindAsync(id, CancellationToken.None) is { } run ? ScenarioLoader.Parse(run.ScenarioJson) : null;
        }

        return null;
    }

    private ScenarioDocument OnLocalHost(ScenarioDocument scenario) =>
        Uri.TryCreate(scenario.Host, UriKind.Absolute, out var host) && host.IsLoopback
            ? scenario with { Host = Hosts.LocalAddress.GetLeftPart(UriPartial.Authority) }
            : scenario;

    private async Task CancelAsync(int id)
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "cancel runs"))
        {
            return;
        }

        var result = await Queue.CancelAsync(id, CancellationToken.None);
        Snackbar.Add($"Run #{id}: " + result switch
        {
            CancelResult.Cancelled => "cancelled",
            CancelResult.Stopping => "stopping (SIGTERM to the runner); its samples are kept",
            CancelResult.AlreadyFinished => "had already ended",
            _ => "not found",
        }, result is CancelResult.Cancelled or CancelResult.Stopping ? Severity.Info : Severity.Warning);
        await LoadAsync();
    }

    private async Task RequeueAsync(int id)
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "queue runs"))
        {
            return;
        }

        try
        {
            if (await Queue.RequeueAsync(id, CancellationToken.None) is { } run)
            {
                Snackbar.Add($"Run #{run.Id} queued: the scenario of run #{id}", Severity.Success);
            }
        }
        catch (ScenarioException e)
        {
            Snackbar.Add($"Run #{id} cannot run again: {e.Message}", Severity.Error);
        }

        await LoadAsync();
    }

    private async Task AnnotateAsync(RunEntity run)
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "rename or annotate runs"))
        {
            return;
        }

        var parameters = new DialogParameters<RunAnnotationDialog>
        {
            { d => d.Name, run.Name ?? "" },
            { d => d.Notes, run.Notes ?? "" },
            { d => d.ScenarioName, run.ScenarioName },
        };
        var dialog = await Dialogs.ShowAsync<RunAnnotationDialog>($"Run #{run.Id}", parameters, new DialogOptions { MaxWidth = MaxWidth.Small, FullWidth = true });
        var result = await dialog.Result;
        if (result is { Canceled: false, Data: RunAnnotationDialog.Values values })
        {
            await Queue.AnnotateAsync(run.Id, values.Name, values.Notes, CancellationToken.None);
            Snackbar.Add($"Run #{run.Id} saved", Severity.Success);
            if (_finished is not null)
            {
                await _finished.ReloadServerData();
            }
        }
    }

    private async Task PurgeAsync(RunEntity run)
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Admin, Snackbar, "delete runs"))
        {
            return;
        }

        var sure = await Dialogs.ShowMessageBoxAsync($"Delete run #{run.Id}?",
            $"Run #{run.Id} ({DisplayName(run)}) is deleted with its {run.CompletedLevels} levels and all their samples. This cannot be undone.",
            yesText: "Delete", cancelText: "Keep");
        if (sure != true)
        {
            return;
        }

        var purged = await Queue.PurgeAsync(run.Id, CancellationToken.None);
        Snackbar.Add(purged == true ? $"Run #{run.Id} deleted" : $"Run #{run.Id} was not deleted: it has not ended", purged == true ? Severity.Success : Severity.Warning);
        if (_finished is not null)
        {
            await _finished.ReloadServerData();
        }
    }

    private async Task AddRecurringAsync()
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "schedule recurring runs"))
        {
            return;
        }

        try
        {
            var scenario = await ScenarioOfAsync(NewSource) ?? throw new ScenarioException("scenario", "choose a preset or an earlier run");
            var added = Queue.AddRecurring(NewId, NewCron, ScenarioLoader.Valid(scenario));
            Snackbar.Add($"Recurring run '{added.Id}' set: {added.Cron}, next {Time(added.NextUtc)} UTC", Severity.Success);
        }
        catch (ScenarioException e)
        {
            Snackbar.Add(e.Message, Severity.Error);
        }

        await LoadAsync();
    }

    private async Task PauseAsync(string id, bool pause)
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "pause or resume recurring runs"))
        {
            return;
        }

        Snackbar.Add(Queue.PauseRecurring(id, pause) ? $"Recurring run '{id}' {(pause ? "paused" : "resumed")}" : $"No recurring run '{id}'", Severity.Info);
        await LoadAsync();
    }

    private async Task DeleteRecurringAsync(string id)
    {
        if (!await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "delete recurring runs"))
        {
            return;
        }

        var sure = await Dialogs.ShowMessageBoxAsync($"Delete recurring run '{id}'?", "It queues no more runs; the runs it queued stay.", yesText: "Delete", cancelText: "Keep");
        if (sure == true)
        {
            Queue.DeleteRecurring(id);
            Snackbar.Add($"Recurring run '{id}' deleted", Severity.Info);
            await LoadAsync();
        }
    }

    private string Peak(int runId) => _peaks.TryGetValue(runId, out var rps) ? string.Create(CultureInfo.InvariantCulture, $"{rps:N0} req/s") : "–";

    private static string DisplayName(RunEntity run) => run.Name ?? run.ScenarioName;

    private static double Percent(RunEntity run) => run.TotalLevels == 0 ? 0 : 100.0 * run.CompletedLevels / run.TotalLevels;

    private static string Time(DateTime? utc) => utc is { } t ? t.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) : "–";

    private static string Duration(RunEntity run) => run is { StartedUtc: { } start, EndedUtc: { } end } && end >= start
        ? (end - start) switch
        {
            { TotalHours: >= 1 } d => string.Create(CultureInfo.InvariantCulture, $"{(int)d.TotalHours} h {d.Minutes} min"),
            { TotalMinutes: >= 1 } d => string.Create(CultureInfo.InvariantCulture, $"{d.Minutes} min {d.Seconds} s"),
            var d => string.Create(CultureInfo.InvariantCulture, $"{d.TotalSeconds:0.0} s"),
        }
        : "–";

    /// <inheritdoc />
    public void Dispose() => _subscription?.Dispose();
}
