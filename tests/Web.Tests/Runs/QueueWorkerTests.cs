using System.Net;
using Dashboard.Data.Entities;
using System.Text.Json;
using Dashboard.Data.Queries;
using Dashboard.Data.Runs;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.Runs;

/// <summary>The queue worker through the real dashboard (Hangfire on a real SQLite file) and a fake runner script: one row per run, one at a time, restart safety, cancel.</summary>
public sealed class QueueWorkerTests : IDisposable
{
    private readonly string _root = WebApp.NewRoot();

    [Fact]
    public async Task Start_QueuedRunFromBeforeRestart_RunsToCompletion()
    {
        var id = Seed.Run(Path.Combine(_root, "data", "results.db"), RunStatus.Queued, levels: 0, samplesPerLevel: 0);

        await using var app = await WebApp.StartAsync(_root);

        await app.WaitForStatusAsync(id, "Completed");
        var starts = FakeRunner.Starts(app.RunnerFolder);
        Assert.Single(starts);
        Assert.Contains(app.DatabasePath, starts[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_QueuedRunForTheLocalHostStillStarting_RunnerStartsOnlyOnceTheHostAnswers()
    {
        // The CI of 2026-11-28: a dashboard restarted with a run waiting started it at once, before its new local host
        // listened, and the run failed "the service host is unreachable". A stand-in local host answers /healthz 3 s after
        // it is started; the queued run's runner must start after that.
        int port;
        using (var probe = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0))
        {
            probe.Start();
            port = ((IPEndPoint)probe.LocalEndpoint).Port;
        }

        var database = Path.Combine(_root, "data", "results.db");
        var id = Seed.Run(database, RunStatus.Queued, levels: 0, samplesPerLevel: 0);
        using (var db = Dashboard.Data.ResultsDatabase.Open(database))
        {
            var run = db.Runs.Single(r => r.Id == id);
            run.ScenarioJson = run.ScenarioJson.Replace("http://127.0.0.1:9", $"http://127.0.0.1:{port}", StringComparison.Ordinal);
            db.SaveChanges();
        }

        var hostFolder = Path.Combine(_root, "host");
        Directory.CreateDirectory(Path.Combine(hostFolder, "www"));
        File.WriteAllText(Path.Combine(hostFolder, "www", "healthz"), "{}");
        var host = Path.Combine(hostFolder, "Dashboard.Service.Host");
        File.WriteAllText(host, $$"""
            #!/usr/bin/env bash
            dir="$(cd "$(dirname "$0")" && pwd)"
            sleep 3
            date +%s.%N > "$dir/serving"
            # Ends when its standard input does (the dashboard's end), as the real host does with StopAtStdinEof.
            ( cat > /dev/null; kill $$ ) < /dev/stdin &
            exec python3 -m http.server {{port}} --bind 127.0.0.1 --directory "$dir/www"

            """.Replace("\r\n", "\n", StringComparison.Ordinal));
        File.SetUnixFileMode(host, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        await using var app = await WebApp.StartAsync(_root, null, "--Dashboard:StartLocalHost=true",
            $"--Dashboard:LocalHost:ExecutablePath={host}", $"--Dashboard:LocalHost:Address=http://127.0.0.1:{port}");

        await app.WaitForStatusAsync(id, "Completed");
        // Without the wait the run completes about a second after the dashboard starts, before the host serves at all.
        var serving = Path.Combine(hostFolder, "serving");
        var runnerStarted = File.GetLastWriteTimeUtc(Path.Combine(app.RunnerFolder, "started.log"));
        Assert.True(File.Exists(serving), $"the run ended (its runner started at {runnerStarted:HH:mm:ss.fff}) before the local host served");
        Assert.True(runnerStarted >= File.GetLastWriteTimeUtc(serving),
            $"the runner started at {runnerStarted:HH:mm:ss.fff}, before the local host served at {File.GetLastWriteTimeUtc(serving):HH:mm:ss.fff}");
        Assert.Contains($"Run {id}: waiting up to", app.Log, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_RunLeftRunningWithRunnerGone_MarkedInterruptedKeepingSamples()
    {
        var database = Path.Combine(_root, "data", "results.db");
        var id = Seed.Run(database, RunStatus.Running, levels: 2, samplesPerLevel: 50,
            environmentJson: "{\"runnerProcess\":{\"pid\":999999,\"startTicks\":1,\"bootId\":\"gone\"}}");

        await using var app = await WebApp.StartAsync(_root);

        await app.WaitForStatusAsync(id, "Interrupted");
        await using var db = app.OpenDatabase();
        Assert.Equal(2, (await db.GetLevelsAsync(id)).Count);
        Assert.Equal(2 * 51, (await db.CountSamplesAsync(id)).Total);
        Assert.Equal(1, await db.Runs.CountAsync());
        using var cancel = await app.Http.DeleteAsync($"/api/runs/{id}");
        Assert.Equal(HttpStatusCode.Conflict, cancel.StatusCode);
    }

    [Fact]
    public async Task Start_RunnerOfARunLeftRunningStillAlive_EndedAndRunInterrupted()
    {
        // A runner a previous dashboard left (it ignores the end of its input): a real process, recorded by pid and start time.
        using var orphan = System.Diagnostics.Process.Start("sleep", "600");
        var identity = ProcessIdentity.Of(orphan.Id)!;
        var id = Seed.Run(Path.Combine(_root, "data", "results.db"), RunStatus.Running, levels: 1, samplesPerLevel: 10,
            environmentJson: JsonSerializer.Serialize(new Dictionary<string, ProcessIdentity> { ["runnerProcess"] = identity }, JsonSerializerOptions.Web));

        await using var app = await WebApp.StartAsync(_root);

        await app.WaitForStatusAsync(id, "Interrupted");
        Assert.True(orphan.WaitForExit(TimeSpan.FromSeconds(15)), "the orphaned runner was not ended");
        Assert.Contains($"runner (process {orphan.Id}) outlived the previous dashboard; ending it", app.Log, StringComparison.Ordinal);
        Assert.Equal(1, (await app.FindRunAsync(id))!.CompletedLevels);
    }

    [Fact]
    public async Task Run_QueuedRuns_OneRowPerRunIdsConsecutiveRunnerContinuesTheRow()
    {
        await using var app = await WebApp.StartAsync(_root);

        var ids = new[] { await app.QueueAsync("complete"), await app.QueueAsync("complete"), await app.QueueAsync("complete") };

        foreach (var id in ids)
        {
            await app.WaitForStatusAsync(id, "Completed");
        }

        Assert.Equal([ids[0], ids[0] + 1, ids[0] + 2], ids);
        await using var db = app.OpenDatabase();
        Assert.Equal(3, await db.Runs.CountAsync());
        var starts = FakeRunner.Starts(app.RunnerFolder);
        Assert.Equal(3, starts.Length);
        Assert.All(ids, id => Assert.Contains(starts, line => line.EndsWith($" {id} 1", StringComparison.Ordinal)));
        Assert.All(await db.Runs.ToListAsync(), run => Assert.Equal((RunStatus.Completed, 2), (run.Status, run.CompletedLevels)));
    }

    [Fact]
    public async Task Stop_DuringRun_RunnerGetsSigintAndRunIsInterrupted()
    {
        var app = await WebApp.StartAsync(_root);
        var id = await app.QueueAsync("slow");
        await app.WaitForStatusAsync(id, "Running");
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(id))?.CompletedLevels == 1), app.Log);

        await app.StopAsync();
        await app.DisposeAsync();

        Assert.True(FakeRunner.GotSigint(app.RunnerFolder), "the runner did not receive SIGINT");
        var run = await app.FindRunAsync(id);
        Assert.Equal(RunStatus.Interrupted, run!.Status);
        Assert.NotNull(run.EndedUtc);

        await using var restarted = await WebApp.StartAsync(_root);
        Assert.Equal("Interrupted", await restarted.StatusAsync(id));
    }

    [Fact]
    public async Task Crash_DuringRun_RunnerEndsWithTheDashboardAndRunInterruptedAtRestart()
    {
        var app = await WebApp.StartAsync(_root);
        var id = await app.QueueAsync("slow");
        var next = await app.QueueAsync("complete");
        await app.WaitForStatusAsync(id, "Running");
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(id))?.CompletedLevels == 1), app.Log);
        var runnerPid = int.Parse(FakeRunner.Starts(app.RunnerFolder)[0].Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);

