using System.Diagnostics;

namespace Dashboard.Runner.Load;

/// <summary>Receives a level's progress while it runs (for people watching; nothing is stored).</summary>
public interface ILevelProgressSink
{
    /// <summary>
    /// The level of <paramref name="variant"/> × <paramref name="client"/> × <paramref name="payload"/> at
    /// <paramref name="clients"/> clients has completed <paramref name="requests"/> measured requests so far (warm-up
    /// excluded), <paramref name="errors"/> of them failed (null when the client does not say), and ran
    /// <paramref name="rateRps"/> requests per second over the last interval.
    /// </summary>
    void Report(string variant, string client, string payload, int clients, long requests, long? errors, double rateRps);
}

/// <summary>
/// The sink the drivers of one runner report to, pointed at the run's progress writer once the run starts
/// (<see cref="Target"/>); reports are dropped while it points nowhere. Thread-safe.
/// </summary>
public sealed class LevelProgressRelay : ILevelProgressSink
{
    private volatile ILevelProgressSink? _target;

    /// <summary>Where reports go; null drops them (the default, and with <c>--progress bar</c>).</summary>
    public ILevelProgressSink? Target
    {
        get => _target;
        set => _target = value;
    }

    /// <inheritdoc />
    public void Report(string variant, string client, string payload, int clients, long requests, long? errors, double rateRps) =>
        _target?.Report(variant, client, payload, clients, requests, errors, rateRps);
}

/// <summary>
/// Reports a running level about once a second from a counter of measured requests: the rate is the difference of two
/// readings over the time between them. Used by the in-process engine (<see cref="ClosedLoopEngine"/>).
/// </summary>
public static class LevelProgressTicker
{
    /// <summary>How often a running level is reported.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Calls <paramref name="report"/> with (requests so far, rate over the last interval in req/s) every
    /// <see cref="Interval"/> until <paramref name="cancellationToken"/> is cancelled; <paramref name="requestsSoFar"/>
    /// is read without locks (a count a moment old is good enough for people).
    /// </summary>
    public static async Task RunAsync(Func<long> requestsSoFar, Action<long, double> report, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(requestsSoFar);
        ArgumentNullException.ThrowIfNull(report);
        using var timer = new PeriodicTimer(Interval);
        var previous = 0L;
        var previousAt = Stopwatch.GetTimestamp();
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                var now = Stopwatch.GetTimestamp();
                var requests = requestsSoFar();
                var seconds = Stopwatch.GetElapsedTime(previousAt, now).TotalSeconds;
                report(requests, seconds > 0 ? Math.Max(0, requests - previous) / seconds : 0);
                (previous, previousAt) = (requests, now);
            }
        }
        catch (OperationCanceledException)
        {
            // The level ended.
        }
    }
}
