using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;

namespace Dashboard.Web.Results;

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
/// <param name="BucketSeconds">Length of the bucket within its level, s (the last bucket of a level ends with the level); 0 when unknown.</param>
public sealed record LatencyPoint(long LevelId, double Seconds, long Requests, double MeanMs, double MaxMs, double BucketSeconds = 0);

/// <summary>Everything the run page shows, built on the server (aggregates in SQL, time series decimated).</summary>
/// <param name="Run">The run.</param>
/// <param name="Levels">Every level as stored (one row per repetition).</param>
/// <param name="Aggregates">Levels over their repetitions (mean and 95 % CI), per cell and concurrency (<see cref="ResultsQueries.LevelAggregatesAsync"/>).</param>
/// <param name="Resources">Server resources over time, at most <see cref="RunPageQueries.MaxPoints"/> buckets.</param>
/// <param name="Latency">Response time over time, at most about <see cref="RunPageQueries.MaxPoints"/> buckets in all.</param>
/// <param name="SampleCounts">Stored raw samples.</param>
/// <param name="TimeOrigin">Time zero of the charts over time (UTC): when the runner started the run, the origin of the stored resource readings' offsets.</param>
/// <param name="Upstart">The upstart view of the 1-client levels (seed 002, Fig. 7); empty when the run has none.</param>
public sealed record RunPageData(
    RunEntity Run,
    IReadOnlyList<LevelEntity> Levels,
    IReadOnlyList<LevelAggregate> Aggregates,
    IReadOnlyList<ResourcePoint> Resources,
    IReadOnlyList<LatencyPoint> Latency,
    SampleCounts SampleCounts,
    DateTime TimeOrigin,
    IReadOnlyList<UpstartLine>? Upstart = null);
