using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Queries;

public sealed class LevelQueriesTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task GetLevelsAsync_LevelsStoredOutOfOrder_ReturnsRunsLevelsOrderedByVariantClientPayloadClients()
    {
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            var other = TestData.Run("other");
            db.Levels.AddRange(
                TestData.Level(run, "UdsNoSec", 10, "wcf", "Int"),
                TestData.Level(run, "TcpNoSec", 10, "wcf", "Int"),
                TestData.Level(run, "TcpNoSec", 2, "wcf", "Int"),
                TestData.Level(run, "TcpNoSec", 1, "wcf", "Byte"),
                TestData.Level(run, "TcpNoSec", 1, "soap", "Int"),
                TestData.Level(other, "AaaOther", 1, "wcf", "Int"));
            await db.SaveChangesAsync();
            runId = run.Id;
        }

        using var reader = _database.NewContext();
        var levels = await reader.GetLevelsAsync(runId);

        Assert.Equal(
            ["TcpNoSec/soap/Int/1", "TcpNoSec/wcf/Byte/1", "TcpNoSec/wcf/Int/2", "TcpNoSec/wcf/Int/10", "UdsNoSec/wcf/Int/10"],
            levels.Select(l => $"{l.Variant}/{l.Client}/{l.Payload}/{l.Clients}"));
        Assert.All(levels, l => Assert.Equal(runId, l.RunId));
    }

    [Fact]
    public async Task GetLevelsAsync_StoredAggregates_ReturnsEveryValue()
    {
        var stored = new LevelEntity
        {
            Run = TestData.Run(),
            Variant = "HttpsTpt",
            Client = "java",
            Payload = "String1000",
            Repetition = 2,
            Clients = 300,
            StartedUtc = TestData.Start,
            EndedUtc = TestData.Start.AddMinutes(1),
            Requests = 123_456,
            Errors = 21,
            TimeoutErrors = 1,
            FaultErrors = 2,
            ConnectionErrors = 3,
            AuthenticationErrors = 4,
            OtherErrors = 11,
            ThroughputRps = 2057.6,
            MeanMs = 1.25,
            P50Ms = 1.0,
            P90Ms = 2.5,
            P99Ms = 9.75,
            P999Ms = 20.125,
            MaxMs = 99.5,
            GeneratorCpuPercent = 42.5,
        };
        using (var db = _database.Open())
        {
            db.Levels.Add(stored);
            await db.SaveChangesAsync();
        }

        stored.Run = null;

        using var reader = _database.NewContext();
        var level = Assert.Single(await reader.GetLevelsAsync(stored.RunId));

        Assert.Equivalent(stored, level, strict: true);
        Assert.Equal(DateTimeKind.Utc, level.StartedUtc.Kind);
    }
}
