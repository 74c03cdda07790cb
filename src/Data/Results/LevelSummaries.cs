using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Queries;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Results;

/// <summary>
/// The per-level summaries a results page needs besides the level's statistics: its warm-up request count and its
/// <see cref="LevelTimeSeries"/>. Set when the level is stored (<see cref="Samples.SampleStore.AppendLevel"/>); levels
/// stored before (older databases) get them from their raw samples: stored once at the dashboard's start
/// (<see cref="BackfillAsync"/>), computed in memory by a read that meets one before (<see cref="FillMissingAsync"/>).
/// </summary>
public static class LevelSummaries
{
    /// <summary>Sets <paramref name="level"/>'s warm-up count and time series from its <paramref name="samples"/> (warm-up included).</summary>
    public static void Fill(LevelEntity level, ReadOnlySpan<Sample> samples)
    {
        ArgumentNullException.ThrowIfNull(level);
        long warmup = 0;
        foreach (ref readonly var sample in samples)
        {
            warmup += sample.IsWarmup ? 1 : 0;
        }

        level.WarmupRequests = warmup;
        level.TimeSeriesJson = LevelTimeSeries.FromSamples(samples, level.EndedUtc - level.StartedUtc).ToJson();
    }

    /// <summary>
    /// Computes the summaries of those <paramref name="levels"/> that lack them from their raw samples (one read of each
    /// such level's rows) into the entities passed, <b>without writing</b>: what a results read does (reads never write;
    /// <see cref="BackfillAsync"/> stores them once, at the dashboard's start). Returns how many levels were filled.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> or <paramref name="levels"/> is null.</exception>
    public static async Task<int> FillMissingAsync(ResultsDbContext db, IReadOnlyList<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(levels);
        var filled = 0;
        foreach (var level in levels.Where(Lacks))
        {
            Fill(level, await SamplesOfAsync(db, level, cancellationToken));
            filled++;
        }

        return filled;
    }

    /// <summary>
    /// Computes and stores the summaries of every level in the database that lacks them (levels stored before summaries
    /// were kept), from their raw samples: the one write of summaries outside the runner, run once when the dashboard
    /// starts (<c>DatabaseInitializer</c>). Returns how many levels were filled.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    public static async Task<int> BackfillAsync(ResultsDbContext db, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        var levels = await db.Levels.AsNoTracking().Where(l => l.TimeSeriesJson == null || l.WarmupRequests == null).ToListAsync(cancellationToken);
        foreach (var level in levels)
        {
            Fill(level, await SamplesOfAsync(db, level, cancellationToken));
            var (warmup, json, levelId) = (level.WarmupRequests, level.TimeSeriesJson, level.Id);
            await db.Levels.Where(l => l.Id == levelId)
                .ExecuteUpdateAsync(s => s.SetProperty(l => l.WarmupRequests, warmup).SetProperty(l => l.TimeSeriesJson, json), cancellationToken);
        }

        return levels.Count;
    }

    private static bool Lacks(LevelEntity level) => level.TimeSeriesJson is null || level.WarmupRequests is null;

    private static async Task<Sample[]> SamplesOfAsync(ResultsDbContext db, LevelEntity level, CancellationToken cancellationToken)
    {
        return await db.SamplesOf(level)
            .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, -1, -1))
            .ToArrayAsync(cancellationToken);
    }
}
