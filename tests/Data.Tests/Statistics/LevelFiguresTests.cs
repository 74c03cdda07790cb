using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Data.Statistics;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Data.Tests.Statistics;

/// <summary><see cref="LevelFigures"/> and <see cref="LevelStatistics"/>: every declared statistic stored from the raw samples, shown in the table.</summary>
public sealed class LevelFiguresTests
{
    [Fact]
    public void Apply_OneToHundredMsAndAFault_StoresCountsAndPercentilesP95Included()
    {
        Sample[] samples =
        [
            .. Enumerable.Range(1, 100).Select(i => new Sample(0, (i - 1) * 100_000L, i * 1000L, SampleOutcome.Success, false)),
            new Sample(0, 100 * 100_000L, 500, SampleOutcome.Fault, false),
        ];
        var level = new LevelEntity { Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int" };

        LevelFigures.Apply(level, LatencyStatistics.FromSamples(samples));

        Assert.Equal(101, level.Requests);
        Assert.Equal(1, level.Errors);
        Assert.Equal(1, level.FaultErrors);
        Assert.Equal(90, level.P90Ms);
        Assert.Equal(95, level.P95Ms);
        Assert.Equal(99, level.P99Ms);
    }

    [Fact]
    public void Text_P95OverTwoRepetitions_MeanInTheTableFormatHiddenByDefault()
    {
        LevelEntity Repetition(int repetition, double p95) => new()
        {
            Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Clients = 10, Repetition = repetition, Requests = 100, P95Ms = p95,
        };
        var aggregate = LevelAggregation.Aggregate([Repetition(1, 3), Repetition(2, 4)]).Single();
        var p95 = LevelStatistics.Table.Single(s => s.Title == "p95 (ms)");

        Assert.Equal("3.500", p95.Text(aggregate));
        Assert.True(p95.Hidden);
        Assert.Equal("p95_ms", p95.Column);
    }

    [Fact]
    public void Apply_TenMsWindow_StoresTheMeasuredWindowInSeconds()
    {
        // Two measured requests: the first starts at 0, the last ends at 10 ms; a warm-up request before is not in the window.
        Sample[] samples =
        [
            new Sample(0, 0, 2_000, SampleOutcome.Success, true),
            new Sample(0, 5_000, 1_000, SampleOutcome.Success, false),
            new Sample(0, 12_000, 3_000, SampleOutcome.Success, false),
        ];
        var level = new LevelEntity { Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int" };

        LevelFigures.Apply(level, LatencyStatistics.FromSamples(samples));

        Assert.Equal(0.010, level.WindowSeconds!.Value, 6);
    }

    [Fact]
    public void Text_WarmupEndAndLaunchesOverThreeRepetitions_SaysHowEachEnded()
    {
        LevelEntity Repetition(int repetition, bool? steady, int launch) => new()
        {
            Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Clients = 10, Repetition = repetition, Requests = 100,
            SteadyStateReached = steady, Launch = launch, WindowSeconds = repetition,
        };
        var mixed = LevelAggregation.Aggregate([Repetition(1, true, 1), Repetition(2, false, 2), Repetition(3, true, 3)]).Single();
        var steady = LevelAggregation.Aggregate([Repetition(1, true, 1), Repetition(2, true, 1)]).Single();
        var off = LevelAggregation.Aggregate([Repetition(1, null, 1)]).Single();

        Assert.Equal("steady 2, cap 1", LevelStatistics.WarmupEnd(mixed));
        Assert.Equal("steady", LevelStatistics.WarmupEnd(steady));
        Assert.Null(LevelStatistics.WarmupEnd(off));
        Assert.Equal(3, LevelStatistics.Launches(mixed));
        Assert.Equal(1, LevelStatistics.Launches(steady));
        Assert.Equal("2.00", LevelStatistics.Table.Single(s => s.Title == "Window (s)").Text(mixed));
    }
}
