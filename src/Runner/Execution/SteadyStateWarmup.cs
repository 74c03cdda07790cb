using System.Diagnostics;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Warms a level up until steady state (docs/statistics.md; Georges et al., OOPSLA 2007): runs the level's clients in
/// windows of <see cref="SteadyStateSettings.Window"/> (no warm-up requests, samples discarded) and feeds each window's
/// throughput to a <see cref="SteadyStateDetector"/>; stops when the CoV of the last k windows is at most the threshold,
/// or when <see cref="SteadyStateSettings.MaxWarmup"/> has passed.
/// </summary>
public static class SteadyStateWarmup
{
    /// <summary>How a warm-up ended.</summary>
    /// <param name="Reached">True when the CoV rule was met before the time bound.</param>
    /// <param name="Elapsed">Warm-up length (wall time, all windows).</param>
    /// <param name="CoefficientOfVariation">CoV (fraction) of the last k windows at the end; null with fewer than 2 windows or no throughput.</param>
    /// <param name="Windows">Windows run.</param>
    public sealed record Outcome(bool Reached, TimeSpan Elapsed, double? CoefficientOfVariation, int Windows);

    /// <summary>Warms <paramref name="clients"/> clients of <paramref name="session"/> up to steady state.</summary>
    /// <exception cref="OperationCanceledException">Cancelled.</exception>
    /// <exception cref="LoadClientException">A window could not run (the driver failed).</exception>
    public static async Task<Outcome> RunAsync(ICellSession session, int clients, SteadyStateSettings settings, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(session);
        ArgumentNullException.ThrowIfNull(settings);
        var detector = new SteadyStateDetector(settings.Windows, settings.MaxCoefficientOfVariation);
        var watch = Stopwatch.StartNew();
        var window = new LevelPlan(clients, 0, null, settings.Window);
        while (true)
        {
            var result = await session.RunLevelAsync(window, cancellationToken);
            if (result.Cancelled)
            {
                throw new OperationCanceledException(cancellationToken);
            }

            if (detector.Add(result.Statistics.ThroughputRps))
            {
                return new Outcome(true, watch.Elapsed, detector.CoefficientOfVariation, detector.Count);
            }

            if (watch.Elapsed >= settings.MaxWarmup)
            {
                return new Outcome(false, watch.Elapsed, detector.CoefficientOfVariation, detector.Count);
            }
        }
    }
}
