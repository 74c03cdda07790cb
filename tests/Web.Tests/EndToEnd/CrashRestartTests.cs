using System.Runtime.InteropServices;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// Crash cases through the dashboard with everything real (issue 14, part 3): the runner the queue worker started is
/// SIGKILLed mid-level; the dashboard itself is SIGKILLed mid-run and restarted. Each ends with the run marked with the
/// reason, every level stored before the fault whole (sample rows = what the dotnet driver sent), and the next queued
/// run completing.
/// </summary>
public sealed partial class CrashRestartTests : IAsyncLifetime
{
    private const int RequestsPerClient = 4000;
    private const int Warmup = 5;
    private ServiceHostProcess _host = null!;
    private string _root = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        _host = await ServiceHostProcess.StartAsync();
        _root = WebApp.NewRoot();
        // Its own TMPDIR: the runners of this dashboard take their own machine lock (other assemblies run runners too).
        _tmp = Directory.CreateTempSubdirectory("crash-e2e-tmp-").FullName;
    }

    public async Task DisposeAsync()
    {
        WebApp.DeleteRoot(_root);
        await _host.DisposeAsync();
        Directory.Delete(_tmp, recursive: true);
    }

    [Fact]
    public async Task Queue_RunnerKilledDuringALevel_RunFailsWithTheReasonKeepsItsLevelAndTheNextRunCompletes()
    {
        await using var app = await StartAppAsync();
        var killed = await QueueAsync(app, "runner killed", "[1, 50]", RequestsPerClient);
        var next = await QueueAsync(app, "next", "[1, 2]", 20);
        var runnerPid = await WaitForFirstLevelAsync(app, killed);

        await Task.Delay(1000);
        Assert.Equal(0, Kill(runnerPid, 9));

        await app.WaitForStatusAsync(killed, "Failed");
        var run = (await app.FindRunAsync(killed))!;
        Assert.Equal("the runner was killed by signal 9 (SIGKILL) after 1 of 2 levels; the levels it stored before are kept with their samples", run.Error);
        await AssertWholeLevelsAsync(app, killed, [RequestsPerClient]);
        await app.WaitForStatusAsync(next, "Completed", TimeSpan.FromMinutes(2));
        await AssertWholeLevelsAsync(app, next, [20, 40]);
        // The runners' own rows were merged into the dashboard's: nothing is left Running.
        await using var db = app.OpenDatabase();
        Assert.Equal(2, await db.Runs.CountAsync());
    }

    [Fact]
    public async Task Crash_DashboardKilledDuringARunAndRestarted_RunInterruptedWithItsSamplesAndTheNextRunCompletes()
    {
        int killed, next, runnerPid;
        var app = await StartAppAsync();
        try
        {
            killed = await QueueAsync(app, "dashboard killed", "[1, 50]", RequestsPerClient);
            next = await QueueAsync(app, "next", "[1, 2]", 20);
            runnerPid = await WaitForFirstLevelAsync(app, killed);
            await Task.Delay(1000);
            await app.CrashAsync();
        }
        finally
        {
            await app.DisposeAsync();
        }

        Assert.True(Signals.IsAlive(runnerPid), "the runner outlives a crashed dashboard (its stdout is a broken pipe now)");
        await Task.Delay(1000);
        Assert.True(Signals.IsAlive(runnerPid), "the runner still runs a second later");

        await using var restarted = await StartAppAsync();

        await restarted.WaitForStatusAsync(killed, "Interrupted");
        Assert.False(Signals.IsAlive(runnerPid), "the orphaned runner was stopped");
        var run = (await restarted.FindRunAsync(killed))!;
        Assert.StartsWith("the dashboard stopped while this run was running (restart or crash); the samples measured so far are kept", run.Error, StringComparison.Ordinal);
        // Level 1 whole; the 50-client level stopped by SIGTERM and stored as far as it went (its requests = its sample rows).
        var levels = await AssertWholeLevelsAsync(restarted, killed, null);
        Assert.Equal(RequestsPerClient, levels[0].Requests);
        Assert.Equal(2, levels.Count);
        Assert.InRange(levels[1].Requests, 1, (50 * RequestsPerClient) - 1);
        await restarted.WaitForStatusAsync(next, "Completed", TimeSpan.FromMinutes(2));
        await AssertWholeLevelsAsync(restarted, next, [20, 40]);
        await using var db = restarted.OpenDatabase();
        Assert.Equal(2, await db.Runs.CountAsync());
    }

    private Task<WebApp> StartAppAsync() => WebApp.StartAsync(_root, new Dictionary<string, string> { ["TMPDIR"] = _tmp },
        $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
        "--Dashboard:Runner:BusyRetryDelay=00:00:02");

    private async Task<int> QueueAsync(WebApp app, string name, string levels, int requestsPerClient)
    {
        using var response = await app.PostScenarioAsync($$"""
            {"name": "{{name}}", "host": "{{_host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": {{levels}}, "requestsPerClient": {{requestsPerClient}}, "warmup": {{Warmup}}}
            """);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, body);
        return JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt32();
    }

    /// <summary>Waits until the run's first level is stored and returns its runner's process id (recorded by the dashboard).</summary>
    private static async Task<int> WaitForFirstLevelAsync(WebApp app, int runId)
    {
        RunEntity? run = null;
        Assert.True(await Eventually.HoldsAsync(async () => (run = await app.FindRunAsync(runId))?.CompletedLevels >= 1, TimeSpan.FromMinutes(2)), app.Log);
        Assert.Equal(RunStatus.Running, run!.Status);
        using var environment = JsonDocument.Parse(run.EnvironmentJson!);
        return environment.RootElement.GetProperty("dashboardRunner").GetProperty("runnerPid").GetInt32();
    }

    /// <summary>
    /// Checks each level of the run: measured sample rows = its Requests, warm-up rows = clients × warm-up (what the dotnet
    /// driver sent), and, when given, the Requests of each level in order.
    /// </summary>
    private static async Task<List<LevelEntity>> AssertWholeLevelsAsync(WebApp app, int runId, long[]? requests)
    {
        await using var db = app.OpenDatabase();
        var levels = await db.Levels.Where(l => l.RunId == runId).OrderBy(l => l.Id).ToListAsync();
        if (requests is not null)
        {
            Assert.Equal(requests, levels.Select(l => l.Requests));
        }

        foreach (var level in levels)
        {
            Assert.Equal(level.Requests, await db.Samples.CountAsync(s => s.LevelId == level.Id && !s.IsWarmup));
            Assert.Equal(level.Clients * Warmup, await db.Samples.CountAsync(s => s.LevelId == level.Id && s.IsWarmup));
        }

        return levels;
    }

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int pid, int signal);
}
