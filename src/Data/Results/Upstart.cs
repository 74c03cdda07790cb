using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Results;

/// <summary>The mean round trip of a level's first <see cref="Calls"/> calls.</summary>
/// <param name="Calls">How many first calls (in order of start), e.g. 25.</param>
/// <param name="MeanMs">Mean response time of the successful ones among them, ms; null when none succeeded.</param>
/// <param name="Errors">Failed calls among them.</param>
public sealed record UpstartPoint(int Calls, double? MeanMs, int Errors);

/// <summary>The upstart of one cell: its points, averaged over the cell's 1-client levels (repetitions).</summary>
/// <param name="Variant">Variant id.</param>
/// <param name="Client">Client technology id.</param>
/// <param name="Payload">Payload id.</param>
/// <param name="Points">One point per cluster size the levels reach.</param>
public sealed record UpstartLine(string Variant, string Client, string Payload, IReadOnlyList<UpstartPoint> Points);

/// <summary>
/// The upstart view of the Ice paper (seed 002, Fig. 7): the mean round trip of the first 1, 5, 10, 25, 50, 100, 250,
/// 500 and 1000 calls of a client, which shows what a cold start (JIT, connection set-up, caches) costs. Computed from
/// the stored raw samples of levels with one client, in order of start, warm-up calls included (they are the first
/// calls: preset 4 flags its first 3 as warm-up and keeps them, so the clusters are prefixes of the samples).
/// </summary>
public static class Upstart
{
    /// <summary>The cluster sizes of seed 002's Fig. 7.</summary>
    public static IReadOnlyList<int> Clusters { get; } = [1, 5, 10, 25, 50, 100, 250, 500, 1000];

    /// <summary>
    /// The points of one level from its <paramref name="samples"/> in order of start: one per cluster size the level
    /// reaches (a level of 300 calls has points up to 250).
    /// </summary>
    public static IReadOnlyList<UpstartPoint> Compute(IReadOnlyList<Sample> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var points = new List<UpstartPoint>();
        long sumUs = 0;
        var successes = 0;
        var errors = 0;
        var next = 0;
        for (var i = 0; i < samples.Count && next < Clusters.Count; i++)
        {
            if (samples[i].IsSuccess)
            {
                sumUs += samples[i].LatencyUs;
                successes++;
            }
            else
            {
                errors++;
            }

            if (i + 1 == Clusters[next])
            {
                points.Add(new UpstartPoint(Clusters[next], successes == 0 ? null : sumUs / 1000.0 / successes, errors));
                next++;
            }
        }

        return points;
    }

    /// <summary>Point-by-point mean of several levels' points (cluster sizes every level reaches).</summary>
    public static IReadOnlyList<UpstartPoint> Mean(IReadOnlyList<IReadOnlyList<UpstartPoint>> levels)
    {
        ArgumentNullException.ThrowIfNull(levels);
        if (levels.Count == 0)
        {
            return [];
        }

        var count = levels.Min(l => l.Count);
        return [.. Enumerable.Range(0, count).Select(i =>
        {
            var means = levels.Select(l => l[i].MeanMs).Where(m => m is not null).Select(m => m!.Value).ToList();
            return new UpstartPoint(levels[0][i].Calls, means.Count == 0 ? null : means.Average(), levels.Sum(l => l[i].Errors));
        })];
    }
}
