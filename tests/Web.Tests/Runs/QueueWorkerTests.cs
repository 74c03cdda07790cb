using System.Net;
using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.Runs;

/// <summary>The queue worker through the real dashboard and a fake runner script: one at a time, restart safety, cancel.</summary>
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
    public async Task Start_RunLeftRunningWithRunnerGone_MarkedInterruptedKeepingSamples()
    {
        var database = Path.Combine(_root, "data", "results.db");
        var runnerRow = Seed.Run(database, RunStatus.Running, levels: 2, samplesPerLevel: 50);
        var dashboardRow = Seed.Run(database, RunStatus.Running, levels: 0, samplesPerLevel: 0,
            environmentJson: "{\"dashboardRunner\":{\"runnerRunId\":" + runnerRow.ToString(System.Globalization.CultureInfo.InvariantCulture) + ",\"runnerPid\":999999}}");

        await using var app = await WebApp.StartAsync(_root);

        await app.WaitForStatusAsync(dashboardRow, "Interrupted");
        await using var db = app.OpenDatabase();
        Assert.Equal(2, (await db.GetLevelsAsync(dashboardRow)).Count);
        Assert.Equal(2 * 51, (await db.CountSamplesAsync(dashboardRow)).Total);
        Assert.False(await db.Runs.AnyAsync(r => r.Id == runnerRow));
        using var requeue = await app.Http.DeleteAsync($"/api/runs/{dashboardRow}");
        Assert.Equal(HttpStatusCode.Conflict, requeue.StatusCode);
    }

    [Fact]
    public async Task Run_RunnerReportsItsOwnRow_LevelsMovedToTheDashboardRun()
    {
        var database = Path.Combine(_root, "data", "results.db");
        var runnerRow = Seed.Run(database, RunStatus.Running, levels: 2, samplesPerLevel: 20);
        await using var app = await WebApp.StartAsync(_root, new Dictionary<string, string> { ["FAKE_RUNNER_RUN_ID"] = runnerRow.ToString(System.Globalization.CultureInfo.InvariantCulture) });

        var id = await app.QueueAsync("complete");

        await app.WaitForStatusAsync(id, "Completed");
        await using var db = app.OpenDatabase();
        Assert.Equal(2, (await db.GetLevelsAsync(id)).Count);
        Assert.Equal(2 * 21, (await db.CountSamplesAsync(id)).Total);
        Assert.Equal(20, await db.ResourceSamples.CountAsync(r => r.RunId == id));
        Assert.False(await db.Runs.AnyAsync(r => r.Id == runnerRow));
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
    public async Task Crash_DuringRun_OrphanRunnerStoppedAndRunInterruptedAtRestart()
    {
        var app = await WebApp.StartAsync(_root);
        var id = await app.QueueAsync("slow");
        await app.WaitForStatusAsync(id, "Running");
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(id))?.CompletedLevels == 1), app.Log);
        var runnerPid = int.Parse(FakeRunner.Starts(app.RunnerFolder)[0].Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);

        await app.CrashAsync();
        await app.DisposeAsync();
        Assert.True(Signals.IsAlive(runnerPid), "the fake runner should outlive the crashed dashboard");

        await using var restarted = await WebApp.StartAsync(_root);

        await restarted.WaitForStatusAsync(id, "Interrupted");
        Assert.True(FakeRunner.GotSigint(restarted.RunnerFolder), "the orphaned runner was not stopped");
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
    public async Task Run_MachineBusy_BackInTheQueueForLater()
    {
        await using var app = await WebApp.StartAsync(_root);

        var id = await app.QueueAsync("busy");

        Assert.True(await Eventually.HoldsAsync(() => FakeRunner.Starts(app.RunnerFolder).Length == 1));
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(id))?.ProgressText?.Contains("machine busy", StringComparison.Ordinal) == true), app.Log);
        var run = await app.FindRunAsync(id);
        Assert.Equal(RunStatus.Queued, run!.Status);
        Assert.True(run.CreatedUtc > DateTime.UtcNow.AddMinutes(5));
    }

    public void Dispose() => WebApp.DeleteRoot(_root);
}
