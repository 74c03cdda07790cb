using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Results;

/// <summary>
/// Builds the run page's data from what is kept per level (docs/web.md, "Results read model"): the levels' statistics,
/// warm-up counts and time series (<see cref="LevelSummaries"/>, computed when each level was stored) and the resource
/// readings bucketed in SQL. No raw sample is read, except once for levels stored before their summaries were kept.
/// </summary>
public static class RunPageQueries
{
    /// <summary>Most points per time series sent to a chart.</summary>
    public const int MaxPoints = 600;

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
        await LevelSummaries.FillMissingAsync(db, levels, cancellationToken);
        var aggregates = LevelAggregation.Aggregate(levels);
        var resources = await ResourcesAsync(db, ids, cancellationToken);
        var origin = await TimeOriginAsync(db, ids, levels, run, cancellationToken);
        var latency = Latency(levels, origin);
        var counts = Counts(levels);
        var upstart = await ResultsQueries.UpstartLinesAsync(db, levels, cancellationToken);
        return new RunPageData(run, levels, aggregates, resources, latency, counts, origin, upstart);
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

    /// <summary>Server resources of the run rows <paramref name="ids"/>, bucketed in SQL to at most <see cref="MaxPoints"/> points.</summary>
    public static async Task<IReadOnlyList<ResourcePoint>> ResourcesAsync(ResultsDbContext db, int[] ids, CancellationToken cancellationToken)
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

    /// <summary>Measured samples (the levels' requests) and warm-up samples of <paramref name="levels"/>.</summary>
    public static SampleCounts Counts(IEnumerable<LevelEntity> levels) =>
        levels.Aggregate(new SampleCounts(0, 0), (c, l) => new SampleCounts(c.Measured + l.Requests, c.Warmup + (l.WarmupRequests ?? 0)));

    /// <summary>
    /// Response time over time from the levels' stored series, at most about <see cref="MaxPoints"/> points in all
    /// (each level's buckets merged to its share, at least 4).
    /// </summary>
    public static IReadOnlyList<LatencyPoint> Latency(IReadOnlyList<LevelEntity> levels, DateTime origin)
    {
        ArgumentNullException.ThrowIfNull(levels);
        var series = levels.Select(l => (Level: l, Series: LevelTimeSeries.FromJson(l.TimeSeriesJson))).Where(x => x.Series is { Buckets.Count: > 0 }).ToList();
        if (series.Count == 0)
        {
            return [];
        }

        var perLevel = Math.Max(4, MaxPoints / series.Count);
        var points = new List<LatencyPoint>();
        foreach (var (level, s) in series)
        {
            var offset = (level.StartedUtc - origin).TotalSeconds;
            points.AddRange(s!.Merged(perLevel).Select(b => new LatencyPoint(
                level.Id, offset + (b.StartUs / 1e6), b.Bucket.Requests, b.Bucket.SumLatencyUs / 1000.0 / b.Bucket.Requests, b.Bucket.MaxLatencyUs / 1000.0, b.LengthUs / 1e6)));
        }

        return points;
    }
}
