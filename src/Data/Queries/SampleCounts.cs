namespace Dashboard.Data.Queries;

/// <summary>Numbers of stored samples (rows) of a run.</summary>
/// <param name="Measured">Samples that count in aggregates.</param>
/// <param name="Warmup">Warm-up samples, stored but excluded from aggregates.</param>
public readonly record struct SampleCounts(long Measured, long Warmup)
{
    /// <summary>All stored samples.</summary>
    public long Total => Measured + Warmup;
}
