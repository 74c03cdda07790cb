using Dashboard.Data.Results;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Results;

/// <summary>What a level reached against a precision target (docs/statistics.md, "Precision target").</summary>
public class LevelPrecisionTests
{
    private static LevelAggregate Level(double[] throughputs, double[]? serverCpu = null) =>
        Assert.Single(LevelAggregation.Aggregate(throughputs.Select((t, r) =>
        {
            var level = Levels.Stored("AspNetHttpJson", "dotnet", "Int", 10, r + 1, t, 1000 / t);
            level.Complete = true;
            level.ServerCpuMicrosPerRequest = serverCpu?[r];
            return level;
        })));

    [Fact]
    public void Meets_TightThroughputNoServerCpu_TrueAtTwoPercentFalseAtOneTenth()
    {
        // Mean 1000, s = 1, SE = 1/√3: relative half-width about t(0.975, 2) · 0.577 / 1000 = 0.25 %.
        var precision = LevelPrecision.Of(Level([999, 1000, 1001]));

        Assert.False(precision.ServerCpuMeasured);
        Assert.True(precision.Meets(0.02));
        Assert.False(precision.Meets(0.001));
        Assert.Equal("throughput ±0.2 % (3 repetitions)", precision.Text);
    }

    [Fact]
    public void Meets_TightThroughputWideServerCpu_False()
    {
        var precision = LevelPrecision.Of(Level([999, 1000, 1001], [20, 30, 40]));

        Assert.True(precision.ServerCpuMeasured);
        Assert.True(precision.Throughput < 0.02);
        Assert.True(precision.ServerCpu > 0.5);
        Assert.False(precision.Meets(0.02));
        Assert.StartsWith("throughput ±0.2 %, server CPU ±", precision.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void Meets_TwoRepetitions_NoIntervalSoFalse()
    {
        var precision = LevelPrecision.Of(Level([1000, 1000]));

        Assert.Null(precision.Throughput);
        Assert.False(precision.Meets(0.5));
        Assert.Equal("throughput no interval (2 repetitions)", precision.Text);
    }
}
