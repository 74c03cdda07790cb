using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Dashboard.Web.Results;

namespace Dashboard.Web.Tests.Charts;

public sealed class OpenSweepChartsTests
{
    private static readonly DateTime Start = new(2026, 11, 27, 8, 0, 0, DateTimeKind.Utc);

    private static LevelEntity Level(int rate, double achieved, double p99, int? target = 0) => new()
    {
        Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Clients = rate, TargetRateRps = target is null ? null : rate, Repetition = 1, Requests = 100,
        ThroughputRps = achieved, MeanMs = p99 / 3, P50Ms = p99 / 4, P90Ms = p99 / 2, P99Ms = p99, P999Ms = p99 * 2, MaxMs = p99 * 3,
        LateStarts = 0, DroppedRequests = 0, StartedUtc = Start, EndedUtc = Start.AddSeconds(1),
    };

    private static RunPageData Data(IReadOnlyList<LevelEntity> levels, string scenarioJson) => new(
        new RunEntity { Id = 3, ScenarioName = "s", ScenarioJson = scenarioJson, CreatedUtc = Start, Status = RunStatus.Completed },
        levels, LevelAggregation.Aggregate(levels), [], [], new SampleCounts(0, 0), Start);

    [Fact]
    public void Build_OpenRunWithATarget_PercentilesVsAchievedRateAndTheTargetNamed()
    {
        var figures = RunCharts.Build(Data([Level(500, 500, 2), Level(1000, 990, 30)], """{"workload":"open","p99TargetMs":10}"""), RunView.Default);

        var chart = figures.Views.Single(v => v.Key == "open-sweep").Spec;
        Assert.Equal("achieved rate (requests/s)", chart.XTitle);
        Assert.Contains("intended start", chart.YTitle, StringComparison.Ordinal);
        // Short enough that the unit stays on a 390 px phone's rotated axis title.
        Assert.Equal("time from intended start (ms)", chart.YTitle);
        Assert.Equal(["AspNetHttpJson × dotnet × Int p50", "AspNetHttpJson × dotnet × Int p99", "AspNetHttpJson × dotnet × Int p99.9", "p99 target 10 ms"], chart.Series.Select(s => s.Name));
        var p99 = chart.Series[1];
        Assert.Equal([500.0, 990.0], p99.X);
        Assert.Equal([2.0, 30.0], p99.Y);
        Assert.Contains("Highest rate with p99 ≤ 10 ms and nothing dropped — AspNetHttpJson × dotnet × Int: 500 req/s", chart.Subtitle, StringComparison.Ordinal);
    }

    [Fact]
    public void Build_ClosedRun_NoOpenSweepChartAndNoNote()
    {
        var figures = RunCharts.Build(Data([Level(10, 500, 2, target: null), Level(20, 900, 3, target: null)], "{}"), RunView.Default);

        Assert.DoesNotContain(figures.Views, v => v.Key == "open-sweep");
        Assert.DoesNotContain(figures.ViewNotes, n => n.Contains("open", StringComparison.OrdinalIgnoreCase));
    }
}
