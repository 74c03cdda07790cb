using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;
using Microsoft.EntityFrameworkCore;

using Dashboard.Web.Results;

namespace Dashboard.Bench;

/// <summary>
/// The run page's data load as it was before the results read model (commit 417954c, for side-by-side measurement
/// only): sample counts and response time over time grouped in SQL over every raw sample on every load.
/// </summary>
internal static class Before
{
    /// <summary>Most points per time series sent to a chart.</summary>
    private const int MaxPoints = 600;

    /// <summary>
    /// The page data of run <paramref name="runId"/>; <paramref name="dataRunIds"/> are the rows holding its levels
    /// and readings (itself, plus the runner's row while it runs). Null when the run does not exist.
    /// </summary>
    public static async Task<RunPageData?> LoadAsync(ResultsDbContext db, int runId, IReadOnlyList<int> dataRunIds, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(dataRunIds);
        var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
        if (run is null)
        {
            return null;
        }

        var ids = dataRunIds.ToArray();
        var levels = await db.Levels.AsNoTracking()
            .Where(l => ids.Contains(l.RunId))
            .OrderBy(l => l.Variant).ThenBy(l => l.Client).ThenBy(l => l.Payload).ThenBy(l => l.Clients).ThenBy(l => l.Repetition)
            .ToListAsync(cancellationToken);
        var aggregates = LevelAggregation.Aggregate(levels);
        var resources = await ResourcesAsync(db, ids, cancellationToken);
        var origin = await TimeOriginAsync(db, ids, levels, run, cancellationToken);
        var latency = await LatencyAsync(db, levels, origin, cancellationToken);

        var counts = new SampleCounts(0, 0);
        foreach (var id in ids)
        {
            var c = await db.CountSamplesAsync(id, cancellationToken);
            counts = new SampleCounts(counts.Measured + c.Measured, counts.Warmup + c.Warmup);
        }

        return new RunPageData(run, levels, aggregates, resources, latency, counts, origin);
    }

    /// <summary>
    /// Time zero of the charts over time: the start of the row the runner wrote (the resource readings' offsets count
    /// from it; while a run runs that is the runner's own row, the latest start of <paramref name="ids"/>); the first
    /// level's start when no row has one.
    /// </summary>
    private static async Task<DateTime> TimeOriginAsync(ResultsDbContext db, int[] ids, List<LevelEntity> levels, RunEntity run, CancellationToken cancellationToken)
    {
        var starts = await db.Runs.AsNoTracking().Where(r => ids.Contains(r.Id) && r.StartedUtc != null).Select(r => r.StartedUtc!.Value).ToListAsync(cancellationToken);
        if (starts.Count > 0)
        {
            return starts.Max();
        }

        return levels.Count > 0 ? levels.Min(l => l.StartedUtc) : run.CreatedUtc;
    }

    private static async Task<IReadOnlyList<ResourcePoint>> ResourcesAsync(ResultsDbContext db, int[] ids, CancellationToken cancellationToken)
    {
        var span = await db.ResourceSamples.Where(r => ids.Contains(r.RunId)).MaxAsync(r => (long?)r.OffsetMs, cancellationToken) ?? 0;
        var bucketMs = Math.Max(1, (span / MaxPoints) + 1);
        var points = await db.ResourceSamples.AsNoTracking()
            .Where(r => ids.Contains(r.RunId))
            .GroupBy(r => r.OffsetMs / bucketMs)
            .Select(g => new
            {
                g.Key,
                Cpu = g.Average(r => r.MachineCpuPercent),
                Process = g.Average(r => r.ProcessCpuPercent),
                Memory = g.Min(r => r.AvailableMemoryMb),
                Generator = g.Average(r => r.GeneratorCpuPercent),
                Jvm = g.Average(r => r.JvmCpuPercent),
            })
            .OrderBy(p => p.Key)
            .ToListAsync(cancellationToken);
        return [.. points.Select(p => new ResourcePoint(p.Key * bucketMs / 1000.0, p.Cpu, p.Process, p.Memory, p.Generator, p.Jvm))];
    }

    private static async Task<IReadOnlyList<LatencyPoint>> LatencyAsync(
        ResultsDbContext db, IReadOnlyList<LevelEntity> levels, DateTime origin, CancellationToken cancellationToken)
    {
        var withSamples = levels.Where(l => l.FirstSampleId is not null && l.LastSampleId is not null).ToList();
        if (withSamples.Count == 0)
        {
            return [];
        }

        var bucketsPerLevel = Math.Max(4, MaxPoints / withSamples.Count);
        var points = new List<LatencyPoint>();
        foreach (var level in withSamples)
        {
            var first = level.FirstSampleId!.Value;
            var last = level.LastSampleId!.Value;
            var levelId = level.Id;
            var durationUs = Math.Max(1, (long)(level.EndedUtc - level.StartedUtc).TotalMicroseconds);
            var bucketUs = Math.Max(1, (durationUs / bucketsPerLevel) + 1);
            var offset = (level.StartedUtc - origin).TotalSeconds;
            var buckets = await db.Samples.AsNoTracking()
                .Where(s => s.Id >= first && s.Id <= last && s.LevelId == levelId && !s.IsWarmup)
                .GroupBy(s => s.StartOffsetUs / bucketUs)
                .Select(g => new { g.Key, Count = g.LongCount(), Mean = g.Average(s => (double)s.LatencyUs), Max = g.Max(s => s.LatencyUs) })
                .OrderBy(b => b.Key)
                .ToListAsync(cancellationToken);
            points.AddRange(buckets.Select(b => new LatencyPoint(levelId, offset + (b.Key * bucketUs / 1e6), b.Count, b.Mean / 1000.0, b.Max / 1000.0)));
        }

        return points;
    }
}
