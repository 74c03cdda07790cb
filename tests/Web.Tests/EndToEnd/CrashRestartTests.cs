using System.Runtime.InteropServices;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// Crash cases through the dashboard with everything real: the runner the queue worker started is SIGKILLed mid-level;
/// the dashboard itself is SIGKILLed mid-run (with its own local host and JVM) and restarted. Each ends with the run
/// marked with the reason, every level stored before the fault whole (sample rows = what the dotnet driver sent),
/// nothing left running, no sample added after the mark, and the next queued run completing.
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
        // One row per run: the runner continued the dashboard's rows.
        await using var db = app.OpenDatabase();
        Assert.Equal(2, await db.Runs.CountAsync());
    }

    [Fact]
    public async Task Crash_DashboardKilledDuringARun_NothingLeftWithin10sRunInterruptedSamplesFrozenAndTheQueueGoesOn()
    {
        // The dashboard starts its own local service host (with the JVM service) on a free port: everything it started must go.
        var hostAddress = $"http://127.0.0.1:{FreePort()}";
        int killed, next, runnerPid, hostPid, jvmPid;
        var app = await StartAppWithLocalHostAsync(hostAddress);
        try
        {
            await WaitForHostAsync(hostAddress);
            killed = await QueueAsync(app, "dashboard killed", "[1, 50]", RequestsPerClient, hostAddress);
            next = await QueueAsync(app, "next", "[1, 2]", 20, hostAddress);
            runnerPid = await WaitForFirstLevelAsync(app, killed);
            hostPid = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(app.DataFolder, "local-host.json"))).RootElement.GetProperty("pid").GetInt32();
            jvmPid = ChildrenOf(hostPid).Single(pid => File.ReadAllText($"/proc/{pid}/cmdline").Contains("java", StringComparison.Ordinal));
            await Task.Delay(1000);
            await app.CrashAsync();
        }
        finally
        {
            await app.DisposeAsync();
        }

        var gone = await Eventually.HoldsAsync(() => !Signals.IsAlive(runnerPid) && !Signals.IsAlive(hostPid) && !Signals.IsAlive(jvmPid), TimeSpan.FromSeconds(10));
        Assert.True(gone, $"left after 10 s: runner {Signals.IsAlive(runnerPid)}, host {Signals.IsAlive(hostPid)}, JVM {Signals.IsAlive(jvmPid)}");
        long samples;
        await using (var db = app.OpenDatabase())
        {
            samples = await db.Samples.CountAsync(s => db.Levels.Any(l => l.Id == s.LevelId && l.RunId == killed));
        }

        await using var restarted = await StartAppWithLocalHostAsync(hostAddress);

        await restarted.WaitForStatusAsync(killed, "Interrupted");
        var run = (await restarted.FindRunAsync(killed))!;
        // The dashboard owns the run (docs/architecture.md, "One owner per run"): the runner stopped at the end of its input
        // without writing the row, and the restarted dashboard ended it.
        Assert.StartsWith("the dashboard stopped while this run was running (restart or crash) after 1 of 2 levels", run.Error, StringComparison.Ordinal);
        await restarted.WaitForStatusAsync(next, "Completed", TimeSpan.FromMinutes(3));
        await AssertWholeLevelsAsync(restarted, next, [20, 40]);
        await using var after = restarted.OpenDatabase();
        Assert.Equal(samples, await after.Samples.CountAsync(s => after.Levels.Any(l => l.Id == s.LevelId && l.RunId == killed)));
        Assert.Equal(RequestsPerClient, (await AssertWholeLevelsAsync(restarted, killed, null))[0].Requests);
        Assert.Equal(2, await after.Runs.CountAsync());
    }

    private Task<WebApp> StartAppWithLocalHostAsync(string hostAddress)
    {
        var environment = new Dictionary<string, string>
        {
            ["TMPDIR"] = _tmp,
            ["ServiceHost__SocketDirectory"] = Path.Combine(_tmp, "sockets"),
            // The local host writes to the dashboard's output: without its "Now listening on" lines the test cannot take
            // one of the host's addresses for the dashboard's (a restarted dashboard's host may print first; the
            // dashboard logs its own through the command line below, which its child does not inherit).
            ["Logging__LogLevel__Microsoft.Hosting.Lifetime"] = "Warning",
        };
        foreach (var variant in ServiceHostProcess.VariantsWithPorts)
        {
            environment[$"ServiceHost__Ports__{variant}"] = "0";
        }

        return WebApp.StartAsync(_root, environment,
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:StartLocalHost=true",
            $"--Dashboard:LocalHost:Address={hostAddress}",
            $"--Dashboard:LocalHost:ExecutablePath={ServiceHostProcess.ExecutablePath}",
            $"--Dashboard:LocalHost:DataDirectory={Path.Combine(_tmp, "host-data")}",
            "--Dashboard:Runner:BusyRetryDelay=00:00:02",
            "--Logging:LogLevel:Microsoft.Hosting.Lifetime=Information");
    }

    private static async Task WaitForHostAsync(string hostAddress)
    {
        using var http = new HttpClient();
        Assert.True(await Eventually.HoldsAsync(async () =>
        {
            try
            {
                return (await http.GetAsync($"{hostAddress}/healthz")).StatusCode == System.Net.HttpStatusCode.OK;
            }
            catch (HttpRequestException)
            {
                return false;
            }
        }, TimeSpan.FromMinutes(3)), "the dashboard's local host did not become healthy");
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static int[] ChildrenOf(int pid) =>
        [.. Directory.GetDirectories("/proc").Select(Path.GetFileName).Where(n => n!.All(char.IsAsciiDigit)).Select(n => int.Parse(n!, System.Globalization.CultureInfo.InvariantCulture))
            .Where(child =>
            {
                try
                {
                    var stat = File.ReadAllText($"/proc/{child}/stat");
                    return int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture) == pid;
                }
                catch (IOException)
                {
                    return false;
                }
            })];

    private Task<WebApp> StartAppAsync() => WebApp.StartAsync(_root, new Dictionary<string, string> { ["TMPDIR"] = _tmp },
        $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
        "--Dashboard:Runner:BusyRetryDelay=00:00:02",
        // Runs may only target registered hosts (docs/security.md): this test's host is the dashboard's local one.
        $"--Dashboard:LocalHost:Address={_host.ControlAddress.ToString().TrimEnd('/')}");

    private async Task<int> QueueAsync(WebApp app, string name, string levels, int requestsPerClient, string? host = null)
    {
        using var response = await app.PostScenarioAsync($$"""
            {"name": "{{name}}", "host": "{{host ?? _host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
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
        return environment.RootElement.GetProperty("runnerProcess").GetProperty("pid").GetInt32();
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
