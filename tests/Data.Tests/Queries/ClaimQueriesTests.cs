using Dashboard.Data.Claims;
using Dashboard.Data.Tests.Claims;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Data.Queries;

namespace Dashboard.Data.Tests.Queries;

public sealed class ClaimQueriesTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task LoadAsync_StoredRun_GivesTopologyResourcesFirstCallsAndRecordedClock()
    {
        var start = TestData.Start;
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run("claims");
            run.ScenarioJson = """{"name":"claims","topology":"emulated-lan"}""";
            run.StartedUtc = start;
            run.EnvironmentJson = """{"processorCount":4,"cpuClockMHz":3000}""";
            db.Runs.Add(run);
            var level = ClaimLevels.Stored(run, "AspNetHttpJson", "dotnet", "Int", 1, 0, start.AddSeconds(2), 4, 4000);
            db.Levels.Add(level);
            // The host process at 25 % of 4 cores over the level's 4 s = 4 CPU-seconds for 4,000 operations: 1,000 µs, 3 MCycles each.
            foreach (var ms in new long[] { 1_000, 3_000, 4_000, 5_000, 9_000 })
            {
                db.ResourceSamples.Add(new ResourceSampleEntity { Run = run, OffsetMs = ms, ProcessCpuPercent = ms is >= 2_000 and <= 6_000 ? 25 : 90, MachineCpuPercent = 50, AvailableMemoryMb = 2048 });
            }

            db.SaveChanges();
            runId = run.Id;
            using var store = new SampleStore(_database.FilePath);
            store.Append(level.Id, [.. Enumerable.Range(0, 10).Select(i => new Sample(0, i * 1000L, i < 5 ? 2000 : 500, SampleOutcome.Success, i < 2))]);
        }

        using var context = _database.NewContext();
        var inputs = await ClaimQueries.LoadAsync(context, [runId], CancellationToken.None);

        var level1 = Assert.Single(inputs.Levels);
        Assert.Equal(ClaimCatalogue.EmulatedLan, level1.Topology);
        Assert.Equal(25, level1.Resources!.StackCpuPercent.Mean, 9);
        Assert.Equal(1000, level1.Resources.CpuUsPerOperation.Mean, 6);
        Assert.Equal(3, level1.Resources.MCyclesPerOperation.Mean, 6);
        Assert.Equal(2048, level1.Resources.AvailableMemoryMb.Mean, 9);
        Assert.Equal(2.0, level1.FirstCallsMs!.Value.Mean, 9); // the first 5 calls, warm-up included, took 2 ms each
        var facts = Assert.Single(inputs.Runs);
        Assert.Equal(4, facts.Cores);
        Assert.Equal(3000, facts.Clock!.MHz);
        Assert.StartsWith("recorded with the run", facts.Clock.Source, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LoadAsync_EmulatedLanHostPinnedToOneCore_CostAndCpuUseTheHostsCores()
    {
        var start = TestData.Start;
        int lanId, sameId;
        using (var db = _database.Open())
        {
            // The same work on both sides: 0.5 cores busy for 4 s, 4,000 operations = 500 µs each. On-machine that is
            // 25 % of the machine's 2 cores; over the emulated LAN 50 % of the host's one pinned core (docs/topologies.md).
            var same = TestData.Run("same");
            same.ScenarioJson = """{"name":"same","topology":"same-machine"}""";
            same.StartedUtc = start;
            same.EnvironmentJson = """{"processorCount":2,"cpuClockMHz":2000}""";
            var lan = TestData.Run("lan");
            lan.ScenarioJson = """{"name":"lan","topology":"emulated-lan"}""";
            lan.StartedUtc = start;
            lan.EnvironmentJson = """{"processorCount":2,"cpuClockMHz":2000,"topology":{"name":"emulated-lan","linkRateMbps":100,"hostCores":[1],"generatorCores":[0]}}""";
            db.Runs.AddRange(same, lan);
            db.Levels.Add(ClaimLevels.Stored(same, "AspNetH2BinXml", "dotnet", "Int", 20, 0, start.AddSeconds(2), 4, 4000));
            db.Levels.Add(ClaimLevels.Stored(lan, "AspNetH2BinXml", "dotnet", "Int", 20, 0, start.AddSeconds(2), 4, 4000));
            foreach (var ms in new long[] { 3_000, 4_000, 5_000 })
            {
                db.ResourceSamples.Add(new ResourceSampleEntity { Run = same, OffsetMs = ms, ProcessCpuPercent = 25, MachineCpuPercent = 50, AvailableMemoryMb = 2048 });
                db.ResourceSamples.Add(new ResourceSampleEntity { Run = lan, OffsetMs = ms, ProcessCpuPercent = 50, MachineCpuPercent = 60, AvailableMemoryMb = 2048 });
            }

            db.SaveChanges();
            (sameId, lanId) = (same.Id, lan.Id);
        }

        using var context = _database.NewContext();
        var inputs = await ClaimQueries.LoadAsync(context, [sameId, lanId], CancellationToken.None);

        var onMachine = inputs.Levels.Single(l => l.RunId == sameId).Resources!;
        var overLan = inputs.Levels.Single(l => l.RunId == lanId).Resources!;
        Assert.Equal(500, onMachine.CpuUsPerOperation.Mean, 6);
        Assert.Equal(500, overLan.CpuUsPerOperation.Mean, 6);
        Assert.Equal(1, overLan.MCyclesPerOperation.Mean, 6); // 500 µs × 2,000 MHz
        Assert.Equal(50, onMachine.StackCpuPercentOfOneCore.Mean, 9);
        Assert.Equal(50, overLan.StackCpuPercentOfOneCore.Mean, 9);
        var lanFacts = inputs.Runs.Single(f => f.RunId == lanId);
        Assert.Equal(1, lanFacts.Cores);
        Assert.Contains("hostCores", lanFacts.CoresSource, StringComparison.Ordinal);
        Assert.Equal(2, inputs.Runs.Single(f => f.RunId == sameId).Cores);
    }

    [Theory]
    [InlineData("""{"name":"x"}""", ClaimCatalogue.SameMachine)]
    [InlineData("""{"topology":"remote"}""", "remote")]
    [InlineData("not json", ClaimCatalogue.SameMachine)]
    [InlineData(null, ClaimCatalogue.SameMachine)]
    public void TopologyOf_ScenarioDocument_ReadsItsTopologyField(string? json, string expected) =>
        Assert.Equal(expected, ClaimQueries.TopologyOf(json));

    [Fact]
    public async Task LoadAsync_FiveLaunchesOneDisturbedOneUnsteady_LevelFromTheThreeCleanOnesAndSaysWhichWereLeftOut()
    {
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run("launches");
            run.StartedUtc = TestData.Start;
            db.Runs.Add(run);
            for (var launch = 1; launch <= 5; launch++)
            {
                // Window figures: 100 µs of server CPU per request, except the disturbed launch 3 (300) and the unsteady 4 (200).
                var level = ClaimLevels.Stored(run, "WcfNetTcp", "wcf", "Get256Bytes", 1, launch, TestData.Start.AddSeconds(10 * launch), 2, 5000);
                level.Launch = launch;
                level.Disturbed = launch == 3;
                level.SteadyStateReached = launch != 4;
                level.ServerCpuPercent = 20;
                level.ServerCpuMicrosPerRequest = launch switch { 3 => 300, 4 => 200, _ => 100 };
                db.Levels.Add(level);
            }

            db.SaveChanges();
            runId = run.Id;
        }

        using var context = _database.NewContext();
        var inputs = await ClaimQueries.LoadAsync(context, [runId], CancellationToken.None);

        var level1 = Assert.Single(inputs.Levels);
        Assert.Equal(["launch 3: disturbed", "launch 4: before steady state"], level1.RepetitionsLeftOut);
        Assert.Equal(0, level1.Level.DisturbedRepetitions);
        Assert.True(level1.Level.SteadyStateReached);
        Assert.Equal([100.0, 100.0, 100.0], level1.Resources!.CpuUsPerOperationValues);
    }

    [Fact]
    public async Task LoadAsync_EveryRepetitionUnsteady_LevelKeepsThemAllAndItsFlag()
    {
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run("unsteady");
            run.StartedUtc = TestData.Start;
            db.Runs.Add(run);
            for (var repetition = 1; repetition <= 3; repetition++)
            {
                var level = ClaimLevels.Stored(run, "WcfNetTcp", "wcf", "Get256Bytes", 1, repetition, TestData.Start.AddSeconds(10 * repetition), 2, 5000);
                level.SteadyStateReached = false;
                db.Levels.Add(level);
            }

            db.SaveChanges();
            runId = run.Id;
        }

        using var context = _database.NewContext();
        var inputs = await ClaimQueries.LoadAsync(context, [runId], CancellationToken.None);

        var level1 = Assert.Single(inputs.Levels);
        Assert.Empty(level1.RepetitionsLeftOut);
        Assert.False(level1.Level.SteadyStateReached);
        Assert.Equal(3, level1.Level.Levels.Count);
    }
}
