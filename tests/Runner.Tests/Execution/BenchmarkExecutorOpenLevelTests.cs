using Dashboard.Data;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Execution;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.RealProcesses;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>An open scenario (<c>workload: "open"</c>) run by the executor on a real host: one stored level per rate, with what the open engine counted.</summary>
[Collection(QuietMachineGroup.Name)]
public sealed class BenchmarkExecutorOpenLevelTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("open-level-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task RunAsync_OpenScenarioTwoRates_StoresALevelPerRateWithItsOpenFigures()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        using var http = host.CreateControlClient();
        var scenario = new ScenarioDocument
        {
            Name = "open level test",
            Host = host.ControlAddress.ToString(),
            Variants = ["AspNetHttpJson"],
            Clients = ["dotnet"],
            Payloads = ["Int"],
            Workload = Workload.Open,
            Rates = [100, 200],
            MaxConnections = 8,
            P99TargetMs = 50,
            Duration = TimeSpan.FromSeconds(1),
            Warmup = 10,
        };
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { }, http) { QuietCheck = TimeSpan.Zero, ShuffleCells = false };

        var run = await executor.RunAsync(ScenarioLoader.Valid(scenario).Document, await host.GetEndpointsAsync(), CancellationToken.None);

        Assert.Null(run.Error);
        using var db = ResultsDatabase.Open(DatabasePath);
        var levels = await db.Levels.OrderBy(l => l.Clients).ToListAsync();
        Assert.Equal([100, 200], levels.Select(l => l.Clients));
        Assert.Equal([100, 200], levels.Select(l => l.TargetRateRps ?? 0));
        Assert.Equal([100L, 200L], levels.Select(l => l.Requests));
        Assert.All(levels, l => Assert.Equal(0, l.DroppedRequests));
        Assert.All(levels, l => Assert.NotNull(l.LateStarts));
        Assert.All(levels, l => Assert.InRange(l.Connections!.Value, 1, 8));
        Assert.All(levels, l => Assert.True(l.ServiceP99Ms <= l.P99Ms + 0.001, $"service p99 {l.ServiceP99Ms}, p99 {l.P99Ms}"));
        Assert.Equal(100 + 10 + 200 + 10, await db.Samples.CountAsync());
    }

    [Fact]
    public async Task RunAsync_OpenScenarioWithSteadyState_WarmsUpAtTheRateFirstAndStoresOnlyTheMeasuredSchedule()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        using var http = host.CreateControlClient();
        var settings = new SteadyStateSettings(3, 0.5, TimeSpan.FromMilliseconds(300), TimeSpan.FromSeconds(4));
        var scenario = new ScenarioDocument
        {
            Name = "open steady-state test",
            Host = host.ControlAddress.ToString(),
            Variants = ["AspNetHttpJson"],
            Clients = ["dotnet"],
            Payloads = ["Int"],
            Workload = Workload.Open,
            Rates = [150],
            MaxConnections = 8,
            Duration = TimeSpan.FromSeconds(1),
            Warmup = 10,
            SteadyState = settings,
        };
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { }, http) { QuietCheck = TimeSpan.Zero, ShuffleCells = false };

        var run = await executor.RunAsync(ScenarioLoader.Valid(scenario).Document, await host.GetEndpointsAsync(), CancellationToken.None);

        Assert.Null(run.Error);
        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        // The warm-up ran at least its 3 windows of 0.3 s (at most 4 s and one window more) and says how it ended.
        Assert.NotNull(level.SteadyStateReached);
        Assert.InRange(level.SteadyStateWarmupSeconds!.Value, 0.85, 5.5);
        // Its windows' samples are not stored: only the level's own schedule (10 warm-up requests and 150 measured).
        Assert.Equal(150, level.Requests);
        Assert.Equal(10 + 150, await db.Samples.CountAsync());
        Assert.Equal(0, level.DroppedRequests);
    }
}
