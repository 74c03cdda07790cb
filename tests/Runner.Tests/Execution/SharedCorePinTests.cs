using System.Diagnostics;
using Dashboard.Data;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// Placement <c>"shared-core"</c> (<see cref="SharedCorePin"/>; docs/statistics.md, "Placement: one client on one core"):
/// real processes pinned with <c>taskset</c> and given their own affinity back, and a real run whose 1-client level ran
/// with the host on the runner's core while its 2-client level ran free.
/// </summary>
public sealed class SharedCorePinTests(Xunit.Abstractions.ITestOutputHelper output) : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("shared-core-tests-").FullName;
    private readonly List<Process> _sleepers = [];

    public void Dispose()
    {
        foreach (var sleeper in _sleepers)
        {
            sleeper.Kill();
            sleeper.Dispose();
        }

        Directory.Delete(_directory, recursive: true);
    }

    private static IReadOnlySet<int> CoresOf(int processId) => CpuAffinity.AllowedCores($"/proc/{processId}/status")!;

    private static int Lowest => CpuAffinity.AllowedCores()!.Min();

    private Process Sleeper(string? cores = null)
    {
        var start = cores is null ? new ProcessStartInfo("sleep", "60") : new ProcessStartInfo("taskset", $"-c {cores} sleep 60");
        var process = Process.Start(start)!;
        _sleepers.Add(process);
        return process;
    }

    [Fact]
    public async Task Pin_TwoProcesses_BothOnTheLowestCoreThenEachGetsItsOwnAffinityBack()
    {
        Assert.True(CpuAffinity.AllowedCores()!.Count >= 2, "this test needs a machine of 2 cores or more");
        var free = Sleeper();
        var last = CpuAffinity.AllowedCores()!.Max();
        var pinned = Sleeper(last.ToString(System.Globalization.CultureInfo.InvariantCulture));
        // taskset execs sleep: wait until its affinity is the one asked for.
        Assert.True(await Eventually.HoldsAsync(() => CoresOf(pinned.Id).SetEquals([last]), TimeSpan.FromSeconds(10)));
        var freeBefore = CoresOf(free.Id);

        using (var pin = SharedCorePin.Pin([free.Id, pinned.Id]))
        {
            Assert.Equal(Lowest, pin.Core);
            Assert.Equal([Lowest], CoresOf(free.Id));
            Assert.Equal([Lowest], CoresOf(pinned.Id));
        }

        Assert.Equal(freeBefore, CoresOf(free.Id));
        Assert.Equal([last], CoresOf(pinned.Id));
    }

    [Fact]
    public void Pin_AProcessNotOnThisMachine_RefusedNamingItAndThoseBeforeReleased()
    {
        var free = Sleeper();
        var before = CoresOf(free.Id);

        var error = Assert.Throws<InvalidOperationException>(() => SharedCorePin.Pin([free.Id, int.MaxValue]));

        Assert.Contains($"process {int.MaxValue} is not on this machine", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, CoresOf(free.Id));
    }

    [Fact]
    public async Task Run_SharedCorePlacement_OneClientLevelOnTheRunnersCoreWithTheHostTwoClientLevelFree()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var hostCores = CoresOf(host.ProcessId);
        Assert.True(hostCores.Count >= 2, "this test needs a machine of 2 cores or more");
        var scenarioPath = Path.Combine(_directory, "placement.json");
        await File.WriteAllTextAsync(scenarioPath, $$"""
            {"name": "placement test", "host": "{{host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": [1, 2], "duration": "00:00:02", "warmup": 5, "repetitions": 1, "placement": "shared-core",
             "steadyState": { "windows": 3, "maxCov": 0.05, "window": "00:00:00.3", "maxWarmup": "00:00:01" } }
            """);
        var database = Path.Combine(_directory, "results.db");

        using var runner = RunnerProcess.Start(scenarioPath, database, _directory);
        // What the host's process and the runner's could use, read every 20 ms while the run lasts.
        var seen = new List<(string Host, string Runner)>();
        while (!runner.HasExited())
        {
            var hostNow = CpuAffinity.AllowedCores($"/proc/{host.ProcessId}/status");
            var runnerNow = CpuAffinity.AllowedCores($"/proc/{runner.ProcessId}/status");
            if (hostNow is not null && runnerNow is not null)
            {
                seen.Add((string.Join(",", hostNow), string.Join(",", runnerNow)));
            }

            await Task.Delay(20);
        }

        Assert.Equal(0, await runner.WaitForExitAsync());
        using var db = ResultsDatabase.Open(database);
        var levels = db.Levels.OrderBy(l => l.Clients).ToList();
        output.WriteLine(string.Join("; ", levels.Select(l => $"{l.Clients} clients: shared core {l.SharedCore?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "none"}, {l.ThroughputRps:0} req/s")));
        Assert.Equal([Lowest, (int?)null], levels.Select(l => l.SharedCore));
        var core = Lowest.ToString(System.Globalization.CultureInfo.InvariantCulture);
        // During the 1-client level both were on that one core at once; during the rest both had all their cores.
        Assert.Contains((core, core), seen);
        Assert.Contains((string.Join(",", hostCores), string.Join(",", hostCores)), seen);
        // Every thread of the host got its affinity back (taskset -a), not only its main thread.
        foreach (var task in Directory.GetDirectories($"/proc/{host.ProcessId}/task"))
        {
            Assert.Equal(hostCores, CpuAffinity.AllowedCores(Path.Combine(task, "status")) ?? hostCores);
        }
    }
}
