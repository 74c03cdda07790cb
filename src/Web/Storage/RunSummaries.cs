using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Scenarios;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Storage;

/// <summary>A run's headline figure: its level of highest throughput.</summary>
/// <param name="ThroughputRps">Peak throughput over the run's levels, req/s.</param>
/// <param name="MeanMs">Mean response time of that level, ms.</param>
/// <param name="Variant">Its endpoint variant.</param>
/// <param name="Client">Its client technology.</param>
/// <param name="Payload">Its payload case.</param>
/// <param name="Clients">Its concurrency level (clients), or for an open level its offered arrival rate, req/s.</param>
/// <param name="Open">True when the level is open (<paramref name="Clients"/> is a rate).</param>
public sealed record RunHeadline(double ThroughputRps, double MeanMs, string Variant, string Client, string Payload, int Clients, bool Open = false);

/// <summary>
/// Read model for Home: each listed run's headline figure, the last completed run of a scenario (its measured wall
/// time) and the throughputs stored here that calibrate <see cref="DurationEstimator"/>.
/// </summary>
public sealed class RunSummaries(IDbContextFactory<ResultsDbContext> contexts)
{
    /// <summary>The headline of each run of <paramref name="runs"/> that stored a level with throughput, by run id.</summary>
    public async Task<IReadOnlyDictionary<int, RunHeadline>> HeadlinesAsync(IReadOnlyList<RunEntity> runs, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var ids = runs.Select(r => r.Id).ToList();
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var levels = await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId) && l.ThroughputRps > 0)
            .Select(l => new { l.RunId, l.ThroughputRps, l.MeanMs, l.Variant, l.Client, l.Payload, l.Clients, l.TargetRateRps })
            .ToListAsync(cancellationToken);
        return levels.GroupBy(l => l.RunId)
            .ToDictionary(g => g.Key, g =>
            {
                var top = g.MaxBy(l => l.ThroughputRps)!;
                return new RunHeadline(top.ThroughputRps, top.MeanMs, top.Variant, top.Client, top.Payload, top.Clients, top.TargetRateRps is not null);
            });
    }

    /// <summary>The last completed run (highest id) of each scenario name in <paramref name="names"/>, by name.</summary>
    public async Task<IReadOnlyDictionary<string, RunEntity>> LastCompletedAsync(IReadOnlyCollection<string> names, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(names);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var runs = await db.Runs.AsNoTracking()
            .Where(r => r.Status == RunStatus.Completed && names.Contains(r.ScenarioName) && r.StartedUtc != null && r.EndedUtc != null)
            .ToListAsync(cancellationToken);
        return runs.GroupBy(r => r.ScenarioName, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.MaxBy(r => r.Id)!, StringComparer.Ordinal);
    }

    /// <summary>
    /// The highest throughput stored here per variant × client × payload × concurrency, over the levels without errors of
    /// completed runs: a cancelled, failed or interrupted run's levels never calibrate an estimate (issue #36: a cancelled
    /// run's three levels made a preset card "calibrated" at 9 s while they had taken 16 s).
    /// </summary>
    public async Task<IReadOnlyList<MeasuredThroughput>> ThroughputsAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var rows = await db.Levels.AsNoTracking()
            .Where(l => l.Errors == 0 && l.ThroughputRps > 0 && l.Run!.Status == RunStatus.Completed)
            .GroupBy(l => new { l.Variant, l.Client, l.Payload, l.Clients })
            .Select(g => new { g.Key.Variant, g.Key.Client, g.Key.Payload, g.Key.Clients, Rps = g.Max(l => l.ThroughputRps) })
            .ToListAsync(cancellationToken);
        return [.. rows.Select(r => new MeasuredThroughput(r.Variant, r.Client, r.Payload, r.Clients, r.Rps))];
    }

    /// <summary>
    /// The duration to show for <paramref name="preset"/>: its last completed run here (measured), else the estimate
    /// from <paramref name="estimator"/> (calibrated with throughputs measured here, or the defaults).
    /// </summary>
    public static DurationFigure? DurationOf(ScenarioPreset preset, IReadOnlyDictionary<string, RunEntity> lastRuns, DurationEstimator estimator)
    {
        ArgumentNullException.ThrowIfNull(preset);
        ArgumentNullException.ThrowIfNull(lastRuns);
        ArgumentNullException.ThrowIfNull(estimator);
        if (preset.Document is not { } document)
        {
            return null;
        }

        if (lastRuns.TryGetValue(document.Name, out var run) && run.StartedUtc is { } started && run.EndedUtc is { } ended && ended > started)
        {
            return new DurationFigure(ended - started, DurationSource.Measured, ended);
        }

        return estimator.Estimate(document);
    }
}
