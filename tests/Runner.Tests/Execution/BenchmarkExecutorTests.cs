using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Tests.Execution;

public sealed class BenchmarkExecutorTests : IDisposable
{
    private static readonly HostEndpoint[] Endpoints =
    [
        new("AspNetHttpJson", "aspnet", "http://localhost:5092/", "HTTP/1.1", "JSON", "None", "None"),
        new("AspNetH2BinXml", "aspnet", "http://localhost:5093/", "HTTP/2 cleartext", "binary XML", "None", "None"),
    ];

    private readonly string _directory = Directory.CreateTempSubdirectory("executor-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task RunAsync_TwoVariantsThreeLevels_StoresEverySampleAndEveryLevel()
    {
        var scenario = Scenario() with { Levels = [1, 10, 20], RequestsPerClient = 20, Warmup = 2 };
        var events = new List<ProgressEvent>();
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.Zero), events.Add);

        var run = await executor.RunAsync(scenario, Endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(6, run.CompletedLevels);
        using var db = ResultsDatabase.Open(DatabasePath);
        var levels = await db.Levels.Where(l => l.RunId == run.Id).ToListAsync();
        Assert.Equal(6, levels.Count);
        Assert.All(levels, l => Assert.Equal(l.Clients * 20, l.Requests));
        var measured = await db.Samples.CountAsync(s => !s.IsWarmup);
        var warmup = await db.Samples.CountAsync(s => s.IsWarmup);
        Assert.Equal(2 * (1 + 10 + 20) * 20, measured);
        Assert.Equal(2 * (1 + 10 + 20) * 2, warmup);
        Assert.Equal(["run-started", .. Enumerable.Repeat("level-completed", 6), "run-ended"], events.Select(e => e.Event));
        Assert.NotNull(run.EnvironmentJson);
        Assert.Contains("\"processorCount\"", run.EnvironmentJson, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_CancelledDuringTheSecondLevel_KeepsItsSamplesAndSaysHowFarItGot()
    {
        // Each level takes at least 1000 × 2 ms = 2 s; the run is cancelled once the second level has made 20 calls
        // (counted by the driver, not timed: a timer of 100 ms after the first level fired before the second level's
        // clients had called at all on a loaded machine, and the partial level then had 0 requests).
        var scenario = Scenario() with { Variants = ["AspNetHttpJson"], Levels = [1, 2], RequestsPerClient = 1000 };
        using var cancellation = new CancellationTokenSource();
        var firstLevelDone = 0;
        var callsAfterFirstLevel = 0;
        void OnCall()
        {
            if (Volatile.Read(ref firstLevelDone) == 1 && Interlocked.Increment(ref callsAfterFirstLevel) == 20)
            {
                cancellation.Cancel();
            }
        }

        var registry = new ClientDriverRegistry([new FakeDriver(TimeSpan.FromMilliseconds(2), onCall: OnCall)]);
        var executor = new BenchmarkExecutor(DatabasePath, registry, e =>
        {
            if (e.Event == "level-completed")
            {
                Volatile.Write(ref firstLevelDone, 1);
            }
        });

        var run = await executor.RunAsync(scenario, Endpoints, cancellation.Token);

        Assert.Equal(RunStatus.Cancelled, run.Status);
        Assert.Equal(1, run.CompletedLevels);
        Assert.Contains("after 1 of 2 levels, during AspNetHttpJson × dotnet × Int, repetition 1, 2 clients", run.Error, StringComparison.Ordinal);
        using var db = ResultsDatabase.Open(DatabasePath);
        var levels = await db.Levels.OrderBy(l => l.Clients).ToListAsync();
        Assert.Equal(2, levels.Count);
        Assert.Equal(1000, levels[0].Requests);
        Assert.InRange(levels[1].Requests, 1, 2 * 999);
        Assert.Equal(1000 + levels[1].Requests, await db.Samples.CountAsync());
        Assert.Equal(RunStatus.Cancelled, (await db.Runs.SingleAsync()).Status);
        // The cut level is stored as partial, its samples kept; aggregates leave it out unless asked for.
        Assert.True(levels[0].Complete);
        Assert.False(levels[1].Complete);
        Assert.StartsWith("cancelled after ", levels[1].PartialReason, StringComparison.Ordinal);
        Assert.Equal([1], Dashboard.Data.Results.LevelAggregation.Aggregate(levels).Select(a => a.Clients));
        Assert.False(Dashboard.Data.Results.LevelAggregation.Aggregate(levels, includePartial: true).Single(a => a.Clients == 2).Complete);
    }

    [Fact]
    public async Task RunAsync_ThreeRepetitions_EachRunsEveryCellOnceInTheOrderOfTheRecordedSeed()
    {
        var scenario = Scenario() with { Variants = ["AspNetHttpJson", "AspNetH2BinXml"], Payloads = ["Int", "String500"], Levels = [1, 2], Repetitions = 3 };
        var events = new List<ProgressEvent>();
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.Zero), events.Add) { OrderSeed = 12345 };

        var run = await executor.RunAsync(scenario, Endpoints, CancellationToken.None);

        Assert.Equal(12345, run.OrderSeed);
        var levels = events.Where(e => e.Event == "level-completed").ToList();
        Assert.Equal(24, levels.Count);
        // Repetition r runs every cell once before repetition r + 1 starts (interleaved); without a steady-state warm-up a
        // cell runs its levels in the scenario's order.
        Assert.Equal([.. Enumerable.Repeat(1, 8), .. Enumerable.Repeat(2, 8), .. Enumerable.Repeat(3, 8)], levels.Select(e => e.Repetition!.Value));
        var seen = levels.Select(e => $"{e.Variant}|{e.Payload}").Chunk(2).Select(pair => Assert.Single(pair.Distinct())).ToList();
        string[] cells = ["AspNetHttpJson|Int", "AspNetHttpJson|String500", "AspNetH2BinXml|Int", "AspNetH2BinXml|String500"];
        Assert.Equal(CellOrder.ForRepetitions(cells, 3, 12345).SelectMany(o => o), seen);
        Assert.All(levels.Chunk(2), pair => Assert.Equal([1, 2], pair.Select(e => e.Clients!.Value)));
        using var db = ResultsDatabase.Open(DatabasePath);
        Assert.Equal(12345, (await db.Runs.SingleAsync()).OrderSeed);
    }

