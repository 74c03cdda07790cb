namespace Dashboard.Data.Measurement;

/// <summary>
/// The per-level statistics of docs/statistics.md, computed once from raw samples; immutable, no side effects.
/// This is the one place these numbers are defined: the runner, the queries and the exports all use it.
/// </summary>
/// <remarks>
/// Warm-up samples are ignored. Response-time statistics are over successful requests only (a failed request
/// has no response time in the thesis's sense); errors are counted separately, by kind.
/// Percentiles use the nearest-rank method on the exact sorted latencies (no histogram approximation).
/// </remarks>
public sealed class LatencyStatistics
{
    private readonly long[] _sortedLatenciesUs;

    private LatencyStatistics(long[] sortedLatenciesUs, int errors, IReadOnlyDictionary<SampleOutcome, int> errorsByKind, long windowUs, double? meanRequestBytes, double? meanResponseBytes)
    {
        _sortedLatenciesUs = sortedLatenciesUs;
        Errors = errors;
        ErrorsByKind = errorsByKind;
        WindowUs = windowUs;
        MeanRequestBytes = meanRequestBytes;
        MeanResponseBytes = meanResponseBytes;
    }

    /// <summary>Mean request bytes on the wire over the measured successful requests whose bytes were counted; null when none was (seed 002, Table I).</summary>
    public double? MeanRequestBytes { get; }

    /// <summary>Mean response bytes on the wire over the measured successful requests whose bytes were counted; null when none was.</summary>
    public double? MeanResponseBytes { get; }

    /// <summary>Measured requests (warm-up excluded), successful or not.</summary>
    public int Requests => Successes + Errors;

    /// <summary>Measured requests that completed successfully.</summary>
    public int Successes => _sortedLatenciesUs.Length;

    /// <summary>Measured requests that failed, of any kind.</summary>
    public int Errors { get; }

    /// <summary>Failed measured requests per kind; kinds with no error are absent.</summary>
    public IReadOnlyDictionary<SampleOutcome, int> ErrorsByKind { get; }

    /// <summary>
    /// The measurement window in µs: end of the last measured request minus start of the first one
    /// (thesis ch. 7.2.2, "end of the last client − start of the first client").
    /// </summary>
    public long WindowUs { get; }

    /// <summary>Throughput in req/s: completed (successful) requests ÷ <see cref="WindowUs"/> (thesis ch. 7.2.2); 0 when nothing completed.</summary>
    public double ThroughputRps => WindowUs <= 0 ? 0 : Successes / (WindowUs / 1_000_000.0);

    /// <summary>Mean response time in ms: sum of latencies ÷ number of successful requests (thesis ch. 7.2.2); NaN when none.</summary>
    public double MeanMs => Successes == 0 ? double.NaN : _sortedLatenciesUs.Sum(l => (double)l) / Successes / 1000.0;

    /// <summary>Median response time in ms.</summary>
    public double P50Ms => PercentileMs(50);

    /// <summary>90th percentile response time in ms.</summary>
    public double P90Ms => PercentileMs(90);

    /// <summary>95th percentile response time in ms (nearest rank); NaN when none succeeded.</summary>
    public double P95Ms => PercentileMs(95);

    /// <summary>99th percentile response time in ms.</summary>
    public double P99Ms => PercentileMs(99);

    /// <summary>99.9th percentile response time in ms.</summary>
    public double P999Ms => PercentileMs(99.9);

    /// <summary>Longest response time in ms; NaN when none.</summary>
    public double MaxMs => Successes == 0 ? double.NaN : _sortedLatenciesUs[^1] / 1000.0;

    /// <summary>
    /// The <paramref name="percentile"/>-th percentile response time in ms by nearest rank:
    /// the smallest latency with at least that share of latencies at or below it. NaN when there are no successes.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="percentile"/> is not in (0, 100].</exception>
    public double PercentileMs(double percentile)
    {
        if (percentile is <= 0 or > 100 || double.IsNaN(percentile))
        {
            throw new ArgumentOutOfRangeException(nameof(percentile), percentile, "A percentile lies in (0, 100].");
        }

        if (Successes == 0)
        {
            return double.NaN;
        }

        var rank = (int)Math.Ceiling(percentile / 100.0 * Successes);
        return _sortedLatenciesUs[Math.Clamp(rank, 1, Successes) - 1] / 1000.0;
    }

    /// <summary>Builds the statistics of one level from its raw samples (any order; warm-up samples are skipped).</summary>
    public static LatencyStatistics FromSamples(ReadOnlySpan<Sample> samples)
    {
        var latencies = new List<long>(samples.Length);
        var errorsByKind = new Dictionary<SampleOutcome, int>();
        var errors = 0;
        var first = long.MaxValue;
        var last = long.MinValue;
        long requestBytes = 0, responseBytes = 0, requestCounted = 0, responseCounted = 0;
        foreach (var sample in samples)
        {
            if (sample.IsWarmup)
            {
                continue;
            }

            first = Math.Min(first, sample.StartOffsetUs);
            last = Math.Max(last, sample.EndOffsetUs);
            if (sample.IsSuccess)
            {
                latencies.Add(sample.LatencyUs);
                if (sample.RequestBytes >= 0)
                {
                    requestBytes += sample.RequestBytes;
                    requestCounted++;
                }

                if (sample.ResponseBytes >= 0)
                {
                    responseBytes += sample.ResponseBytes;
                    responseCounted++;
                }
            }
            else
            {
                errors++;
                errorsByKind[sample.Outcome] = errorsByKind.GetValueOrDefault(sample.Outcome) + 1;
            }
        }

        var sorted = latencies.ToArray();
        Array.Sort(sorted);
        var window = first == long.MaxValue ? 0 : last - first;
        return new LatencyStatistics(sorted, errors, errorsByKind, window,
            requestCounted == 0 ? null : (double)requestBytes / requestCounted,
            responseCounted == 0 ? null : (double)responseBytes / responseCounted);
    }
}
