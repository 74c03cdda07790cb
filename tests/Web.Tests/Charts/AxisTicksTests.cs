using Dashboard.Web.Charts;

namespace Dashboard.Web.Tests.Charts;

public sealed class AxisTicksTests
{
    [Fact]
    public void Log_MillisecondsOverTwoDecades_OneTwoFiveWithFullLabels()
    {
        var (values, labels) = AxisTicks.Log(0.8, 60, AxisUnit.Number);

        Assert.Equal([0.5, 1, 2, 5, 10, 20, 50, 100], values);
        Assert.Equal(["0.5", "1", "2", "5", "10", "20", "50", "100"], labels);
    }

    [Fact]
    public void Log_BytesOverFiveDecades_OnePerDecadeInBKbMb()
    {
        var (values, labels) = AxisTicks.Log(200, 3_000_000, AxisUnit.Bytes);

        Assert.Equal([100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000], values);
        Assert.Equal(["100 B", "1 KB", "10 KB", "100 KB", "1 MB", "10 MB"], labels);
    }

    [Theory]
    [InlineData(200, "200 B")]
    [InlineData(1000, "1 KB")]
    [InlineData(2500, "2.5 KB")]
    [InlineData(1_000_000, "1 MB")]
    public void Label_Bytes_DecimalPrefixes(double value, string expected) => Assert.Equal(expected, AxisTicks.Label(value, AxisUnit.Bytes));

    [Fact]
    public void Integers_FewLevels_EveryLevelNoFraction()
    {
        Assert.Equal([1.0, 10, 20], AxisTicks.Integers([1, 10, 20]));
        Assert.Equal([1.0], AxisTicks.Integers([1, 1, 1]));
    }

    [Fact]
    public void Integers_ThesisSweep_WholeSteps()
    {
        var ticks = AxisTicks.Integers([1, 5, 10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300]);

        Assert.All(ticks, t => Assert.Equal(Math.Round(t), t));
        Assert.InRange(ticks.Count, 4, 9);
        Assert.True(ticks[^1] >= 300);
    }
}
