using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Web.Tests.Support;
using Hangfire.States;
using Hangfire.Storage;
using Hangfire.Storage.SQLite;
using Microsoft.Data.Sqlite;

namespace Dashboard.Web.Tests.Runs;

/// <summary>
/// The Hangfire queue through the real dashboard, its real SQLite storage file (beside results.db) and the fake runner:
/// scheduled runs keep their queue time and start at their time, recurring runs fire, pause and go, the queue's jobs
/// survive a restart, a run cancelled while it runs leaves its job Deleted (read with Hangfire's storage API), and
/// /hangfire is served.
/// </summary>
public sealed class HangfireQueueTests : IDisposable
{
    private readonly string _root = WebApp.NewRoot();

    [Fact]
    public async Task Schedule_InAFewSeconds_ScheduledWithItsQueueTimeThenRunsAtItsTime()
    {
        await using var app = await WebApp.StartAsync(_root);
        var due = DateTime.UtcNow.AddSeconds(6);

        using var post = await app.Http.PostAsync($"/api/runs?at={due:O}", new StringContent(WebApp.Scenario("complete"), Encoding.UTF8, "application/json"));
        var id = (await post.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        var scheduled = (await app.FindRunAsync(id))!;
        Assert.Equal(RunStatus.Scheduled, scheduled.Status);
        Assert.InRange(scheduled.CreatedUtc, DateTime.UtcNow.AddSeconds(-30), DateTime.UtcNow);
        Assert.Equal(due, scheduled.ScheduledUtc!.Value, TimeSpan.FromMilliseconds(1));
        Assert.NotNull(scheduled.JobId);
        await app.WaitForStatusAsync(id, "Completed", TimeSpan.FromSeconds(60));
        var run = (await app.FindRunAsync(id))!;
        Assert.True(run.StartedUtc >= due.AddMilliseconds(-50), $"started {run.StartedUtc:O}, due {due:O}");
        Assert.True(File.Exists(Path.Combine(app.DataFolder, "hangfire.db")), "the queue's storage is not beside results.db");
    }

    [Fact]
    public async Task Recurring_EveryFewSeconds_QueuesRunsUntilPausedAndDeleted()
    {
        await using var app = await WebApp.StartAsync(_root);
        var body = $$"""{"cron": "*/3 * * * * *", "scenario": {{WebApp.Scenario("complete")}}}""";

        using var put = await app.Http.PutAsync("/api/recurring/every-3s", new StringContent(body, Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.OK, put.StatusCode);
        Assert.True(await Eventually.HoldsAsync(async () => await CompletedAsync(app) >= 2, TimeSpan.FromSeconds(60)), app.Log);
        using var pause = await app.Http.PostAsync("/api/recurring/every-3s/pause", null);
        Assert.True((await pause.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("paused").GetBoolean());
        await Task.Delay(TimeSpan.FromSeconds(4)); // a trigger that fired just before the pause may still queue one
        var afterPause = await RunCountAsync(app);
        await Task.Delay(TimeSpan.FromSeconds(8));
        Assert.Equal(afterPause, await RunCountAsync(app));

        using var delete = await app.Http.DeleteAsync("/api/recurring/every-3s");
        Assert.Equal(HttpStatusCode.NoContent, delete.StatusCode);
        Assert.Equal("[]", await app.Http.GetStringAsync("/api/recurring"));
    }

    [Fact]
    public async Task Recurring_BadCron_Returns400NamingCron()
    {
        await using var app = await WebApp.StartAsync(_root);
        var body = $$"""{"cron": "every night", "scenario": {{WebApp.Scenario("complete")}}}""";

        using var put = await app.Http.PutAsync("/api/recurring/nightly", new StringContent(body, Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.BadRequest, put.StatusCode);
        Assert.Equal("cron", (await put.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("field").GetString());
    }

    [Fact]
    public async Task Restart_ScheduledAndQueuedJobs_RunAfterTheRestart()
    {
        var app = await WebApp.StartAsync(_root);
        var slow = await app.QueueAsync("slow");
        var queued = await app.QueueAsync("complete");
        using var post = await app.Http.PostAsync($"/api/runs?at={DateTime.UtcNow.AddSeconds(25):O}", new StringContent(WebApp.Scenario("complete"), Encoding.UTF8, "application/json"));
        var scheduled = (await post.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        await app.WaitForStatusAsync(slow, "Running");
        await app.StopAsync();
        await app.DisposeAsync();
        Assert.Equal("Interrupted", (await app.FindRunAsync(slow))!.Status.ToString());
        Assert.Equal(RunStatus.Queued, (await app.FindRunAsync(queued))!.Status);

        await using var restarted = await WebApp.StartAsync(_root);

        await restarted.WaitForStatusAsync(queued, "Completed");
        await restarted.WaitForStatusAsync(scheduled, "Completed", TimeSpan.FromSeconds(90));
        Assert.Equal("Interrupted", await restarted.StatusAsync(slow));
        Assert.Equal(3, FakeRunner.Starts(restarted.RunnerFolder).Length);
    }

    [Fact]
    public async Task Cancel_RunningRun_ItsJobEndsDeletedWithTheReasonNotSucceeded()
    {
        await using var app = await WebApp.StartAsync(_root);
        var cancelled = await app.QueueAsync("slow");
        await app.WaitForStatusAsync(cancelled, "Running");
        Assert.True(await Eventually.HoldsAsync(async () => (await app.FindRunAsync(cancelled))?.CompletedLevels == 1), app.Log);
        using (var response = await app.Http.DeleteAsync($"/api/runs/{cancelled}"))
        {
            Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        }

        await app.WaitForStatusAsync(cancelled, "Cancelled");
        var completed = await app.QueueAsync("complete");
        await app.WaitForStatusAsync(completed, "Completed");
        // A clean stop: Hangfire's worker has settled both jobs' states before the process exits.
        await app.StopAsync();

        var cancelledJob = JobState(app, (await app.FindRunAsync(cancelled))!.JobId!);
        Assert.Equal(DeletedState.StateName, cancelledJob.Name);
        Assert.StartsWith($"run {cancelled} cancelled while it ran: ", cancelledJob.Reason, StringComparison.Ordinal);
        // The same storage read says Succeeded for a run that completed: only the cancelled one is Deleted.
        Assert.Equal(SucceededState.StateName, JobState(app, (await app.FindRunAsync(completed))!.JobId!).Name);
    }

    [Fact]
    public async Task HangfireDashboard_LocalRequest_Served()
    {
        await using var app = await WebApp.StartAsync(_root);

        using var response = await app.Http.GetAsync("/hangfire");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("Hangfire", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    private static async Task<int> CompletedAsync(WebApp app)
    {
        var runs = await app.Http.GetFromJsonAsync<JsonElement[]>("/api/runs");
        return runs!.Count(r => r.GetProperty("status").GetString() == "Completed");
    }

    // The job's current state as Hangfire's own storage API reads it from the dashboard's queue file.
    private static StateData JobState(WebApp app, string jobId)
    {
        var storage = new SQLiteStorage(Path.Combine(app.DataFolder, "hangfire.db"), new SQLiteStorageOptions());
        try
        {
            using var connection = storage.GetConnection();
            return connection.GetStateData(jobId) ?? throw new InvalidOperationException($"job {jobId} has no state");
        }
        finally
        {
            (storage as IDisposable)?.Dispose();
        }
    }

    private static async Task<int> RunCountAsync(WebApp app) => (await app.Http.GetFromJsonAsync<JsonElement[]>("/api/runs"))!.Length;

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        WebApp.DeleteRoot(_root);
    }
}
