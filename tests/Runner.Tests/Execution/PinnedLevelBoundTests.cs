using System.Diagnostics;
using System.Globalization;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Tests.RealProcesses;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// What bound a level, with the real runner and host pinned to cores by <c>taskset</c> (issue #24; docs/statistics.md,
/// "What bound each level"): a generator on a saturated core of its own is generator-bound, one sharing its core with
/// the host machine-bound, and the server's CPU is a share of the one core it was pinned to after it started.
/// These tests measure CPU: they run alone (<see cref="QuietMachineGroup"/>).
/// </summary>
[Collection(QuietMachineGroup.Name)]
public sealed class PinnedLevelBoundTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("pinned-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task Run_GeneratorOnABusyCoreHostOnTheOther_LevelIsGeneratorBound()
    {
        // Another process spins on the generator's core: the core is saturated whatever the generator's and the server's
        // costs per request on this machine (alone on one core each, either side can be the one that saturates first: the
        // generator at 29k req/s on 2026-11-24, the server at 12k req/s on 2026-11-26). The generator gets about half
        // of its core, so the server, with a core of its own, stays below 90 %.
        using var spinner = Spin(core: "0");
        var (level, environment, stdout) = await RunPinnedAsync(generatorCore: "0", hostCore: "1");

        var measured = $"generator's core busy {level.GeneratorCoresBusyPercent} %, generator CPU {level.GeneratorCpuPercent} % of its one core; server {level.ServerCpuPercent} %; {level.Requests} requests, {level.ThroughputRps} req/s; {stdout}";
        Assert.True(level.GeneratorCoresBusyPercent >= 90, measured);
        Assert.True(level.GeneratorCpuPercent < 90, measured);
        Assert.True(level.ServerCpuPercent < 90, measured);
        Assert.Equal(LevelBound.Generator, level.Bound);
        Assert.True(level.GeneratorCpuMicrosPerRequest > 0);
        Assert.Contains("\"generatorCores\":1", environment, StringComparison.Ordinal);
        Assert.Contains("\"topology\":{\"name\":\"same-machine\"", environment, StringComparison.Ordinal);
        // The server's stack versions as the real host reported them (GET /versions), and the in-process clients' libraries.
        using var recorded = System.Text.Json.JsonDocument.Parse(environment);
        var aspnet = recorded.RootElement.GetProperty("serverStacks").GetProperty("aspnet");
        var hostDirectory = Path.GetDirectoryName(ServiceHostProcess.ExecutablePath)!;
        // Kestrel and ASP.NET Core come from the same shared framework (Microsoft.AspNetCore.App 10.x).
        Assert.StartsWith("10.", aspnet.GetProperty("Kestrel").GetString(), StringComparison.Ordinal);
        Assert.Equal(aspnet.GetProperty("ASP.NET Core").GetString(), aspnet.GetProperty("Kestrel").GetString());
        Assert.Equal(FileVersionInfo.GetVersionInfo(Path.Combine(hostDirectory, "Grpc.AspNetCore.Server.dll")).ProductVersion!.Split('+')[0], aspnet.GetProperty("Grpc.AspNetCore").GetString());
        var libraries = recorded.RootElement.GetProperty("clientLibraries");
        Assert.Equal(FileVersionInfo.GetVersionInfo(Path.Combine(AppContext.BaseDirectory, "System.ServiceModel.Primitives.dll")).ProductVersion!.Split('+')[0], libraries.GetProperty("wcf").GetProperty("System.ServiceModel.Primitives").GetString());
        Assert.StartsWith("2.", libraries.GetProperty("dotnet").GetProperty("Grpc.Net.Client").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_HostPinnedToOneCoreAfterItStarted_ServerCpuIsAShareOfThatCore()
    {
        var (level, _, stdout) = await RunPinnedAsync(generatorCore: "0", hostCore: "1");

        // The host was pinned after its runtime started, so Environment.ProcessorCount still says 2 in it; its periodic CPU %
        // must be of the one core it may use. Divided by 2 cores it read 46 % of a core that was 92 % busy (2026-11-26).
        // The yardstick is the host's own CPU time over the level's window (its /proc counters at the window's two ends,
        // GET /cpu) per second, as % of one core: what other work shares that core (kernel, another process) changes
        // neither side, where the core's busy share it was compared with before counts that work too (CI of 735a01e: 0.57).
        using var db = ResultsDatabase.Open(DatabasePath);
        var loaded = await db.ResourceSamples.Where(r => r.MachineCpuPercent >= 50).ToListAsync();
        Assert.True(loaded.Count >= 3, $"{loaded.Count} readings with the host's core at least half busy; {stdout}");
        var samples = await db.Samples.CountAsync(s => s.LevelId == level.Id);
        var exactPercent = 100 * level.ServerCpuMicrosPerRequest!.Value * samples / 1e6 / level.CpuWindowSeconds!.Value;
        var periodic = loaded.Average(r => r.ProcessCpuPercent);
        var ratio = periodic / exactPercent;
        Assert.True(ratio is >= 0.75 and <= 1.3, $"periodic host CPU {periodic:0} % ÷ its window's exact {exactPercent:0} % of one core = {ratio:0.00} over {loaded.Count} readings: {string.Join("; ", loaded.Select(r => $"{r.ProcessCpuPercent:0} of {r.MachineCpuPercent:0}"))}");
    }

    [Fact]
    public async Task Run_GeneratorAndHostPinnedToTheSameCore_LevelIsMachineBoundNotGeneratorBound()
    {
        var (level, _, stdout) = await RunPinnedAsync(generatorCore: "0", hostCore: "0");

        // The one core both use is saturated, and neither had it alone: before 2026-11-25 this was called generator-bound,
        // blaming the generator for the server's own CPU use (docs/statistics.md, "What bound each level").
        Assert.True(level.GeneratorCoresBusyPercent >= 90, $"core busy {level.GeneratorCoresBusyPercent} %; {stdout}");
        Assert.True(level.GeneratorCpuPercent < 90, $"generator CPU {level.GeneratorCpuPercent} % of the shared core");
        Assert.True(level.ServerCpuPercent < 90, $"server CPU {level.ServerCpuPercent} % of the shared core");
        Assert.Equal(LevelBound.Machine, level.Bound);
    }

    /// <summary>Runs AspNetHttpJson × dotnet × Int × 20 clients for 4 s with the real runner under <c>taskset -c generatorCore</c> against a host pinned to <paramref name="hostCore"/> after it started.</summary>
    private async Task<(LevelEntity Level, string Environment, string Stdout)> RunPinnedAsync(string generatorCore, string hostCore)
    {
        Assert.True(Environment.ProcessorCount >= 2, "needs two cores: one for the generator, one for the host");
        await using var host = await ServiceHostProcess.StartAsync();
        Pin(host.ProcessId, hostCore);
        var scenario = Path.Combine(_directory, "pinned.json");
        await File.WriteAllTextAsync(scenario, $$"""
            {"name": "pinned", "host": "{{host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": [20], "duration": "00:00:04", "warmup": 50}
            """);
        var start = new ProcessStartInfo("taskset") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "-c", generatorCore, Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner"), "run", "--scenario", scenario, "--db", DatabasePath, "--progress", "json" })
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["TMPDIR"] = _directory;
        start.Environment[Dashboard.Service.Contracts.Security.HostControlToken.EnvironmentVariable] = ServiceHostProcess.TestControlToken;
        using var runner = Process.Start(start)!;
        var stdout = runner.StandardOutput.ReadToEndAsync();
        var stderr = runner.StandardError.ReadToEndAsync();
        using (var limit = new CancellationTokenSource(TimeSpan.FromMinutes(2)))
        {
            await runner.WaitForExitAsync(limit.Token);
        }

        Assert.True(runner.ExitCode == 0, await stderr + await stdout);
        using var db = ResultsDatabase.Open(DatabasePath);
        return (await db.Levels.SingleAsync(), (await db.Runs.SingleAsync()).EnvironmentJson!, await stdout);
    }

    private static void Pin(int pid, string cpus)
    {
        using var taskset = Process.Start(new ProcessStartInfo("taskset", ["-a", "-p", "-c", cpus, pid.ToString(CultureInfo.InvariantCulture)]) { RedirectStandardOutput = true })!;
        taskset.WaitForExit();
        Assert.Equal(0, taskset.ExitCode);
    }

    /// <summary>A shell loop spinning on <paramref name="core"/> until disposed (killed), or for 2 minutes at most should this process die first.</summary>
    private static Spinner Spin(string core)
    {
        var process = Process.Start(new ProcessStartInfo("taskset", ["-c", core, "timeout", "120", "sh", "-c", "while :; do :; done"]))!;
        return new Spinner(process);
    }

    private sealed class Spinner(Process process) : IDisposable
    {
        public void Dispose()
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            process.Dispose();
        }
    }
}

/// <summary>Tests that measure CPU and need the machine to themselves: xunit runs this collection after all others, alone.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class QuietMachineGroup
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Quiet machine";
}
