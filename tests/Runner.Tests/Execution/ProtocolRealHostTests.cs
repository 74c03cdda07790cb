using System.Diagnostics;
using Dashboard.Data;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// The measurement protocol of issue #32 against a real service host and the built runner (docs/statistics.md, "The
/// protocol" and "Launches"): measured windows of seconds after a warm-up to steady state, two launches, the host's
/// process recorded per level, and a run time the plan's estimate (<see cref="DurationEstimator"/>) foresaw within ±25 %.
/// </summary>
public sealed class ProtocolRealHostTests(Xunit.Abstractions.ITestOutputHelper output) : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("protocol-tests-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task Run_TwoLaunchesOfTimedLevels_WindowsLaunchesHostProcessAndAnEstimateThatHoldsTheRun()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var scenarioPath = Path.Combine(_directory, "protocol.json");
        await File.WriteAllTextAsync(scenarioPath, $$"""
            {"name": "protocol test", "host": "{{host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": [1, 4], "duration": "00:00:01", "warmup": 5, "repetitions": 1, "launches": 2,
             "steadyState": { "windows": 3, "maxCov": 0.05, "window": "00:00:00.3", "maxWarmup": "00:00:02" } }
            """);
        var estimate = DurationEstimator.Default.Estimate(ScenarioLoader.Load(scenarioPath));
        var database = Path.Combine(_directory, "results.db");

        using var runner = RunnerProcess.Start(scenarioPath, database, _directory);
        Assert.True(await runner.WaitForLineAsync("run-started", timeout: TimeSpan.FromSeconds(60)), runner.Stderr);
        var watch = Stopwatch.StartNew();
        Assert.Equal(0, await runner.WaitForExitAsync());
        // The levels' part of the run: from run-started to the runner's exit (its start-up, JIT and migrations before are
        // what RunStartSeconds stands for, and on a shared machine they take several times as long).
        var actual = watch.Elapsed.TotalSeconds;
        // This host is not restarted between launches (started without ServiceHost:RestartOnRequest: it answers 409), so the
        // plan's host restart is not part of this run.
        var notHere = DurationEstimator.RunStartSeconds + DurationEstimator.HostRestartSeconds(["AspNetHttpJson"]);
        var planned = estimate.Duration.TotalSeconds - notHere;
        var (low, high) = (estimate.Low!.Value.TotalSeconds - notHere, estimate.High!.Value.TotalSeconds - notHere);
        Assert.Contains("launch 2 of 2: fresh clients; the service host is shared with the launch before (POST /restart answered 409", runner.Stderr, StringComparison.Ordinal);

        using var db = ResultsDatabase.Open(database);
        var levels = db.Levels.OrderBy(l => l.Repetition).ThenBy(l => l.Clients).ToList();
        Assert.Equal([1, 1, 2, 2], levels.Select(l => l.Launch));
        Assert.All(levels, l => Assert.Equal(host.ProcessId, l.HostProcessId));
        // A measured window of about the level's second (the first request starts at its start, the last ends after it).
        Assert.All(levels, l => Assert.InRange(l.WindowSeconds!.Value, 0.9, 1.6));
        Assert.All(levels, l => Assert.NotNull(l.SteadyStateReached));
        Assert.All(levels, l => Assert.InRange(l.SteadyStateWarmupSeconds!.Value, 0.8, 2.8));
        var load = double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
        var said = $"estimate {planned:0.0} s ({low:0.0}–{high:0.0}) after start-up, actual {actual:0.0} s, load average {load}";
        output.WriteLine(said);
        // No run is faster than its plan with every warm-up at its shortest (its windows and first warm-up windows are timed).
        Assert.True(actual >= 0.75 * low, said);
        if (load < 1.5)
        {
            // On a quiet machine (the rule for measuring here) the central estimate is within ±25 % of the run (issue #32).
            // On a busy one (another build: load 20–30 on 2 cores) every step takes several times as long, and the
            // timing is only reported.
            Assert.True(Math.Abs(actual - planned) <= 0.25 * planned, said);
        }
    }
}
