using Dashboard.Web.Components.Time;
using Dashboard.Web.Hosts;
using Dashboard.Web.Runs;
using Dashboard.Web.Storage;
using Microsoft.AspNetCore.Components;

namespace Dashboard.Web.Components.Pages;

/// <summary>Home: what the product does, recent runs with their headline figures, the presets and the hosts' health, kept live.</summary>
public sealed partial class Home : IDisposable
{
    /// <summary>How many recent runs Home lists.</summary>
    public const int RecentRuns = 10;

    private IDisposable? _subscription;

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required RunSummaries Summaries { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required LocalServiceHost LocalHost { get; init; }

    [Inject] public required BrowserClock Clock { get; init; }

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
