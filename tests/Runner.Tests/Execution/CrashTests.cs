using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Runner.Tests.Support;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// Crash cases with real processes (issue 14, part 3; issue 24, partial levels): the runner SIGKILLed mid-level, a
/// driver process (java, node; found in the runner's process tree) SIGKILLed mid-level, the JVM service SIGKILLed
/// mid-run. Each ends with the run marked with the reason, every level stored before the fault whole (its sample rows
/// counted against what the driver sent), the level a driver died in stored as partial with the samples it streamed,
/// and the next run working.
/// </summary>
public sealed class CrashTests : IDisposable
{
    private const int Warmup = 5;
    private readonly string _directory = Directory.CreateTempSubdirectory("crash-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task Run_RunnerKilledDuringALevel_NextRunnerMarksItInterruptedAndTheStoredLevelIsWhole()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        int killedPid;
        using (var runner = RunnerProcess.Start(WriteScenario("killed.json", host, "AspNetHttpJson", "\"dotnet\"", "[1, 20]", 4000), DatabasePath, _directory))
        {
            Assert.True(await runner.WaitForLineAsync("level-completed"), runner.Stderr);
            // Well into the 20-client level (80,000 requests).
            await Task.Delay(1000);
            killedPid = runner.ProcessId;
            ServiceHostProcess.Signal(killedPid, 9);
            Assert.Equal(137, await runner.WaitForExitAsync());
        }

        using (var db = ResultsDatabase.Open(DatabasePath))
        {
            Assert.Equal(RunStatus.Running, db.Runs.Single().Status);
        }

        using var next = RunnerProcess.Start(WriteScenario("next.json", host, "AspNetHttpJson", "\"dotnet\"", "[2]", 50), DatabasePath, _directory);
        Assert.Equal(0, await next.WaitForExitAsync());

        Assert.Contains("note: run 1 was left Running by a runner that no longer runs; marked Interrupted", next.Stderr, StringComparison.Ordinal);
        using var check = ResultsDatabase.Open(DatabasePath);
        var killed = check.Runs.Single(r => r.Id == 1);
        Assert.Equal(RunStatus.Interrupted, killed.Status);
        Assert.Equal(
            $"the runner (process {killedPid}) ended without finishing the run (killed or crashed) after 1 of 2 levels; it was at AspNetHttpJson × dotnet × Int, repetition 1, 20 clients; the levels stored before are kept with their samples",
            killed.Error);
        Assert.Equal(1, killed.CompletedLevels);
        // The one level stored before the kill holds exactly what the dotnet driver sent: 1 client × (5 warm-up + 4,000).
        var level = check.Levels.Single(l => l.RunId == 1);
        Assert.Equal(4000, level.Requests);
        Assert.Equal(4000, check.Samples.Count(s => s.LevelId == level.Id && !s.IsWarmup));
        Assert.Equal(Warmup, check.Samples.Count(s => s.LevelId == level.Id && s.IsWarmup));
        var second = check.Runs.Single(r => r.Id == 2);
        Assert.Equal(RunStatus.Completed, second.Status);
        var secondLevels = check.Levels.Where(l => l.RunId == 2).Select(l => l.Id).ToList();
        Assert.Equal(2 * (50 + Warmup), check.Samples.Count(s => secondLevels.Contains(s.LevelId)));
    }

    [Fact]
    public async Task Run_JavaDriverKilledDuringALevel_LevelIsPartialWithTheSamplesItStreamedAndTheRunSaysHowFarItGot()
    {
        // The real java driver on AspNetGrpc (no JVM service needed), a 30 s level; killed once it has streamed samples.
        await using var host = await ServiceHostProcess.StartAsync();
        var scenario = WriteScenario("java.json", host, "AspNetGrpc", "\"java\"", "[2]", null, "\"duration\": \"00:00:30\"");
        using var runner = RunnerProcess.Start(scenario, DatabasePath, _directory, runnerDirectory: RepositoryPaths.RunnerOutput);
        Assert.True(await runner.WaitForLineAsync("level-progress", count: 2, timeout: TimeSpan.FromSeconds(90)), runner.Stderr);
        var java = Assert.Single(ProcTree.Children(runner.ProcessId, "java"));

        ServiceHostProcess.Signal(java, 9);

        Assert.Equal(1, await runner.WaitForExitAsync());
        using var db = ResultsDatabase.Open(DatabasePath);
        var level = db.Levels.Single();
        Assert.False(level.Complete);
        Assert.Matches(@"^the java client failed after \d+\.\d s of a 30 s level \(warm-up included\): the java driver ended its output( in the middle of a record)? \(exit code 137: killed by signal 9, SIGKILL\)", level.PartialReason);
        // Streamed once a second: at least the two seconds the progress events saw are stored, every sample with its row.
        Assert.True(level.Requests > 0, $"{level.Requests} requests");
        Assert.Equal(level.Requests, db.Samples.Count(s => s.LevelId == level.Id && !s.IsWarmup));
        Assert.True(level.EndedUtc - level.StartedUtc < TimeSpan.FromSeconds(30), $"{level.StartedUtc:O}..{level.EndedUtc:O}");
        var run = db.Runs.Single();
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("1 of 1 cells failed (0 of 1 levels done): AspNetGrpc × java × Int failed during AspNetGrpc × java × Int, repetition 1, 2 clients: the java driver ended its output", run.Error, StringComparison.Ordinal);
        Assert.Contains($"; the {level.Requests + (2 * Warmup)} samples it handed over before are stored as a partial level", run.Error, StringComparison.Ordinal);
        // Left out of the aggregates unless asked for.
        Assert.Empty(Dashboard.Data.Results.LevelAggregation.Aggregate([level]));
        Assert.False(Assert.Single(Dashboard.Data.Results.LevelAggregation.Aggregate([level], includePartial: true)).Complete);
    }

