using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Options;
using Hangfire;

namespace Dashboard.Web.Runs;

/// <summary>
/// The queue's Hangfire jobs (docs/architecture.md, "The queue"). A run is a job on the <c>benchmarks</c> queue, which one
/// worker serves: one benchmark at a time. A recurring run's trigger is a job on the light queue that only queues a run.
/// Never retried automatically: a half-done benchmark run again would mix two measurements, so a job whose process died
/// leaves its run Interrupted, with the reason, until a user re-queues it.
/// </summary>
[AutomaticRetry(Attempts = 0, OnAttemptsExceeded = AttemptsExceededAction.Fail)]
public sealed class BenchmarkJob(QueueWorker worker, QueueService queue, RunJobs runJobs, ILogger<BenchmarkJob> logger)
{
    /// <summary>
    /// Runs run <paramref name="runId"/> (a row of the Runs table) unless it was cancelled or ended meanwhile; a run a user
    /// cancelled while it ran leaves its job Deleted, not Succeeded (<see cref="RunJobs.EndCancelledAsync"/>).
    /// </summary>
    /// <param name="runId">The run.</param>
    /// <param name="cancellationToken">Hangfire's: fires when the dashboard stops (the run is then Interrupted).</param>
    [Queue(QueueOptions.BenchmarksQueue)]
    [JobDisplayName("run {0}")]
    public async Task RunAsync(int runId, CancellationToken cancellationToken)
    {
        try
        {
            await worker.RunAsync(runId, cancellationToken);
            await runJobs.EndCancelledAsync(runId);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            logger.LogInformation("Run {RunId}: the queue stopped with the dashboard", runId);
        }
    }

    /// <summary>A recurring run fires: queues a new run of its scenario (it waits behind a benchmark in progress).</summary>
    /// <param name="recurringId">The recurring run's id.</param>
    /// <param name="cron">Its cron expression (kept here so a paused one can resume with it).</param>
    /// <param name="scenarioJson">The scenario document it runs.</param>
    [Queue(QueueOptions.TriggersQueue)]
    [JobDisplayName("recurring {0}: queue a run")]
    public async Task QueueRecurringAsync(string recurringId, string cron, string scenarioJson)
    {
        var run = await queue.EnqueueAsync(ScenarioLoader.ParseValid(scenarioJson), null, CancellationToken.None, $"queued by recurring run '{recurringId}' ({cron})");
        logger.LogInformation("Recurring run {RecurringId} ({Cron}) queued run {RunId}", recurringId, cron, run.Id);
    }
}
