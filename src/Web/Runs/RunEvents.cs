using Dashboard.Service.Contracts.Progress;
using Dashboard.Data.Entities;

namespace Dashboard.Web.Runs;

/// <summary>What happened to a run, for the live pages.</summary>
/// <param name="RunId">The dashboard's run id (the permalink's).</param>
/// <param name="Status">The run's status after the change.</param>
/// <param name="Progress">The runner's event that caused it, when there is one.</param>
public sealed record RunUpdate(int RunId, RunStatus Status, ProgressEvent? Progress = null);

/// <summary>
/// In-process publish/subscribe of run updates: the queue worker publishes, live pages subscribe
/// (and call <c>InvokeAsync(StateHasChanged)</c>), and dispose their subscription in <c>Dispose</c>.
/// </summary>
public sealed class RunEvents(ILogger<RunEvents> logger)
{
    private readonly Lock _gate = new();
    private ImmutableHandlers _handlers = new([]);

    /// <summary>Calls <paramref name="handler"/> for every update until the returned subscription is disposed.</summary>
    public IDisposable Subscribe(Action<RunUpdate> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        lock (_gate)
        {
            _handlers = new([.. _handlers.Items, handler]);
        }

        return new Subscription(this, handler);
    }

    /// <summary>Tells every subscriber; a subscriber that throws is logged and does not stop the others.</summary>
    public void Publish(RunUpdate update)
    {
        foreach (var handler in _handlers.Items)
        {
            try
            {
                handler(update);
            }
#pragma warning disable CA1031 // A page's handler must not break the worker.
            catch (Exception e)
#pragma warning restore CA1031
            {
                logger.LogWarning(e, "A run-update subscriber failed for run {RunId}", update.RunId);
            }
        }
    }

    private void Unsubscribe(Action<RunUpdate> handler)
    {
        lock (_gate)
        {
            _handlers = new(_handlers.Items.Where(h => h != handler).ToArray());
        }
    }

    private sealed record ImmutableHandlers(Action<RunUpdate>[] Items);

    private sealed class Subscription(RunEvents owner, Action<RunUpdate> handler) : IDisposable
    {
        private int _disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                owner.Unsubscribe(handler);
            }
        }
    }
}
