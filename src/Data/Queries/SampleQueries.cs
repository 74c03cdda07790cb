using Dashboard.Data.Measurement;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Queries;

/// <summary>
/// Reads raw samples. A level's rows are found by its rowid range
/// (<c>FirstSampleId..LastSampleId</c>, kept by <see cref="Samples.SampleStore"/>) and its id, so
/// no secondary index on <c>Samples</c> is needed.
/// </summary>
public static class SampleQueries
{
    /// <summary>
    /// The stored rows of <paramref name="level"/> (measured and warm-up), found through its rowid range: a search of
    /// the primary key over the level's own rows, never a scan of the whole table (11.9 million rows after one claims
    /// table: a filter on <c>LevelId</c> alone read them all, per level). Empty when the level has no range (no sample
    /// stored). The one place that turns a level into its samples' rows; order and project as needed.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static IQueryable<Entities.SampleEntity> SamplesOf(this ResultsDbContext db, Entities.LevelEntity level)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(level);
        if (level.FirstSampleId is not { } first || level.LastSampleId is not { } last)
        {
            return db.Samples.AsNoTracking().Where(_ => false);
        }

        var id = level.Id;
        return db.Samples.AsNoTracking().Where(s => s.Id >= first && s.Id <= last && s.LevelId == id);
    }

    /// <summary>
    /// The measured samples (warm-up excluded) of level <paramref name="levelId"/>, in the order they
    /// were stored; times in µs as in <see cref="Sample"/>. Empty when the level has no measured sample.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    /// <exception cref="ArgumentException">No level has id <paramref name="levelId"/>.</exception>
    public static async Task<Sample[]> GetMeasuredSamplesAsync(
        this ResultsDbContext db, long levelId, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(db);
        var range = await db.Levels
            .Where(l => l.Id == levelId)
            .Select(l => new { l.FirstSampleId, l.LastSampleId })
            .SingleOrDefaultAsync(cancellationToken)
            ?? throw new ArgumentException($"No level has id {levelId}.", nameof(levelId));
        if (range.FirstSampleId is not { } first || range.LastSampleId is not { } last)
        {
            return [];
        }

        return await db.Samples
            .AsNoTracking()
            .Where(s => s.Id >= first && s.Id <= last && s.LevelId == levelId && !s.IsWarmup)
            .OrderBy(s => s.Id)
            .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes))
            .ToArrayAsync(cancellationToken);
    }

    /// <summary>
    /// How many samples run <paramref name="runId"/> has stored, measured and warm-up. Zeros when the
    /// run has none or does not exist.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    public static async Task<SampleCounts> CountSamplesAsync(
        this ResultsDbContext db, int runId, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(db);
        var counts = await (
                from level in db.Levels
                where level.RunId == runId
                from sample in db.Samples
                where sample.Id >= level.FirstSampleId && sample.Id <= level.LastSampleId && sample.LevelId == level.Id
                group sample by sample.IsWarmup into byWarmup
                select new { IsWarmup = byWarmup.Key, Count = byWarmup.LongCount() })
            .ToListAsync(cancellationToken);
        return new SampleCounts(
            Measured: counts.Where(c => !c.IsWarmup).Sum(c => c.Count),
            Warmup: counts.Where(c => c.IsWarmup).Sum(c => c.Count));
    }
}
