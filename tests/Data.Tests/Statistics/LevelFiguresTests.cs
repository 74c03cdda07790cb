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
        var aggregate = ResultsQueries.Aggregate([Repetition(1, 3), Repetition(2, 4)]).Single();
        var p95 = LevelStatistics.Table.Single(s => s.Title == "p95 (ms)");

        Assert.Equal("3.500", p95.Text(aggregate));
        Assert.True(p95.Hidden);
        Assert.Equal("p95_ms", p95.Column);
    }
}
