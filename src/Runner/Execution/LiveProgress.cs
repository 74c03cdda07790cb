using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Progress;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Turns the drivers' reports of a running level into <c>level-progress</c> events (<see cref="ProgressEvents.LevelProgress"/>)
/// on the run's progress output, with the run id and level counts it saw pass in the other events. Sits between the
/// executor and the output: <see cref="Forward"/> is the executor's progress callback. Thread-safe: reports come from
/// timers while events come from the run.
/// </summary>
/// <param name="write">The progress output (one JSON line per event with <c>--progress json</c>).</param>
public sealed class LiveProgress(Action<ProgressEvent> write) : ILevelProgressSink
{
    private readonly Lock _lock = new();
    private int _runId;
    private int _completed;
    private int _total;
    private bool _ended;

    /// <summary>Passes <paramref name="e"/> on, remembering the run id and level counts for the reports.</summary>
    public void Forward(ProgressEvent e)
    {
        ArgumentNullException.ThrowIfNull(e);
        lock (_lock)
        {
            (_runId, _completed, _total) = (e.RunId, e.CompletedLevels, e.TotalLevels);
            _ended = e.Event == ProgressEvents.RunEnded;
            write(e);
        }
    }

    /// <inheritdoc />
    public void Report(string variant, string client, string payload, int clients, long requests, long? errors, double rateRps)
    {
        lock (_lock)
        {
            if (_runId == 0 || _ended)
            {
                return;
            }

            write(new ProgressEvent(ProgressEvents.LevelProgress, _runId, _completed, _total)
            {
                Variant = variant,
                Client = client,
                Payload = payload,
                Clients = clients,
                Requests = (int)Math.Min(int.MaxValue, requests),
                Errors = errors is { } e ? (int)Math.Min(int.MaxValue, e) : null,
                ThroughputRps = Math.Round(rateRps, 1),
            });
        }
    }
}
