using Dashboard.Web.Components.Pages;

namespace Dashboard.Web.Tests.Components.Pages;

public sealed class RunTimingTests
{
    private static readonly DateTime Start = new(2026, 11, 25, 8, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void Of_ThreeOfTwelveLevelsIn90Seconds_ElapsedAndEtaFromTheMeanLevel()
    {
        var timing = RunTiming.Of(Start, Start.AddSeconds(90), 3, 12, running: true);

        Assert.Equal("1 min 30 s", timing.Elapsed);
        Assert.Equal("4 min 30 s", timing.Eta);
    }

    [Fact]
    public void Of_BeforeTheFirstLevelOrFinished_NoEta()
    {
        Assert.Null(RunTiming.Of(Start, Start.AddSeconds(5), 0, 12, running: true).Eta);
        Assert.Null(RunTiming.Of(Start, Start.AddHours(2).AddMinutes(5), 12, 12, running: false).Eta);
        Assert.Equal("2 h 05 min", RunTiming.Of(Start, Start.AddHours(2).AddMinutes(5), 12, 12, running: false).Elapsed);
    }
}
