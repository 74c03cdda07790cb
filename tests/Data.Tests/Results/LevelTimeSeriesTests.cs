using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Data.Tests.Results;

public sealed class LevelTimeSeriesTests
{
    [Fact]
    public void FromSamples_WarmupSkippedAndBucketsByStart_SumsCountsMaxima()
    {
        Sample[] samples =
        [
            new(0, 0, 9_000, SampleOutcome.Success, IsWarmup: true),
            new(0, 100, 1_000, SampleOutcome.Success, false),
            new(1, 900_000, 3_000, SampleOutcome.Timeout, false),
            new(0, 1_500_000, 2_000, SampleOutcome.Success, false),
            new(1, 5_000_000, 4_000, SampleOutcome.Success, false), // after the 2 s duration: last bucket
        ];

        var series = LevelTimeSeries.FromSamples(samples, TimeSpan.FromSeconds(2), buckets: 2);

        Assert.Equal(1_000_000, series.BucketUs);
        Assert.Equal(2, series.Buckets.Count);
        Assert.Equal(new LevelTimeBucket(0, 2, 1, 4_000, 3_000), series.Buckets[0]);
        Assert.Equal(new LevelTimeBucket(1, 2, 0, 6_000, 4_000), series.Buckets[1]);
    }

    [Fact]
    public void Merged_HundredBucketsIntoTen_KeepsTotalsAndEndsWithTheLevel()
    {
        var samples = Enumerable.Range(0, 1000).Select(i => new Sample(0, i * 9_990L, 1_000 + i, SampleOutcome.Success, false)).ToArray();
        var series = LevelTimeSeries.FromSamples(samples, TimeSpan.FromSeconds(10));

        var merged = series.Merged(10);

        Assert.Equal(10, merged.Count);
        Assert.Equal(1000, merged.Sum(m => m.Bucket.Requests));
        Assert.Equal(samples.Sum(s => s.LatencyUs), merged.Sum(m => m.Bucket.SumLatencyUs));
        Assert.Equal(samples.Max(s => s.LatencyUs), merged.Max(m => m.Bucket.MaxLatencyUs));
        Assert.Equal(10_000_000, merged[^1].StartUs + merged[^1].LengthUs);
    }

    [Fact]
    public void ToJson_RoundTrip_SameSeries()
    {
        var series = LevelTimeSeries.FromSamples([new Sample(0, 5, 7, SampleOutcome.Fault, false)], TimeSpan.FromMilliseconds(1));

        var back = LevelTimeSeries.FromJson(series.ToJson());

        Assert.NotNull(back);
        Assert.Equal(series.BucketUs, back.BucketUs);
        Assert.Equal(series.Buckets, back.Buckets);
        Assert.Null(LevelTimeSeries.FromJson("not json"));
    }
}
