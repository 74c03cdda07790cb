using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Scenarios;

namespace Dashboard.Web.Components.Tests.Scenarios;

/// <summary>The duration a preset or a hand-built scenario shows.</summary>
public sealed class DurationEstimatorTests
{
    private static readonly ScenarioDocument OneCell = new()
    {
        Name = "one cell", Host = "http://localhost:5090", Variants = ["AspNetHttpJson"], Clients = ["dotnet"], Payloads = ["Int"],
        Levels = [1], RequestsPerClient = 3000, Warmup = 0, Repetitions = 1,
    };

    [Fact]
    public void Estimate_MeasuredThroughputHere_UsedAndCalledCalibrated()
    {
        var estimator = new DurationEstimator([new MeasuredThroughput("AspNetHttpJson", "dotnet", "Int", 1, 100)]);

        var figure = estimator.Estimate(OneCell);

        Assert.Equal(DurationSource.Calibrated, figure.Source);
        // start + client start + 3000 requests at 100 req/s + one level's overhead
        Assert.Equal(DurationEstimator.RunStartSeconds + 0.1 + 30 + DurationEstimator.LevelOverheadSeconds, figure.Duration.TotalSeconds, 3);
    }

    [Fact]
    public void Estimate_NothingMeasured_DefaultsAndSkippedPairsCostNothing()
    {
        var alone = DurationEstimator.Default.Estimate(OneCell);
        var mixed = DurationEstimator.Default.Estimate(OneCell with { Clients = ["dotnet", "java"] });

        Assert.Equal(DurationSource.Estimated, alone.Source);
        Assert.Equal(alone.Duration, mixed.Duration); // java cannot call AspNetHttpJson: skipped, not timed
    }

    [Fact]
    public void Estimate_DurationBound_EachLevelTakesItsDurationPerRepetition()
    {
        var figure = DurationEstimator.Default.Estimate(OneCell with { RequestsPerClient = null, Duration = TimeSpan.FromSeconds(10), Levels = [1, 10], Repetitions = 3 });

        Assert.InRange(figure.Duration.TotalSeconds, 60, 62.5);
    }

    [Theory]
    [InlineData(19, "19 s")]
    [InlineData(150, "3 min")]
    [InlineData(3 * 3600 + 1800, "3.5 h")]
    public void Format_Durations_RoundedForPeople(int seconds, string expected) =>
        Assert.Equal(expected, DurationFigure.Format(TimeSpan.FromSeconds(seconds)));
}
