using Dashboard.Data.Entities;
using Dashboard.Data.Queries;

namespace Dashboard.Web.Storage;

/// <summary>One cell's figures at one concurrency level, averaged over repetitions in SQL.</summary>
/// <param name="Variant">Endpoint variant id.</param>
/// <param name="Client">Client technology id.</param>
/// <param name="Payload">Payload id.</param>
/// <param name="Clients">Concurrent clients.</param>
/// <param name="Repetitions">Repetitions measured.</param>
/// <param name="Requests">Measured requests, all repetitions.</param>
/// <param name="Errors">Failed measured requests, all repetitions.</param>
/// <param name="ThroughputRps">Mean throughput over repetitions, req/s.</param>
/// <param name="MeanMs">Mean of the repetitions' mean response time, ms.</param>
/// <param name="P50Ms">Mean of the repetitions' median, ms.</param>
/// <param name="P90Ms">Mean of the repetitions' 90th percentile, ms.</param>
/// <param name="P99Ms">Mean of the repetitions' 99th percentile, ms.</param>
/// <param name="P999Ms">Mean of the repetitions' 99.9th percentile, ms.</param>
/// <param name="MaxMs">Largest response time of all repetitions, ms.</param>
/// <param name="GeneratorCpuPercent">Mean CPU of the load generator (runner and driver) during the level, % of all cores; null when not measured. Near 100 the generator, not the service, limits the level (DESIGN.md §5).</param>
public sealed record LevelAggregate(
    string Variant, string Client, string Payload, int Clients, int Repetitions, long Requests, long Errors,
    double ThroughputRps, double MeanMs, double P50Ms, double P90Ms, double P99Ms, double P999Ms, double MaxMs, double? GeneratorCpuPercent = null)
{
    /// <summary>The cell's name in legends: variant × client × payload.</summary>
    public string Cell => $"{Variant} × {Client} × {Payload}";
}

/// <summary>Server resources in one time bucket.</summary>
/// <param name="Seconds">Start of the bucket, s since the run started.</param>
/// <param name="MachineCpuPercent">Mean machine CPU, % of all cores.</param>
/// <param name="ProcessCpuPercent">Mean CPU of the service process, % of all cores.</param>
/// <param name="AvailableMemoryMb">Lowest available memory in the bucket, MB.</param>
/// <param name="GeneratorCpuPercent">Mean CPU of the load generator, % of all cores, when measured.</param>
/// <param name="JvmCpuPercent">Mean CPU of the JVM service process (metro and ice stacks), % of all cores; null when it was not running.</param>
public sealed record ResourcePoint(double Seconds, double MachineCpuPercent, double ProcessCpuPercent, double AvailableMemoryMb, double? GeneratorCpuPercent, double? JvmCpuPercent = null);

/// <summary>Response times of one level in one time bucket, from the raw samples (warm-up excluded).</summary>
/// <param name="LevelId">The level.</param>
/// <param name="Seconds">Start of the bucket, s since the run started.</param>
/// <param name="Requests">Samples in the bucket.</param>
/// <param name="MeanMs">Mean response time in the bucket, ms.</param>
/// <param name="MaxMs">Largest response time in the bucket, ms.</param>
public sealed record LatencyPoint(long LevelId, double Seconds, long Requests, double MeanMs, double MaxMs);

/// <summary>Everything the run page shows, built on the server (aggregates in SQL, time series decimated).</summary>
/// <param name="Run">The run.</param>
/// <param name="Levels">Every level as stored (one row per repetition).</param>
/// <param name="Aggregates">Levels averaged over repetitions, per cell and concurrency.</param>
/// <param name="Resources">Server resources over time, at most <see cref="RunPageQueries.MaxPoints"/> buckets.</param>
/// <param name="Latency">Response time over time, at most about <see cref="RunPageQueries.MaxPoints"/> buckets in all.</param>
/// <param name="SampleCounts">Stored raw samples.</param>
public sealed record RunPageData(
    RunEntity Run,
    IReadOnlyList<LevelEntity> Levels,
    IReadOnlyList<LevelAggregate> Aggregates,
    IReadOnlyList<ResourcePoint> Resources,
    IReadOnlyList<LatencyPoint> Latency,
    SampleCounts SampleCounts);
