using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Dashboard.Web.Results;

namespace Dashboard.Web.Tests.Charts;

public sealed class OverTimeChartsTests
{
    private static readonly DateTime Start = new(2026, 11, 25, 8, 0, 0, DateTimeKind.Utc);

    private static LevelEntity Level(long id, string variant, int clients, int second) => new()
    {
        Id = id, Variant = variant, Client = "dotnet", Payload = "Int", Clients = clients, Repetition = 1, Requests = 100,
        ThroughputRps = 100, MeanMs = 1, StartedUtc = Start.AddSeconds(second), EndedUtc = Start.AddSeconds(second + 1),
    };

    [Fact]
    public void Build_ACellsLevelsWithAnotherCellBetween_TheCellsLineBreaksBetweenItsLevels()
    {
        // Cell A at 1 client (0–1 s), cell B (1–2 s), cell A at 2 clients (2–3 s): A's line must not join 1 s to 2 s over B.
        LevelEntity[] levels = [Level(1, "AspNetHttpJson", 1, 0), Level(2, "AspNetGrpc", 1, 1), Level(3, "AspNetHttpJson", 2, 2)];
        LatencyPoint[] latency =
        [
            new(1, 0.25, 25, 1.0, 2.0, 0.5), new(1, 0.75, 25, 1.1, 2.0, 0.5),
            new(2, 1.25, 25, 3.0, 4.0, 0.5), new(2, 1.75, 25, 3.1, 4.0, 0.5),
            new(3, 2.25, 25, 1.5, 2.0, 0.5), new(3, 2.75, 25, 1.6, 2.0, 0.5),
        ];
        var data = new RunPageData(
            new RunEntity { Id = 3, ScenarioName = "s", ScenarioJson = "{}", CreatedUtc = Start, Status = RunStatus.Completed },
            levels, LevelAggregation.Aggregate(levels), [], latency, new SampleCounts(0, 0), Start);

        var charts = OverTimeCharts.Build(data);

        foreach (var key in new[] { "latency-over-time", "throughput-over-time" })
        {
            var cellA = charts.Single(c => c.Key == key).Spec.Series.Single(s => s.Name == "AspNetHttpJson × dotnet × Int");
            Assert.Equal([0.25, 0.75, 2.25, 2.25, 2.75], cellA.X);
            Assert.Null(cellA.Y[2]);
            Assert.Equal(4, cellA.Y.Count(y => y is not null));
            var cellB = charts.Single(c => c.Key == key).Spec.Series.Single(s => s.Name == "AspNetGrpc × dotnet × Int");
            Assert.DoesNotContain(null, cellB.Y);
        }
    }
}
