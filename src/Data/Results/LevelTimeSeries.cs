using System.Text.Json;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Results;

/// <summary>
/// The measured requests of one time bucket of a level (warm-up excluded), all outcomes.
/// </summary>
/// <param name="Index">Bucket index from the level's start: the bucket spans [Index × bucket, (Index + 1) × bucket).</param>
/// <param name="Requests">Requests started in the bucket.</param>
/// <param name="Errors">Of those, requests that failed.</param>
/// <param name="SumLatencyUs">Sum of their response times, µs (mean = sum ÷ requests).</param>
/// <param name="MaxLatencyUs">Largest response time, µs.</param>
public sealed record LevelTimeBucket(int Index, long Requests, long Errors, long SumLatencyUs, long MaxLatencyUs);

/// <summary>
/// A level's requests over time, computed once from its raw samples when the level is stored (kept in
/// <c>Levels.TimeSeriesJson</c>, with <c>Levels.WarmupRequests</c>), so a page shows response time and throughput
/// over time without reading the samples again. The raw samples stay the source of truth: <see cref="FromSamples"/> on
/// them gives the same series (<see cref="LevelSummaries.BackfillAsync"/> stores it for levels stored before).
/// </summary>
/// <param name="BucketUs">Bucket length, µs (the level's duration ÷ <see cref="DefaultBuckets"/>, rounded up).</param>
/// <param name="DurationUs">The level's duration (first client's start to last client's end), µs.</param>
/// <param name="Buckets">Non-empty buckets in time order.</param>
public sealed record LevelTimeSeries(long BucketUs, long DurationUs, IReadOnlyList<LevelTimeBucket> Buckets)
{
    /// <summary>Buckets per level: fine enough for any chart (a page merges them to its point budget).</summary>
    public const int DefaultBuckets = 100;

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    /// <summary>
    /// The series of a level lasting <paramref name="duration"/> from its <paramref name="samples"/> (warm-up ones are
    /// skipped), in <paramref name="buckets"/> buckets by request start. A request starting after the duration counts
    /// in the last bucket.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="buckets"/> is not positive.</exception>
    public static LevelTimeSeries FromSamples(ReadOnlySpan<Sample> samples, TimeSpan duration, int buckets = DefaultBuckets)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(buckets);
        var durationUs = Math.Max(1, (long)duration.TotalMicroseconds);
        var bucketUs = Math.Max(1, (durationUs + buckets - 1) / buckets);
        var requests = new long[buckets];
        var errors = new long[buckets];
        var sums = new long[buckets];
        var maxima = new long[buckets];
        foreach (ref readonly var sample in samples)
        {
            if (sample.IsWarmup)
            {
                continue;
            }

            var index = (int)Math.Clamp(sample.StartOffsetUs / bucketUs, 0, buckets - 1);
            requests[index]++;
            errors[index] += sample.IsSuccess ? 0 : 1;
            sums[index] += sample.LatencyUs;
            maxima[index] = Math.Max(maxima[index], sample.LatencyUs);
        }

        var list = new List<LevelTimeBucket>();
        for (var i = 0; i < buckets; i++)
        {
            if (requests[i] > 0)
            {
                list.Add(new LevelTimeBucket(i, requests[i], errors[i], sums[i], maxima[i]));
            }
        }

        return new LevelTimeSeries(bucketUs, durationUs, list);
    }

    /// <summary>
    /// The series in at most <paramref name="count"/> buckets (adjacent buckets merged: sums and counts added, maxima
    /// kept), each with its start and length in µs from the level's start (the last one ends with the level).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is not positive.</exception>
    public IReadOnlyList<(long StartUs, long LengthUs, LevelTimeBucket Bucket)> Merged(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        var slots = (int)Math.Max(1, (DurationUs + BucketUs - 1) / BucketUs);
        var factor = Math.Max(1, (slots + count - 1) / count);
        var widthUs = BucketUs * factor;
        return [.. Buckets
            .GroupBy(b => b.Index / factor)
            .Select(g => (
                StartUs: g.Key * widthUs,
                LengthUs: Math.Max(0, Math.Min(widthUs, DurationUs - (g.Key * widthUs))),
                Bucket: new LevelTimeBucket(g.Key, g.Sum(b => b.Requests), g.Sum(b => b.Errors), g.Sum(b => b.SumLatencyUs), g.Max(b => b.MaxLatencyUs))))];
    }

    /// <summary>The stored form (JSON).</summary>
    public string ToJson() => JsonSerializer.Serialize(this, Json);

    /// <summary>Reads the stored form; null when <paramref name="json"/> is null, empty or not a series.</summary>
    public static LevelTimeSeries? FromJson(string? json)
    {
        if (string.IsNullOrWhiteSpace(json))
        {
            return null;
        }

        try
        {
            return JsonSerializer.Deserialize<LevelTimeSeries>(json, Json);
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
