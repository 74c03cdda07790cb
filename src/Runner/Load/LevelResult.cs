using Dashboard.Data.Measurement;

namespace Dashboard.Runner.Load;

/// <summary>What one level produced: every sample (warm-up included, flagged) and how the level ended.</summary>
/// <param name="Plan">The plan that was run.</param>
/// <param name="StartedUtc">Wall-clock time when the clients were released (sample offsets count from here).</param>
/// <param name="EndedUtc">Wall-clock time when the last client stopped.</param>
/// <param name="Samples">Every request that completed or failed, in no particular order.</param>
/// <param name="Cancelled">True when the level was cancelled: the samples are those taken until then.</param>
/// <param name="GeneratorCpuPercent">CPU used by this (load generator) process over the level, % of the cores it may use (0–100, <see cref="Dashboard.Service.Contracts.Resources.CpuAffinity"/>).</param>
public sealed record LevelResult(
    LevelPlan Plan,
    DateTime StartedUtc,
    DateTime EndedUtc,
    Sample[] Samples,
    bool Cancelled,
    double GeneratorCpuPercent)
{
    /// <summary>Open levels: requests that started more than <see cref="LevelPlan.LateStartThreshold"/> after their intended start (warm-up included); null for closed levels.</summary>
    public long? LateStarts { get; init; }

    /// <summary>Open levels: scheduled requests that never started (no free connection before the schedule's end plus <see cref="LevelPlan.DropGrace"/>); null for closed levels.</summary>
    public long? DroppedRequests { get; init; }

    /// <summary>Open levels: connections (clients) the level opened, at most <see cref="LevelPlan.Clients"/>; null for closed levels.</summary>
    public int? Connections { get; init; }

    /// <summary>
    /// Open levels: the 99th percentile of the measured successful requests' service time in ms (from their actual start,
    /// not the intended one: the figure coordinated omission would report); null for closed levels or when none succeeded.
    /// </summary>
    public double? ServiceP99Ms { get; init; }

    /// <summary>The level's statistics, computed from <see cref="Samples"/> (warm-up excluded).</summary>
    public LatencyStatistics Statistics { get; } = LatencyStatistics.FromSamples(Samples);
}
