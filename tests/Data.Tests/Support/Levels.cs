using Dashboard.Data.Entities;
using Dashboard.Data.Results;

namespace Dashboard.Data.Tests.Support;

/// <summary>Stored levels with chosen figures, and their aggregates, for results and ranking tests.</summary>
internal static class Levels
{
    /// <summary>One stored repetition of a level with the given throughput (req/s) and mean response time (ms).</summary>
    public static LevelEntity Stored(string variant, string client, string payload, int clients, int repetition, double throughputRps, double meanMs) => new()
    {
        Variant = variant,
        Client = client,
        Payload = payload,
        Clients = clients,
        Repetition = repetition,
        StartedUtc = TestData.Start,
        EndedUtc = TestData.Start.AddSeconds(10),
        Requests = 1000,
        ThroughputRps = throughputRps,
        MeanMs = meanMs,
        P50Ms = meanMs,
        P90Ms = meanMs * 2,
        P99Ms = meanMs * 3,
        P999Ms = meanMs * 4,
        MaxMs = meanMs * 5,
    };

    /// <summary>
    /// The aggregates of one level per (variant, client, payload, clients) with one repetition per given value;
    /// the mean response time of each repetition is 1000 / throughput (ms).
    /// </summary>
    public static IReadOnlyList<LevelAggregate> Aggregates(params (string Variant, string Client, string Payload, int Clients, double[] Throughputs)[] cells) =>
        LevelAggregation.Aggregate(cells.SelectMany(c => c.Throughputs.Select((t, r) => Stored(c.Variant, c.Client, c.Payload, c.Clients, r, t, 1000 / t))));
}
