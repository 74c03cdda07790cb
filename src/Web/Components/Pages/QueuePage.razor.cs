using Dashboard.Web.Runs;
using Microsoft.AspNetCore.Components;
using Radzen;

namespace Dashboard.Web.Components.Pages;

/// <summary>The queue: running, queued or scheduled, and finished runs; cancel and run again. Live.</summary>
public sealed partial class QueuePage : IDisposable
{
    private IDisposable? _subscription;

    [Inject] public required RunStore Store { get; init; }

    [Inject] public required QueueService Runs { get; init; }

    [Inject] public required RunEvents Events { get; init; }

    [Inject] public required NotificationService Notifications { get; init; }

    private IReadOnlyList<RunEntity> Running { get; set; } = [];

    private IReadOnlyList<RunEntity> Queued { get; set; } = [];

    private IReadOnlyList<RunEntity> Finished { get; set; } = [];

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        await LoadAsync();
        _subscription = Events.Subscribe(update => _ = InvokeAsync(async () =>
        {
            await LoadAsync();
            StateHasChanged();
        }));
    }

    private async Task LoadAsync()
    {
        Running = await Store.ListAsync(10, [RunStatus.Running], CancellationToken.None);
        Queued = [.. (await Store.ListAsync(500, [RunStatus.Queued], CancellationToken.None)).OrderBy(r => r.CreatedUtc)];
        Finished = await Store.ListAsync(50, RunStore.Finished, CancellationToken.None);
    }

    private async Task CancelAsync(int id)
    {
        var result = await Runs.CancelAsync(id, CancellationToken.None);
        Notifications.Notify(NotificationSeverity.Info, $"Run #{id}", result switch
        {
            CancelResult.Cancelled => "cancelled",
            CancelResult.Stopping => "stopping (SIGINT to the runner); samples are kept",
            CancelResult.AlreadyFinished => "had already ended",
            _ => "not found",
        }, 4000);
        await LoadAsync();
    }

    private async Task RequeueAsync(int id)
    {
        var run = await Runs.RequeueAsync(id, CancellationToken.None);
        if (run is not null)
        {
            Notifications.Notify(NotificationSeverity.Info, $"Run #{run.Id} queued", $"same scenario as run #{id}", 4000);
        }

        await LoadAsync();
    }

    /// <inheritdoc />
    public void Dispose() => _subscription?.Dispose();
}
