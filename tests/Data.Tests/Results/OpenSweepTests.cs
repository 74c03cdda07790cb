using Dashboard.Data.Entities;
using Dashboard.Data.Results;

namespace Dashboard.Data.Tests.Results;

public sealed class OpenSweepTests
{
    private static LevelEntity Level(int rate, double p99, double throughput, long dropped = 0, bool complete = true, string client = "dotnet", int repetition = 1) => new()
    {
        Variant = "AspNetHttpJson",
        Client = client,
        Payload = "Int",
        Repetition = repetition,
        Clients = rate,
        TargetRateRps = rate,
        Requests = 100,
        ThroughputRps = throughput,
        P50Ms = p99 / 4,
        P99Ms = p99,
        P999Ms = p99 * 2,
        ServiceP99Ms = p99 / 2,
        LateStarts = 3,
        DroppedRequests = dropped,
        Complete = complete,
    };

    [Fact]
    public void Of_ThreeRatesOneOverTarget_PointsByRateAndTheHighestRateMeetingIt()
    {
        var sweep = OpenSweep.Of([Level(2000, 40, 1990), Level(500, 2, 500), Level(1000, 5, 1000), Level(1000, 7, 998, repetition: 2)], p99TargetMs: 10);

        var curve = Assert.Single(sweep.Curves);
        Assert.Equal([500, 1000, 2000], curve.Points.Select(p => p.RateRps));
        var thousand = curve.Points[1];
        Assert.Equal((999.0, 6.0, 2, 6L), (thousand.AchievedRps, thousand.P99Ms, thousand.Repetitions, thousand.LateStarts));
        Assert.Equal(1000, curve.HighestRateMeetingTarget);
    }

    [Fact]
    public void Of_RateUnderTargetButWithDrops_DoesNotMeetIt()
    {
        var sweep = OpenSweep.Of([Level(500, 2, 500), Level(1000, 5, 900, dropped: 10)], p99TargetMs: 10);

        Assert.Equal(500, Assert.Single(sweep.Curves).HighestRateMeetingTarget);
    }

    [Fact]
    public void Of_NoTargetPartialAndClosedLevels_NoHighestRatePartialAndClosedLeftOut()
    {
        var closed = Level(10, 1, 100);
        closed.TargetRateRps = null;
        var sweep = OpenSweep.Of([Level(500, 2, 500), Level(1000, 1, 1000, complete: false), closed], p99TargetMs: null);

        var curve = Assert.Single(sweep.Curves);
        Assert.Equal([500], curve.Points.Select(p => p.RateRps));
        Assert.Null(curve.HighestRateMeetingTarget);
    }

    [Fact]
    public void Of_ClosedRun_NoCurves() => Assert.Empty(OpenSweep.Of([], 10).Curves);
}
