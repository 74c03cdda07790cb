using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Queries;

/// <summary>
/// The results queries of a run's page and the API (docs/architecture.md, "One read path"): they read levels, readings
/// and first samples and hand them to the side-effect-free computations of <c>src/Data/Results</c>.
/// </summary>
public static class ResultsQueries
{
    /// <summary>
    /// One <see cref="LevelAggregate"/> per (variant, client, payload, clients) of run <paramref name="runId"/>,
    /// ordered by variant, client, payload (ordinal) and clients. Empty when the run has no level or does not exist.
    /// Partial levels (<see cref="LevelEntity.Complete"/> false) are left out unless <paramref name="includePartial"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    public static Task<IReadOnlyList<LevelAggregate>> LevelAggregatesAsync(ResultsDbContext db, int runId, CancellationToken ct, bool includePartial = false) =>
        LevelAggregatesAsync(db, [runId], ct, includePartial);

    /// <summary>
    /// As <see cref="LevelAggregatesAsync(ResultsDbContext, int, CancellationToken)"/> over the levels of several run
    /// rows taken as one run (a dashboard run and its runner's row while it runs, docs/web.md).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> or <paramref name="runIds"/> is null.</exception>
    public static async Task<IReadOnlyList<LevelAggregate>> LevelAggregatesAsync(ResultsDbContext db, IReadOnlyCollection<int> runIds, CancellationToken ct, bool includePartial = false)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(runIds);
        var ids = runIds.ToArray();
        var levels = await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId)).ToListAsync(ct);
        return LevelAggregation.Aggregate(levels, includePartial);
    }

    /// <summary>The on-machine vs cross-machine comparison (<see cref="TopologyComparison"/>): loads runs <paramref name="runIds"/> (levels, readings) and builds the comparison; unknown ids are skipped.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> or <paramref name="runIds"/> is null.</exception>
    public static async Task<TopologyComparisonResult> TopologyComparisonAsync(ResultsDbContext db, IReadOnlyCollection<int> runIds, int fromClients, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(runIds);
        var runs = await db.Runs.AsNoTracking().Where(r => runIds.Contains(r.Id)).ToListAsync(ct);
        var levels = await db.Levels.AsNoTracking().Where(l => runIds.Contains(l.RunId)).ToListAsync(ct);
        var resources = await db.ResourceSamples.AsNoTracking().Where(r => runIds.Contains(r.RunId)).ToListAsync(ct);
        return TopologyComparison.Build([.. runs.Select(r => new RunResults(r, [.. levels.Where(l => l.RunId == r.Id)], [.. resources.Where(x => x.RunId == r.Id)]))], fromClients);
    }

    /// <summary>
    /// The upstart lines (<see cref="Upstart"/>) of <paramref name="levels"/> (those with one client are used), from their first
    /// <c>1000</c> samples in order of start (a read of at most that many rows per level: a single client's samples
    /// are stored in the order it sent them).
    /// A cell with several repetitions gets the mean of their points.
    /// </summary>
    public static async Task<IReadOnlyList<UpstartLine>> UpstartLinesAsync(ResultsDbContext db, IEnumerable<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(levels);
        var perLevel = new List<(LevelEntity Level, IReadOnlyList<UpstartPoint> Points)>();
        foreach (var level in levels.Where(l => l.Clients == 1 && l.FirstSampleId is not null && l.LastSampleId is not null))
        {
            // One client's samples are stored in the order it sent them (its own buffer), so the first rows by rowid are
            // its first calls: a read of 1000 rows, not of the whole level. Sorted by start anyway, in memory.
            var samples = await db.SamplesOf(level)
                .OrderBy(s => s.Id)
                .Take(Upstart.Clusters[^1])
                .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, -1, -1))
                .ToListAsync(cancellationToken);
            perLevel.Add((level, Upstart.Compute([.. samples.OrderBy(s => s.StartOffsetUs)])));
        }

        return [.. perLevel
            .GroupBy(x => (x.Level.Variant, x.Level.Client, x.Level.Payload))
            .OrderBy(g => g.Key.Variant, StringComparer.Ordinal).ThenBy(g => g.Key.Client, StringComparer.Ordinal).ThenBy(g => g.Key.Payload, StringComparer.Ordinal)
            .Select(g => new UpstartLine(g.Key.Variant, g.Key.Client, g.Key.Payload, Upstart.Mean([.. g.Select(x => x.Points)])))];
    }
}
