using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Results;

/// <summary>
/// The per-level summaries a results page needs besides the level's statistics: its warm-up request count and its
/// <see cref="LevelTimeSeries"/>. Set when the level is stored (<see cref="Samples.SampleStore.AppendLevel"/>); levels
/// stored before (older databases) get them from their raw samples on first read, once, and keep them.
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
    /// Computes and stores the summaries of those <paramref name="levels"/> that lack them, from their raw samples (one
    /// read of each such level's rows); the entities passed are updated too. Returns how many levels were filled.
    /// </summary>
    public static async Task<int> BackfillAsync(ResultsDbContext db, IReadOnlyList<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(levels);
        var filled = 0;
        foreach (var level in levels.Where(l => l.TimeSeriesJson is null || l.WarmupRequests is null))
        {
            Sample[] samples = [];
            if (level.FirstSampleId is { } first && level.LastSampleId is { } last)
            {
                var id = level.Id;
                samples = await db.Samples.AsNoTracking()
                    .Where(s => s.Id >= first && s.Id <= last && s.LevelId == id)
                    .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, -1, -1))
                    .ToArrayAsync(cancellationToken);
            }

            Fill(level, samples);
            var (warmup, json, levelId) = (level.WarmupRequests, level.TimeSeriesJson, level.Id);
            await db.Levels.Where(l => l.Id == levelId)
                .ExecuteUpdateAsync(s => s.SetProperty(l => l.WarmupRequests, warmup).SetProperty(l => l.TimeSeriesJson, json), cancellationToken);
            filled++;
        }

        return filled;
    }
}