    [Fact]
    public async Task Run_NodeDriverKilledDuringALevel_LevelIsPartialWithWhatItStreamedTheCellFailsAndTheNextCellRuns()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        // The real node driver behind a wrapper that copies every record it writes to stdout into a log: what the driver sent.
        var wrapper = Directory.CreateDirectory(Path.Combine(_directory, "node-driver")).FullName;
        Directory.CreateDirectory(Path.Combine(wrapper, "node_modules"));
        var sent = Path.Combine(_directory, "sent.log");
        var pidFile = Path.Combine(_directory, "driver.pid");
        await File.WriteAllTextAsync(Path.Combine(wrapper, "driver.js"), $$"""
            'use strict';
            const fs = require('node:fs');
            fs.writeFileSync({{Js(pidFile)}}, String(process.pid));
            const sent = fs.openSync({{Js(sent)}}, 'a');
            const write = process.stdout.write.bind(process.stdout);
            process.stdout.write = (chunk, ...rest) => { if (chunk.length > 0) fs.writeSync(sent, chunk); return write(chunk, ...rest); };
            require({{Js(Path.Combine(RepositoryPaths.Root, "src", "Runner", "Drivers", "node", "driver.js"))}});
            """);
        var scenario = WriteScenario("driver.json", host, "AspNetHttpJson", "\"node\", \"dotnet\"", "[1, 10]", 2000);

        using var runner = RunnerProcess.Start(scenario, DatabasePath, _directory, new Dictionary<string, string> { ["DASHBOARD_NODE_DRIVER"] = wrapper });
        // The node cell's first level is over once the driver wrote its 'level' record; the 10-client level (20,050 calls)
        // follows, and its first 'p' record comes after the samples streamed in its first second.
        // Killed only once the runner has that 'p' record too (its level-progress event for 10 node clients): the samples
        // before it in the pipe are then in the runner's hands. Node writes to a pipe asynchronously, so on a busy machine
        // what the log holds may still sit in the driver's buffer and die with it (CI of 735a01e: no partial level stored).
        Assert.True(await Eventually.HoldsAsync(() => File.Exists(sent) && File.ReadAllLines(sent).SkipWhile(l => !l.StartsWith("level ", StringComparison.Ordinal)).Any(l => l.StartsWith("p ", StringComparison.Ordinal))
            && runner.Lines.Any(l => l.Contains("\"level-progress\"", StringComparison.Ordinal) && l.Contains("\"client\":\"node\"", StringComparison.Ordinal) && l.Contains("\"clients\":10", StringComparison.Ordinal)),
            TimeSpan.FromSeconds(90)), runner.Stderr);
        var node = Assert.Single(ProcTree.Children(runner.ProcessId, "node"));
        Assert.Equal(int.Parse(await File.ReadAllTextAsync(pidFile), System.Globalization.CultureInfo.InvariantCulture), node);
        ServiceHostProcess.Signal(node, 9);

