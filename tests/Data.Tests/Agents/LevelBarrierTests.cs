using Dashboard.Data.Agents;

namespace Dashboard.Data.Tests.Agents;

public sealed class LevelBarrierTests
{
    private static BarrierParticipant Started(string agent, DateTime start, double uncertainty) =>
        new(agent, 1, start, 0, uncertainty, start, start, null, null, null);

    [Fact]
    public void SkewBoundMs_ThreeStarts_SpreadPlusTheTwoLargestUncertainties()
    {
        var t = new DateTime(2026, 11, 25, 12, 0, 0, DateTimeKind.Utc);
        var rows = new[] { Started("a", t, 0.1), Started("b", t.AddMilliseconds(1.5), 0.4), Started("c", t.AddMilliseconds(0.5), 0.2) };

        Assert.Equal(1.5 + 0.4 + 0.2, LevelBarrier.SkewBoundMs(rows)!.Value, 9);
    }

    [Fact]
    public void SkewBoundMs_AnAgentNotStarted_Null()
    {
        var t = new DateTime(2026, 11, 25, 12, 0, 0, DateTimeKind.Utc);
        var rows = new[] { Started("a", t, 0.1), Started("b", t, 0.1) with { ActualStartUtc = null } };

        Assert.Null(LevelBarrier.SkewBoundMs(rows));
    }
}