        await app.CrashAsync();
        await app.DisposeAsync();

        Assert.True(await Eventually.HoldsAsync(() => !Signals.IsAlive(runnerPid), TimeSpan.FromSeconds(10)), "the runner outlived the killed dashboard");
        Assert.True(FakeRunner.SawStdinEnd(app.RunnerFolder), "the runner did not stop at the end of its input");

        await using var restarted = await WebApp.StartAsync(_root);

        await restarted.WaitForStatusAsync(id, "Interrupted");
        await restarted.WaitForStatusAsync(next, "Completed");
        Assert.Contains("the dashboard stopped while this run was running", (await restarted.FindRunAsync(id))!.Error, StringComparison.Ordinal);
        // The interrupted run is never run again by the queue: two starts in all (the slow one, then the next).
        Assert.Equal(2, FakeRunner.Starts(restarted.RunnerFolder).Length);
        Assert.Contains("its queue job was still processing in a previous dashboard; marked failed", restarted.Log, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Cancel_RunningRun_RunnerGetsSigintAndRunIsCancelled()
    {
        await using var app = await WebApp.StartAsync(_root);
        var id = await app.QueueAsync("slow");
        await app.WaitForStatusAsync(id, "Running");
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(id))?.CompletedLevels == 1), app.Log);

        using var response = await app.Http.DeleteAsync($"/api/runs/{id}");

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        await app.WaitForStatusAsync(id, "Cancelled");
        Assert.True(FakeRunner.GotSigint(app.RunnerFolder));
    }

    [Fact]
    public async Task Run_TwoQueued_RunOneAtATimeInOrder()
    {
        await using var app = await WebApp.StartAsync(_root);
        var slow = await app.QueueAsync("slow");
        var next = await app.QueueAsync("complete");
        await app.WaitForStatusAsync(slow, "Running");
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(slow))?.CompletedLevels == 1), app.Log);

        Assert.Equal("Queued", await app.StatusAsync(next));
        using (await app.Http.DeleteAsync($"/api/runs/{slow}"))
        {
        }

        await app.WaitForStatusAsync(next, "Completed");
        Assert.Equal(2, FakeRunner.Starts(app.RunnerFolder).Length);
    }

    [Fact]
    public async Task Run_RunnerRefusesScenario_FailedWithItsReason()
    {
        await using var app = await WebApp.StartAsync(_root);

        var id = await app.QueueAsync("refused");

        await app.WaitForStatusAsync(id, "Failed");
        Assert.Contains("refused the scenario", (await app.FindRunAsync(id))!.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_MachineBusy_ScheduledAgainForLater()
    {
        await using var app = await WebApp.StartAsync(_root);

        var id = await app.QueueAsync("busy");

        Assert.True(await Eventually.HoldsAsync(() => FakeRunner.Starts(app.RunnerFolder).Length == 1));
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(id))?.ProgressText?.Contains("machine busy", StringComparison.Ordinal) == true), app.Log);
        var run = await app.FindRunAsync(id);
        Assert.Equal(RunStatus.Scheduled, run!.Status);
        Assert.True(run.ScheduledUtc > DateTime.UtcNow.AddMinutes(5));
        Assert.True(run.CreatedUtc < DateTime.UtcNow);
    }

    public void Dispose() => WebApp.DeleteRoot(_root);
}
