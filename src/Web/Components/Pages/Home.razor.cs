using Dashboard.Web.Hosts;
using Dashboard.Web.Runs;
using Microsoft.AspNetCore.Components;

namespace Dashboard.Web.Components.Pages;

/// <summary>Home: recent runs and the service hosts' health, kept live.</summary>
public sealed partial class Home : IDisposable
{
    private IDisposable? _subscription;

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required LocalServiceHost LocalHost { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    private IReadOnlyList<RunEntity> Runs { get; set; } = [];

    private IReadOnlyList<HostStatus> HostList => Hosts.All;

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        Runs = await Store.ListAsync(20, null, CancellationToken.None);
        _subscription = Events.Subscribe(update => _ = InvokeAsync(ReloadAsync));
        Hosts.Changed += OnHostsChanged;
    }

    private async Task ReloadAsync()
    {
        Runs = await Store.ListAsync(20, null, CancellationToken.None);
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