    [Fact]
    public async Task RunAsync_SteadyStateWarmupAndSeed_CellsAndLevelsInTheSeedsRandomOrder()
    {
        // Each level warms up (two 100 ms windows agree within CoV 1), so its levels may run in any order.
        var steady = new SteadyStateSettings(2, 1.0, TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(2));
        var scenario = Scenario() with { Variants = ["AspNetHttpJson", "AspNetH2BinXml"], Levels = [1, 2, 3], Repetitions = 2, SteadyState = steady };
        var events = new List<ProgressEvent>();
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.Zero), events.Add) { OrderSeed = 4242 };

        await executor.RunAsync(scenario, Endpoints, CancellationToken.None);

        var seen = events.Where(e => e.Event == "level-completed").Select(e => $"{e.Variant}|{e.Clients}").ToList();
        var expected = CellOrder.ForLaunches(["AspNetHttpJson", "AspNetH2BinXml"], [1, 2, 3], 1, 2, 4242, shuffleLevels: true)
            .SelectMany(o => o).Select(u => $"{u.Cell}|{u.Clients}").ToList();
        Assert.Equal(expected, seen);
        Assert.All(seen.Chunk(6), r => Assert.Equal(expected.Take(6).Order(StringComparer.Ordinal), r.Order(StringComparer.Ordinal)));
    }

    [Fact]
    public async Task RunAsync_TwoLaunches_FreshClientsPerLaunchAndEachLevelRecordsItsLaunchAndWindow()
    {
        var driver = new CountingDriver();
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([driver]), _ => { }) { OrderSeed = 7 };

        var run = await executor.RunAsync(Scenario() with { Variants = ["AspNetHttpJson"], Levels = [1, 3], Repetitions = 2, Launches = 2 }, Endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(8, run.TotalLevels);
        Assert.Equal(2, driver.Opened);
        using var db = ResultsDatabase.Open(DatabasePath);
        var levels = await db.Levels.OrderBy(l => l.Repetition).ThenBy(l => l.Clients).ToListAsync();
        Assert.Equal([1, 1, 1, 1, 2, 2, 2, 2], levels.Select(l => l.Launch));
        Assert.Equal([1, 1, 2, 2, 3, 3, 4, 4], levels.Select(l => l.Repetition));
        Assert.All(levels, l => Assert.InRange(l.WindowSeconds!.Value, 0, (l.EndedUtc - l.StartedUtc).TotalSeconds + 0.001));
    }

    [Fact]
    public async Task RunAsync_SteadyStateReachable_WarmsUpAndRecordsReachedAndLength()
    {
        // A steady fake client (1 ms per call): three 200 ms windows agree within 50 %.
        var steady = new SteadyStateSettings(3, 0.5, TimeSpan.FromMilliseconds(200), TimeSpan.FromSeconds(10));
        var scenario = Scenario() with { Variants = ["AspNetHttpJson"], SteadyState = steady };
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.FromMilliseconds(1)), _ => { });

        await executor.RunAsync(scenario, Endpoints, CancellationToken.None);

        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        Assert.True(level.SteadyStateReached);
        Assert.InRange(level.SteadyStateWarmupSeconds!.Value, 0.6, 10);
        Assert.InRange(level.SteadyStateCoefficientOfVariation!.Value, 0, 0.5);
        Assert.True(level.Complete);
    }

    [Fact]
    public async Task RunAsync_SteadyStateNotReachedInTime_MeasuresAndFlagsTheLevel()
    {
        // A threshold no real throughput meets (CoV ≤ 0.0001 %) within 600 ms.
        var steady = new SteadyStateSettings(3, 0.000001, TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(600));
        var scenario = Scenario() with { Variants = ["AspNetHttpJson"], SteadyState = steady };
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.FromMilliseconds(1)), _ => { });

        await executor.RunAsync(scenario, Endpoints, CancellationToken.None);

        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        Assert.False(level.SteadyStateReached);
        Assert.InRange(level.SteadyStateWarmupSeconds!.Value, 0.6, 30);
        Assert.Equal(5, level.Requests);
        Assert.False(Dashboard.Data.Results.LevelAggregation.Aggregate([level]).Single().SteadyStateReached);
    }

    [Fact]
    public async Task RunAsync_FreshClientPerRepetition_OpensOneSessionPerRepetition()
    {
        var driver = new CountingDriver();
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([driver]), _ => { });

        await executor.RunAsync(Scenario() with { Variants = ["AspNetHttpJson"], Repetitions = 3, FreshClientPerRepetition = true }, Endpoints, CancellationToken.None);
        var fresh = driver.Opened;
        await executor.RunAsync(Scenario() with { Variants = ["AspNetHttpJson"], Repetitions = 3 }, Endpoints, CancellationToken.None);

        Assert.Equal(3, fresh);
        Assert.Equal(4, driver.Opened);
    }

    [Fact]
    public async Task RunAsync_VariantTheHostDoesNotServe_IsRefusedAndNothingIsStored()
    {
        var scenario = Scenario() with { Variants = ["AspNetHttpJson", "AspNetUdsBinXml"] };
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.Zero), _ => { });

        var error = await Assert.ThrowsAsync<ScenarioException>(() => executor.RunAsync(scenario, Endpoints, CancellationToken.None));

        Assert.Equal("variants[1]", error.Field);
        Assert.False(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task RunAsync_ClientTechnologyNotInThisBuild_IsRefusedWithTheReason()
    {
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([]), _ => { });

        var error = await Assert.ThrowsAsync<ScenarioException>(() => executor.RunAsync(Scenario(), Endpoints, CancellationToken.None));

        Assert.Equal("clients[0]", error.Field);
        Assert.Contains("client technology 'dotnet' is not available in this build", error.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task RunAsync_ClientCannotConnect_FailsTheRunWithTheReason()
    {
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new FakeDriver(TimeSpan.Zero, openFails: _ => true)]), _ => { });

        var run = await executor.RunAsync(Scenario(), Endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("connection refused", run.Error, StringComparison.Ordinal);
        Assert.Contains("2 of 2 cells failed (0 of 2 levels done)", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_OneCellCannotConnect_ThatCellFailsAndTheOthersRun()
    {
        var events = new List<ProgressEvent>();
        var driver = new FakeDriver(TimeSpan.Zero, openFails: endpoint => endpoint.Name == "AspNetHttpJson");
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([driver]), events.Add);

        var run = await executor.RunAsync(Scenario(), Endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Equal(1, run.CompletedLevels);
        Assert.StartsWith("1 of 2 cells failed (1 of 2 levels done): AspNetHttpJson × dotnet × Int failed", run.Error, StringComparison.Ordinal);
        Assert.Contains(events, e => e.Event == "cell-failed" && e.Variant == "AspNetHttpJson");
        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        Assert.Equal("AspNetH2BinXml", level.Variant);
        Assert.Equal(5, level.Requests);
    }

    [Fact]
    public async Task RunAsync_EveryRequestFaults_StoresTheLevelWithItsErrorsAndNoResponseTime()
    {
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new FakeDriver(TimeSpan.Zero, outcome: SampleOutcome.Fault)]), _ => { });

        var run = await executor.RunAsync(Scenario() with { Variants = ["AspNetHttpJson"] }, Endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Completed, run.Status);
        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        Assert.Equal(5, level.Errors);
        Assert.Equal(5, level.FaultErrors);
        Assert.Equal(0, level.MeanMs);
        using var csv = new StringWriter();
        Dashboard.Data.Export.LevelsCsv.Write(csv, [level], null);
        Assert.Contains("AspNetHttpJson,dotnet,Int,1,5,5,0,,,,,,,,1,", csv.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_RunIdOfAStartedRow_AddsItsLevelsReportsTheRestAndWritesNothingToTheRow()
    {
        // The dashboard owns the row (docs/architecture.md, "One owner per run"): it marked it Running; the runner adds levels
        // and samples and reports its environment, level count and end as events.
        var started = await QueueRowAsync(RunStatus.Running);
        var events = new List<ProgressEvent>();
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.Zero), events.Add);

        var run = await executor.RunAsync(Scenario(), Endpoints, CancellationToken.None, started);

        Assert.Equal(started, run.Id);
        Assert.Equal(RunStatus.Completed, run.Status);
        using var db = ResultsDatabase.Open(DatabasePath);
        Assert.Equal(1, await db.Runs.CountAsync());
        Assert.Equal(2, await db.Levels.CountAsync(l => l.RunId == started));
        var stored = await db.Runs.SingleAsync();
        Assert.Equal(RunStatus.Running, stored.Status);
        Assert.Equal(0, stored.TotalLevels);
        Assert.Null(stored.EnvironmentJson);
        var first = events[0];
        Assert.Equal(ProgressEvents.RunStarted, first.Event);
        Assert.Equal(2, first.TotalLevels);
        Assert.True(first.Environment?.TryGetProperty("runnerProcess", out _), "run-started carries the runner's process");
        Assert.Equal("same-machine", first.Topology);
        Assert.Equal(run.OrderSeed, first.OrderSeed);
        Assert.Equal(new ProgressEvent(ProgressEvents.RunEnded, started, 2, 2) { Status = "Completed" }, events[^1]);
    }

    [Theory]
    [InlineData(RunStatus.Interrupted)]
    [InlineData(RunStatus.Completed)]
    [InlineData(RunStatus.Cancelled)]
    [InlineData(RunStatus.Queued)]
    public async Task RunAsync_RunIdOfARowNotRunning_RefusedNamingRunIdAndNothingStored(RunStatus status)
    {
        var ended = await QueueRowAsync(status);
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.Zero), _ => { });

        var error = await Assert.ThrowsAsync<ScenarioException>(() => executor.RunAsync(Scenario(), Endpoints, CancellationToken.None, ended));

        Assert.Equal("--run-id", error.Field);
        Assert.Contains($"run {ended} is {status}", error.Message, StringComparison.Ordinal);
        using var db = ResultsDatabase.Open(DatabasePath);
        Assert.Equal(0, await db.Levels.CountAsync());
        Assert.Equal(status, (await db.Runs.SingleAsync()).Status);
    }

    [Fact]
    public async Task RunAsync_RunMarkedInterruptedByOthersMidRun_StopsAndStoresNoMoreSamples()
    {
        // A restarted dashboard marks the run Interrupted while this runner is in its second level: that level and the
        // rest are never stored, and the status stays the dashboard's.
        var queued = await QueueRowAsync(RunStatus.Running);
        var scenario = Scenario() with { Variants = ["AspNetHttpJson"], Levels = [1, 2, 3], RequestsPerClient = 200 };
        long samplesWhenMarked = -1;
        var executor = new BenchmarkExecutor(DatabasePath, Registry(TimeSpan.FromMilliseconds(2)), e =>
        {
            if (e is { Event: "level-completed", CompletedLevels: 1 })
            {
                using var other = ResultsDatabase.Open(DatabasePath);
                other.Runs.Where(r => r.Id == queued).ExecuteUpdate(s => s.SetProperty(r => r.Status, RunStatus.Interrupted).SetProperty(r => r.Error, "marked by a restarted dashboard"));
                samplesWhenMarked = other.Samples.LongCount();
            }
        });

        var run = await executor.RunAsync(scenario, Endpoints, CancellationToken.None, queued);

        Assert.Equal(RunStatus.Interrupted, run.Status);
        using var db = ResultsDatabase.Open(DatabasePath);
        Assert.Equal(1, await db.Levels.CountAsync());
        Assert.Equal(samplesWhenMarked, await db.Samples.LongCountAsync());
        var stored = await db.Runs.SingleAsync();
        Assert.Equal(RunStatus.Interrupted, stored.Status);
        Assert.Equal("marked by a restarted dashboard", stored.Error);
    }

    private async Task<int> QueueRowAsync(RunStatus status)
    {
        using var db = ResultsDatabase.Open(DatabasePath);
        var run = new RunEntity { ScenarioName = "queued", ScenarioJson = ScenarioLoader.ToJson(Scenario()), Status = status, CreatedUtc = DateTime.UtcNow };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }

    private static ScenarioDocument Scenario() => new()
    {
        Name = "executor test",
        Host = "http://localhost:5090",
        Variants = ["AspNetHttpJson", "AspNetH2BinXml"],
        Clients = ["dotnet"],
        Payloads = ["Int"],
        Levels = [1],
        RequestsPerClient = 5,
        Warmup = 0,
    };

    private static ClientDriverRegistry Registry(TimeSpan delay) => new([new FakeDriver(delay)]);

    /// <summary>Counts the cells it opens; its clients answer at once.</summary>
    private sealed class CountingDriver : InProcessClientDriver
    {
        private readonly FakeDriver _inner = new(TimeSpan.Zero);

        public int Opened { get; private set; }

        public override string ClientId => "dotnet";

        public override ILoadClientFactory CreateFactory(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security = null)
        {
            Opened++;
            return _inner.CreateFactory(endpoint, payload, security);
        }
    }

    /// <summary>Stands in for the dotnet driver: every call takes <c>delay</c> and succeeds.</summary>
    /// <summary>Answers after <paramref name="delay"/> with <paramref name="outcome"/>; <paramref name="onCall"/> runs after each call returns.</summary>
    private sealed class FakeDriver(TimeSpan delay, Func<HostEndpoint, bool>? openFails = null, SampleOutcome outcome = SampleOutcome.Success, Action? onCall = null) : InProcessClientDriver
    {
        public override string ClientId => "dotnet";

        public override ILoadClientFactory CreateFactory(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security = null) => new Factory(delay, openFails?.Invoke(endpoint) ?? false, outcome, onCall);

        private sealed class Factory(TimeSpan delay, bool openFails, SampleOutcome outcome, Action? onCall) : ILoadClientFactory, ILoadClient
        {
            public ILoadClient CreateClient(int clientIndex) => this;

            public ValueTask OpenAsync(CancellationToken cancellationToken) =>
                openFails ? throw new LoadClientException("net.tcp://localhost:5091/AspNetH2BinXml: connection refused") : ValueTask.CompletedTask;

            public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
            {
                if (delay > TimeSpan.Zero)
                {
                    await Task.Delay(delay, cancellationToken);
                }

                onCall?.Invoke();
                return outcome;
            }

            public ValueTask DisposeAsync() => ValueTask.CompletedTask;
        }
    }
}
