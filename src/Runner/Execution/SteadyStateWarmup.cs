using System.Diagnostics;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Warms a level up until steady state (docs/statistics.md, "Steady state before measuring"; Georges et al., OOPSLA
/// 2007): runs the level's own load in windows of <see cref="SteadyStateSettings.Window"/> (no warm-up requests,
/// samples discarded) and feeds each window's figure to a <see cref="SteadyStateDetector"/>; stops when the CoV of the
/// last k windows is at most the threshold, or when <see cref="SteadyStateSettings.MaxWarmup"/> has passed. The figure
/// is the window's throughput (req/s) for a closed level (its clients send as fast as replies come) and the window's
/// median response time (ms) for an open level (its arrival rate is fixed, so throughput only repeats the rate while
/// the server keeps up; the response time is what settles as JIT, connections and caches warm).
/// </summary>
public static class SteadyStateWarmup
{
    /// <summary>How a warm-up ended.</summary>
    /// <param name="Reached">True when the CoV rule was met before the time bound.</param>
    /// <param name="Elapsed">Warm-up length (wall time, all windows).</param>
    /// <param name="CoefficientOfVariation">CoV (fraction) of the last k windows at the end; null with fewer than 2 windows or no throughput.</param>
    /// <param name="Windows">Windows run.</param>
    public sealed record Outcome(bool Reached, TimeSpan Elapsed, double? CoefficientOfVariation, int Windows);

    /// <summary>
    /// Warms <paramref name="session"/> up to steady state under the load of <paramref name="level"/>: its clients
    /// (closed) or its arrival rate and connection bound (open, <see cref="LevelPlan.RateRps"/>), in windows of the
    /// settings' length without warm-up requests.
    /// </summary>
    /// <param name="level">The measured level's plan; only its clients and rate are used.</param>
    /// <exception cref="OperationCanceledException">Cancelled.</exception>
    /// <exception cref="LoadClientException">A window could not run (the driver failed).</exception>
    public static async Task<Outcome> RunAsync(ICellSession session, LevelPlan level, SteadyStateSettings settings, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(session);
        ArgumentNullException.ThrowIfNull(level);
        ArgumentNullException.ThrowIfNull(settings);
        var detector = new SteadyStateDetector(settings.Windows, settings.MaxCoefficientOfVariation);
        var watch = Stopwatch.StartNew();
        var window = new LevelPlan(level.Clients, 0, null, settings.Window) { RateRps = level.RateRps };
        while (true)
        {
            var result = await session.RunLevelAsync(window, cancellationToken);
            if (result.Cancelled)
            {
                throw new OperationCanceledException(cancellationToken);
            }

            if (detector.Add(Figure(result, window)))
            {
                return new Outcome(true, watch.Elapsed, detector.CoefficientOfVariation, detector.Count);
            }

            if (watch.Elapsed >= settings.MaxWarmup)
            {
                return new Outcome(false, watch.Elapsed, detector.CoefficientOfVariation, detector.Count);
            }
        }
    }

    /// <summary>
    /// The figure a window adds to the detector: closed, its throughput (req/s); open, its median response time (ms,
    /// from the intended start), 0 when no request of the window succeeded.
    /// </summary>
    internal static double Figure(LevelResult result, LevelPlan window) =>
        window.RateRps is null ? result.Statistics.ThroughputRps
        : result.Statistics.Successes == 0 ? 0 : result.Statistics.P50Ms;
}
