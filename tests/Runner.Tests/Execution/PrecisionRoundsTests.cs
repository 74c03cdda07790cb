using Dashboard.Data.Entities;
using Dashboard.Runner.Execution;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>Which levels a precision target gives one more repetition, and when it stops (docs/statistics.md, "Precision target").</summary>
public class PrecisionRoundsTests
{
    private static readonly HostEndpoint Endpoint = new("AspNetHttpJson", "aspnet", "http://127.0.0.1:5092", "HTTP/1.1", "JSON", "None", "None");

    private static Cell Cell(string payload)
    {
        Assert.True(PayloadCatalogue.TryGet(payload, out var p));
        return new Cell(Endpoint, "dotnet", null, p!);
    }

    private static ScenarioDocument Scenario(int? maxRepetitions = null, TimeSpan? limit = null) => new()
    {
        Name = "precision",
        Host = "http://127.0.0.1:5090",
        Variants = ["AspNetHttpJson"],
        Clients = ["dotnet"],
        Payloads = ["Int", "Double"],
        Precision = 0.02,
        MaxRepetitions = maxRepetitions,
        PrecisionTimeLimit = limit,
    };

    private static IEnumerable<LevelEntity> Stored(string payload, int clients, params double[] throughputs) =>
        throughputs.Select((t, r) => new LevelEntity
        {
            Variant = "AspNetHttpJson", Client = "dotnet", Payload = payload, Clients = clients, Repetition = r + 1,
            Requests = 1000, ThroughputRps = t, MeanMs = 1, Complete = true,
        });

    [Fact]
    public void NextRound_OneLevelWideOneTight_OnlyTheWideOneRunsAgain()
    {
        var (intCell, doubleCell) = (Cell("Int"), Cell("Double"));
        var rounds = new PrecisionRounds(Scenario(), 0.02, seed: 1);
        List<LevelEntity> stored = [.. Stored("Int", 10, 1000, 1001, 999), .. Stored("Double", 10, 500, 900, 700)];

        Assert.True(rounds.NextRound(stored, [(intCell, 10), (doubleCell, 10)], out var round, out var summary));

        Assert.Equal([(doubleCell, 10)], round);
        Assert.Contains("1 of 2 levels not yet within ±2.0 %", summary, StringComparison.Ordinal);
        Assert.Null(rounds.Outcome);
    }

    [Fact]
    public void NextRound_AllTight_NoRoundAndEveryLevelReachedIt()
    {
        var rounds = new PrecisionRounds(Scenario(), 0.02, seed: 1);

        Assert.False(rounds.NextRound([.. Stored("Int", 10, 1000, 1001, 999)], [(Cell("Int"), 10)], out var round, out _));

        Assert.Empty(round);
        Assert.Equal("precision target ±2.0 %: every level reached it (1 levels, 0 extra rounds)", rounds.Outcome);
    }

    [Fact]
    public void NextRound_WideLevelAtItsCap_NoRoundAndTheCapIsNamed()
    {
        var rounds = new PrecisionRounds(Scenario(maxRepetitions: 3), 0.02, seed: 1);

        Assert.False(rounds.NextRound([.. Stored("Double", 10, 500, 900, 700)], [(Cell("Double"), 10)], out _, out _));

        Assert.Equal("precision target ±2.0 %: 0 of 1 levels reached it; not reached: 1 at the cap of 3 repetitions (each level's figures say what it reached)", rounds.Outcome);
    }

    [Fact]
    public void NextRound_LevelNotYetStored_RunsAgain()
    {
        var rounds = new PrecisionRounds(Scenario(), 0.02, seed: 1);

        Assert.True(rounds.NextRound([], [(Cell("Int"), 1)], out var round, out _));

        Assert.Single(round);
    }

    [Fact]
    public async Task NextRound_TimeLimitPassed_NoRoundAndTheLimitIsNamed()
    {
        var rounds = new PrecisionRounds(Scenario(limit: TimeSpan.FromSeconds(1)), 0.02, seed: 1);
        List<LevelEntity> wide = [.. Stored("Double", 10, 500, 900, 700)];
        Assert.True(rounds.NextRound(wide, [(Cell("Double"), 10)], out _, out _));
        await Task.Delay(1500);

        Assert.True(rounds.TimeIsUp);
        Assert.False(rounds.NextRound(wide, [(Cell("Double"), 10)], out _, out _));
        Assert.Contains("1 stopped by the time limit of 00:00:01", rounds.Outcome, StringComparison.Ordinal);
    }
}
