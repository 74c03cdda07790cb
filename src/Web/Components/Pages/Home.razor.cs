using Dashboard.Web.Components.Time;
using Dashboard.Web.Hosts;
using Dashboard.Web.Runs;
using Dashboard.Web.Storage;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Forms;
using MudBlazor;

namespace Dashboard.Web.Components.Pages;

/// <summary>Home: what the product does, recent runs with their headline figures, the presets and the hosts' health, kept live.</summary>
public sealed partial class Home : IDisposable
{
    /// <summary>How many recent runs Home lists.</summary>
    public const int RecentRuns = 10;

    /// <summary>The largest result bundle the page uploads: 2 GiB (larger ones: <c>POST /api/runs/import</c>).</summary>
    public const long MaxBundleBytes = 2L << 30;

    private IDisposable? _subscription;
    private bool _importing;

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required RunSummaries Summaries { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required LocalServiceHost LocalHost { get; init; }

    [Inject] public required BrowserClock Clock { get; init; }

    [Inject] public required Results.RunResultsService Results { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    [Inject] public required ISnackbar Snackbar { get; init; }

    /// <summary>The signed-in user (importing needs Operator).</summary>
    [CascadingParameter] public Task<Microsoft.AspNetCore.Components.Authorization.AuthenticationState>? AuthState { get; set; }

    private IReadOnlyList<RunEntity> Runs { get; set; } = [];

    private IReadOnlyDictionary<int, RunHeadline> Headlines { get; set; } = new Dictionary<int, RunHeadline>();

    private IReadOnlyList<HostStatus> HostList => Hosts.All;

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        await Clock.LoadAsync();
        await LoadRunsAsync();
        _subscription = Events.Subscribe(update => _ = InvokeAsync(ReloadAsync));
        Hosts.Changed += OnHostsChanged;
    }

    /// <summary>Imports a result bundle chosen in the file picker (docs/web.md, "Result bundles") and opens its run.</summary>
    private async Task ImportAsync(IBrowserFile? file)
    {
        if (file is null || !await Auth.CircuitAccess.AllowsAsync(AuthState, Auth.DashboardRoles.Operator, Snackbar, "import runs"))
        {
            return;
        }

        _importing = true;
        try
        {
            // Buffered to a temporary file: a ZIP is read with seeks.
            await using var buffer = new FileStream(Path.GetTempFileName(), FileMode.Open, FileAccess.ReadWrite, FileShare.None, 1 << 16, FileOptions.DeleteOnClose);
            await using (var upload = file.OpenReadStream(MaxBundleBytes))
            {
                await upload.CopyToAsync(buffer);
            }

            buffer.Position = 0;
            var run = await Results.ImportBundleAsync(buffer, CancellationToken.None);
            Snackbar.Add($"Imported {file.Name} as run #{run.Id}", Severity.Success);
            Navigation.NavigateTo($"runs/{run.Id}");
        }
        catch (Exception e) when (e is InvalidDataException or NotSupportedException or IOException)
        {
            Snackbar.Add($"{file.Name} was not imported: {e.Message}", Severity.Error);
        }
        finally
        {
            _importing = false;
        }
    }

    private async Task LoadRunsAsync()
    {
        Runs = await Store.ListAsync(RecentRuns, null, CancellationToken.None);
        Headlines = await Summaries.HeadlinesAsync(Runs, CancellationToken.None);
    }

    private async Task ReloadAsync()
    {
        await LoadRunsAsync();
        StateHasChanged();
    }

    private void OnHostsChanged() => _ = InvokeAsync(StateHasChanged);

    /// <inheritdoc />
    public void Dispose()
    {
        _subscription?.Dispose();
        Hosts.Changed -= OnHostsChanged;
    }
}
