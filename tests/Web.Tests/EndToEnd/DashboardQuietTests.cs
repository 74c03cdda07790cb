using Dashboard.Data.Entities;
using Dashboard.Data.Statistics;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// The dashboard must not disturb the runs it starts (bench/README.md, "The dashboard's own CPU while a run goes"): to the
/// runner's disturbed check it is one of the others on the machine. Everything real: the built dashboard queues one level
/// of 10 s, its built runner loads the real service host, and this test reads the dashboard process's CPU (user + system of
/// all its threads, <c>/proc/PID/stat</c>) every 100 ms from outside. Over the level's measured window the dashboard must
/// use less than the disturbed limit (<see cref="QuietMachine.OthersCoresLimit"/>, 0.10 of a core): alone it must never
/// flag a level. Nothing asks the dashboard anything while the run goes (the run's status is read from the database file),
/// so what is counted is its own background work: the queue, the runner's progress lines, host health. A count of CPU
/// seconds, which a loaded machine distorts far less than a timing.
/// </summary>
public sealed class DashboardQuietTests : IAsyncLifetime
{
    private ServiceHostProcess _host = null!;
    private WebApp _app = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        _host = await ServiceHostProcess.StartAsync();
        // Its own TMPDIR, so its own machine lock: other test assemblies run real runners at the same time.
        _tmp = Directory.CreateTempSubdirectory("quiet-tmp-").FullName;
        _app = await WebApp.StartAsync(environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp }, extraArguments:
        [
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:Runner:BusyRetryDelay=00:00:02",
            $"--Dashboard:LocalHost:Address={_host.ControlAddress.ToString().TrimEnd('/')}",
        ]);
    }

    public async Task DisposeAsync()
    {
        var root = _app.Root;
        await _app.DisposeAsync();
        WebApp.DeleteRoot(root);
        await _host.DisposeAsync();
        Directory.Delete(_tmp, recursive: true);
    }

    [Fact]
    public async Task Run_RealTenSecondLevel_DashboardUnderTheDisturbedLimitInTheWindow()
    {
        var scenario = $$"""
            {"name": "a quiet dashboard", "host": "{{_host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"],
             "clients": ["dotnet"], "payloads": ["Int"], "levels": [1], "duration": "00:00:10", "warmup": 100, "steadyState": "off"}
            """;
        using var sampling = new CancellationTokenSource();
        var readings = new List<(DateTime At, double CpuSeconds)>();
        var sampler = Task.Run(async () =>
        {
            while (!sampling.IsCancellationRequested)
            {
                if (ProcCounters.Process(_app.ProcessId) is { } process)
                {
                    lock (readings)
                    {
                        readings.Add((DateTime.UtcNow, process.CpuSeconds));
                    }
                }

                await Task.Delay(100, CancellationToken.None);
            }
        });

        var id = await QueueAsync(scenario);
        var ended = await Eventually.HoldsAsync(
            async () => (await _app.FindRunAsync(id))?.Status is RunStatus.Completed or RunStatus.Failed or RunStatus.Cancelled or RunStatus.Interrupted,
            TimeSpan.FromMinutes(3));
        await sampling.CancelAsync();
        await sampler;

        var run = await _app.FindRunAsync(id);
        Assert.True(ended && run!.Status == RunStatus.Completed, $"run {id} is {run?.Status}: {run?.Error}\n{_app.Log}");
        await using var db = _app.OpenDatabase();
        var level = await db.Levels.AsNoTracking().SingleAsync(l => l.RunId == id);
        Assert.NotNull(level.WindowSeconds);
        Assert.InRange(level.WindowSeconds.Value, 8, 30);
        // The measured window is the level's last WindowSeconds (its warm-up came first).
        var windowEnd = DateTime.SpecifyKind(level.EndedUtc, DateTimeKind.Utc);
        var windowStart = windowEnd - TimeSpan.FromSeconds(level.WindowSeconds.Value);
        var inside = readings.Where(r => r.At >= windowStart && r.At <= windowEnd).ToList();
        Assert.True(inside.Count >= 20, $"{inside.Count} readings of the dashboard's CPU in the window {windowStart:O} … {windowEnd:O}");
        var seconds = (inside[^1].At - inside[0].At).TotalSeconds;
        var cores = (inside[^1].CpuSeconds - inside[0].CpuSeconds) / seconds;
        Assert.True(cores < QuietMachine.OthersCoresLimit,
            $"the dashboard used {cores:0.000} of a core over {seconds:0.0} s of the level's window (limit {QuietMachine.OthersCoresLimit}); " +
            $"the level's others' CPU: {level.OthersCpuCores?.ToString("0.000", System.Globalization.CultureInfo.InvariantCulture) ?? "not measured"} cores");
    }

    private async Task<int> QueueAsync(string scenario)
    {
        using var response = await _app.PostScenarioAsync(scenario);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, body);
        return System.Text.Json.JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt32();
    }
}
