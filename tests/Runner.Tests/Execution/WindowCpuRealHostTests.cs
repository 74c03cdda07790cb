using System.Collections.Concurrent;
using System.Diagnostics;
using Dashboard.Data;
using Dashboard.Data.Statistics;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.RealProcesses;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// Issue #32 on a real host and real sockets: a 300 ms level's server CPU is the host's CPU over that level's own window
/// (read by the test from <c>/proc</c> every few ms), and a process spinning on a core during a level flags it disturbed
/// and the run's start as busy. These tests measure CPU: they run alone (<see cref="QuietMachineGroup"/>).
/// </summary>
[Collection(QuietMachineGroup.Name)]
public sealed class WindowCpuRealHostTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("window-cpu-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task RunAsync_300MsLevel_ServerCpuIsTheHostsCpuOverThatLevelsOwnWindow()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        using var http = host.CreateControlClient();
        // The test's own reading of the host's CPU, every 5 ms with its wall-clock time, for the whole run.
        var readings = new ConcurrentQueue<(DateTime At, double Cpu)>();
        using var stop = new CancellationTokenSource();
        var sampler = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                if (ProcCounters.Process(host.ProcessId) is { } read)
                {
                    readings.Enqueue((DateTime.UtcNow, read.CpuSeconds));
                }

                await Task.Delay(5, CancellationToken.None);
            }
        });
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { }, http);

        await executor.RunAsync(Scenario(host, TimeSpan.FromMilliseconds(300), levels: [4]), await host.GetEndpointsAsync(), CancellationToken.None);
        // The level ended before the run returned: keep reading until a reading lies 250 ms past that, so that the one
        // "200 ms after the level" below exists however soon the run ended after its level (CI of 4a2c1d4).
        var returned = DateTime.UtcNow;
        Assert.True(await Eventually.HoldsAsync(() => readings.Any(r => r.At >= returned.AddMilliseconds(250))), "the test's CPU sampler stopped reading");
        await stop.CancelAsync();
        await sampler;

        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        var served = await db.Samples.CountAsync(s => s.LevelId == level.Id);
        var measured = $"window {level.CpuWindowSeconds} s, server {level.ServerCpuMicrosPerRequest} µs/req × {served}, {level.ServerCpuPercent} %, reason {level.ServerCpuMissingReason}";
        Assert.Null(level.ServerCpuMissingReason);
        Assert.InRange(level.CpuWindowSeconds!.Value, 0.3, 2.0);
        var windowCpu = level.ServerCpuMicrosPerRequest!.Value * served / 1e6;
        // The host's CPU between the level's release and its end, from the test's readings (the window also holds the
        // clients' connecting, a few ms): one tick of resolution at each end, and the readings' 5 ms spacing.
        var list = readings.ToArray();
        var before = list.Last(r => r.At <= level.StartedUtc.AddMilliseconds(-200)).Cpu;
        var after = list.First(r => r.At >= level.EndedUtc.AddMilliseconds(200)).Cpu;
        var inside = list.Last(r => r.At <= level.StartedUtc).Cpu;
        var insideEnd = list.Last(r => r.At <= level.EndedUtc).Cpu;
        Assert.True(windowCpu <= after - before + 0.03, $"{measured}: {windowCpu} s in the window, {after - before} s around the level");
        Assert.True(windowCpu >= insideEnd - inside - 0.03, $"{measured}: {windowCpu} s in the window, {insideEnd - inside} s inside the level");
        Assert.True(windowCpu > 0, measured);
        var cores = CpuAffinity.AllowedCores()?.Count ?? Environment.ProcessorCount;
        Assert.Equal(100 * windowCpu / (level.CpuWindowSeconds!.Value * cores), level.ServerCpuPercent!.Value, 3);
    }

    [Fact]
    public async Task RunAsync_ProcessSpinningOnACoreDuringTheLevel_LevelDisturbedAndRunStartBusy()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        using var http = host.CreateControlClient();
        using var spinner = Spinner.Start(core: "0");
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { }, http);

        await executor.RunAsync(Scenario(host, TimeSpan.FromSeconds(1), levels: [2]), await host.GetEndpointsAsync(), CancellationToken.None);
        var spun = spinner.CpuSeconds();
        spinner.Dispose();

        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        var run = await db.Runs.SingleAsync();
        var measured = $"others {level.OthersCpuCores} cores, steal {level.StealPercent} %, busy {level.MachineBusyPercent} % over {level.CpuWindowSeconds} s; spinner used {spun} s in all";
        Assert.True(spun > 0.2, measured);
        Assert.True(level.OthersCpuCores > QuietMachine.OthersCoresLimit, measured);
        Assert.True(level.Disturbed, measured);
        var atStart = QuietMachine.FromEnvironmentJson(run.EnvironmentJson);
        Assert.NotNull(atStart);
        Assert.True(atStart.Busy, atStart.Summary);
        Assert.True(atStart.OthersCores > QuietMachine.OthersCoresLimit, atStart.Summary);
    }

    private static ScenarioDocument Scenario(ServiceHostProcess host, TimeSpan duration, int[] levels) => new()
    {
        Name = "window cpu test",
        Host = host.ControlAddress.ToString(),
        Variants = ["AspNetHttpJson"],
        Clients = ["dotnet"],
        Payloads = ["Int"],
        Levels = levels,
        Duration = duration,
        Warmup = 0,
    };

    /// <summary>A shell loop spinning on one core until disposed (killed with its tree), or for 2 minutes at most should the test process die first.</summary>
    private sealed class Spinner : IDisposable
    {
        private readonly Process _process;

        private Spinner(Process process) => _process = process;

        public static Spinner Start(string core) =>
            new(Process.Start(new ProcessStartInfo("taskset", ["-c", core, "timeout", "120", "sh", "-c", "while :; do :; done"]))!);

        /// <summary>CPU used by the spinner's processes so far (taskset execs timeout, whose child is the shell), s.</summary>
        public double CpuSeconds()
        {
            var total = ProcCounters.Process(_process.Id)?.CpuSeconds ?? 0;
            var children = $"/proc/{_process.Id}/task/{_process.Id}/children";
            foreach (var child in (File.Exists(children) ? File.ReadAllText(children) : "").Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                total += ProcCounters.Process(int.Parse(child, System.Globalization.CultureInfo.InvariantCulture))?.CpuSeconds ?? 0;
            }

            return total;
        }

        private bool _disposed;

        public void Dispose()
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit();
            }

            _process.Dispose();
        }
    }
}