        Assert.Equal(1, await runner.WaitForExitAsync());
        Assert.Contains("error: 1 of 2 cells failed", runner.Stderr, StringComparison.Ordinal);
        // "in the middle of a record" when the kill cut a record short.
        Assert.Matches(@"AspNetHttpJson × node × Int failed during AspNetHttpJson × node × Int, repetition 1, 10 clients: the node driver ended its output( in the middle of a record)? \(exit code 137: killed by signal 9, SIGKILL\)", runner.Stderr);
        Assert.Contains(runner.Lines, l => l.Contains("\"cell-failed\"", StringComparison.Ordinal));
        var records = await File.ReadAllLinesAsync(sent);
        var firstLevel = records.TakeWhile(l => !l.StartsWith("level ", StringComparison.Ordinal)).Where(l => l.StartsWith("s ", StringComparison.Ordinal)).ToArray();
        var streamed = records.SkipWhile(l => !l.StartsWith("level ", StringComparison.Ordinal)).Count(l => l.StartsWith("s ", StringComparison.Ordinal));
        Assert.Equal(2000 + Warmup, firstLevel.Length);
        using var db = ResultsDatabase.Open(DatabasePath);
        var nodeLevels = db.Levels.Where(l => l.Client == "node").OrderBy(l => l.Clients).ToList();
        Assert.Equal([1, 10], nodeLevels.Select(l => l.Clients));
        Assert.True(nodeLevels[0].Complete);
        Assert.Equal(firstLevel.Length, db.Samples.Count(s => s.LevelId == nodeLevels[0].Id));
        Assert.Equal(firstLevel.Count(l => l.Split(' ')[5] == "0"), nodeLevels[0].Requests);
        // The killed level: partial, with what the driver streamed before the kill (the log is written just before the
        // pipe, so it may hold a chunk more than the runner got).
        var killed = nodeLevels[1];
        Assert.False(killed.Complete);
        Assert.StartsWith("the node client failed after ", killed.PartialReason, StringComparison.Ordinal);
        var stored = db.Samples.Count(s => s.LevelId == killed.Id);
        Assert.InRange(stored, 1, streamed);
        Assert.Equal(killed.Requests, db.Samples.Count(s => s.LevelId == killed.Id && !s.IsWarmup));
        Assert.Empty(Dashboard.Data.Results.LevelAggregation.Aggregate([killed]));
        var dotnet = db.Levels.Where(l => l.Client == "dotnet").OrderBy(l => l.Clients).ToList();
        Assert.Equal([2000L, 20_000L], dotnet.Select(l => l.Requests));
        Assert.All(dotnet, l => Assert.Equal(0, l.Errors));
        var dotnetIds = dotnet.Select(l => l.Id).ToList();
        Assert.Equal(dotnet.Sum(l => l.Requests + (l.Clients * Warmup)), db.Samples.Count(s => dotnetIds.Contains(s.LevelId)));
        Assert.Equal(RunStatus.Failed, db.Runs.Single().Status);
    }

    [Fact]
    public async Task Run_JvmServiceKilledDuringALevel_ErrorsOrCellFailureRecordedJvmRestartedAndTheNextRunWorks()
    {
        await using var host = await ServiceHostProcess.StartAsync(jvm: true);
        var jvm = Assert.Single(ProcTree.Children(host.ProcessId, "java"));
        var scenario = WriteScenario("jvm.json", host, "MetroSoap11", "\"dotnet\"", "[1, 4, 8]", null, "\"duration\": \"00:00:05\"");

        using (var runner = RunnerProcess.Start(scenario, DatabasePath, _directory))
        {
            Assert.True(await runner.WaitForLineAsync("run-started"), runner.Stderr);
            await Task.Delay(2500);
            ServiceHostProcess.Signal(jvm, 9);
            var exit = await runner.WaitForExitAsync();

            Assert.True(exit is 0 or 1, $"exit {exit}: {runner.Stderr}");
            using var db = ResultsDatabase.Open(DatabasePath);
            var run = db.Runs.Single();
            var levels = db.Levels.OrderBy(l => l.Id).ToList();
            Assert.NotEmpty(levels);
            Assert.True(levels.Sum(l => l.Errors) > 0 || run.Status == RunStatus.Failed, "the kill left no trace");
            Assert.True(run.Status == RunStatus.Completed || run.Error!.Contains("MetroSoap11 × dotnet × Int failed", StringComparison.Ordinal), run.Error);
            Assert.Equal(exit == 0 ? RunStatus.Completed : RunStatus.Failed, run.Status);
            Assert.True(levels[0].ConnectionErrors > 0, $"level 1: {levels[0].Requests} requests, {levels[0].Errors} errors");
            foreach (var level in levels)
            {
                Assert.Equal(level.Requests, db.Samples.Count(s => s.LevelId == level.Id && !s.IsWarmup));
                Assert.Equal(level.Clients * Warmup, db.Samples.Count(s => s.LevelId == level.Id && s.IsWarmup));
            }
        }

        // The host restarts the JVM by itself; the next run against it has no error.
        await host.WaitForEndpointAsync("MetroSoap11", TimeSpan.FromSeconds(120));
        Assert.True(await Eventually.HoldsAsync(() => ProcTree.Children(host.ProcessId, "java").Length == 1, TimeSpan.FromSeconds(60)));
        Assert.NotEqual(jvm, ProcTree.Children(host.ProcessId, "java")[0]);
        using var next = RunnerProcess.Start(WriteScenario("next.json", host, "MetroSoap11", "\"dotnet\"", "[2]", 50), DatabasePath, _directory);
        Assert.Equal(0, await next.WaitForExitAsync());
        using var check = ResultsDatabase.Open(DatabasePath);
        var after = check.Levels.Single(l => l.RunId == 2);
        Assert.Equal((100L, 0L), (after.Requests, after.Errors));
    }

    private string WriteScenario(string file, ServiceHostProcess host, string variant, string clients, string levels, int? requestsPerClient, string? amount = null)
    {
        var path = Path.Combine(_directory, file);
        File.WriteAllText(path, $$"""
            {"name": "crash test", "host": "{{host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["{{variant}}"], "clients": [{{clients}}],
             "payloads": ["Int"], "levels": {{levels}}, {{amount ?? $"\"requestsPerClient\": {requestsPerClient}"}}, "warmup": {{Warmup}}}
            """);
        return path;
    }

    private static string Js(string path) => System.Text.Json.JsonSerializer.Serialize(path);
}
