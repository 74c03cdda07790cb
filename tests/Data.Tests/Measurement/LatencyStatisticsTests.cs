using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Data.Tests.Measurement;

public class LatencyStatisticsTests
{
    [Fact]
    public void FromSamples_OneToHundredMs_GivesNearestRankPercentiles()
    {
        // Latencies 1..100 ms, one request each, back to back from t = 0.
        var samples = Enumerable.Range(1, 100)
            .Select(i => new Sample(0, (i - 1) * 100_000L, i * 1000L, SampleOutcome.Success, false))
            .ToArray();

        var stats = LatencyStatistics.FromSamples(samples);

        Assert.Equal(100, stats.Requests);
        Assert.Equal(50.5, stats.MeanMs, 9);
        Assert.Equal(50, stats.P50Ms);
        Assert.Equal(90, stats.P90Ms);
        Assert.Equal(95, stats.P95Ms);
        Assert.Equal(99, stats.P99Ms);
        Assert.Equal(100, stats.P999Ms);
        Assert.Equal(100, stats.MaxMs);
    }

    [Fact]
    public void FromSamples_Throughput_IsCompletedRequestsOverFirstStartToLastEnd()
    {
        // Thesis ch. 7.2.2: two clients, the first starts at 0, the last ends at 2 s; 40 completed requests.
        var samples = Enumerable.Range(0, 20).SelectMany(i => new[]
        {
            new Sample(0, i * 100_000L, 50_000, SampleOutcome.Success, false),
            new Sample(1, i * 100_000L + 50_000, 50_000, SampleOutcome.Success, false),
        }).ToArray();

        var stats = LatencyStatistics.FromSamples(samples);

        Assert.Equal(2_000_000, stats.WindowUs);
        Assert.Equal(20.0, stats.ThroughputRps, 9);
    }

    [Fact]
    public void FromSamples_WarmupSamples_AreExcludedFromEveryStatistic()
    {
        Sample[] samples =
        [
            new(0, 0, 900_000, SampleOutcome.Success, IsWarmup: true),
            new(0, 900_000, 900_000, SampleOutcome.Timeout, IsWarmup: true),
            new(0, 2_000_000, 1_000, SampleOutcome.Success, IsWarmup: false),
            new(0, 2_001_000, 3_000, SampleOutcome.Success, IsWarmup: false),
        ];

        var stats = LatencyStatistics.FromSamples(samples);

        Assert.Equal(2, stats.Requests);
        Assert.Equal(0, stats.Errors);
        Assert.Equal(2.0, stats.MeanMs, 9);
        Assert.Equal(3.0, stats.MaxMs);
        Assert.Equal(4_000, stats.WindowUs);
    }

    [Fact]
    public void FromSamples_Errors_AreCountedByKindAndLeftOutOfResponseTimes()
    {
        Sample[] samples =
        [
            new(0, 0, 1_000, SampleOutcome.Success, false),
            new(1, 0, 30_000_000, SampleOutcome.Timeout, false),
            new(2, 0, 10, SampleOutcome.Connection, false),
            new(3, 0, 10, SampleOutcome.Connection, false),
        ];

        var stats = LatencyStatistics.FromSamples(samples);

        Assert.Equal(4, stats.Requests);
        Assert.Equal(3, stats.Errors);
        Assert.Equal(1, stats.ErrorsByKind[SampleOutcome.Timeout]);
        Assert.Equal(2, stats.ErrorsByKind[SampleOutcome.Connection]);
        Assert.False(stats.ErrorsByKind.ContainsKey(SampleOutcome.Fault));
        Assert.Equal(1.0, stats.MaxMs);
    }

    [Fact]
    public void FromSamples_NoSamples_GivesZeroThroughputAndNaNTimes()
    {
        var stats = LatencyStatistics.FromSamples([]);

        Assert.Equal(0, stats.Requests);
        Assert.Equal(0, stats.ThroughputRps);
        Assert.True(double.IsNaN(stats.MeanMs));
        Assert.True(double.IsNaN(stats.P99Ms));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(100.1)]
    [InlineData(double.NaN)]
    public void PercentileMs_OutOfRange_Throws(double percentile)
    {
        var stats = LatencyStatistics.FromSamples([new Sample(0, 0, 1, SampleOutcome.Success, false)]);
        Assert.Throws<ArgumentOutOfRangeException>(() => stats.PercentileMs(percentile));
    }
}
