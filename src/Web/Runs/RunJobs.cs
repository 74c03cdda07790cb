using Dashboard.Data.Entities;
using Hangfire;
using Hangfire.States;

namespace Dashboard.Web.Runs;

/// <summary>
/// Where a run's row and its Hangfire job meet: the one place that maps Hangfire's job state onto the run
/// (docs/architecture.md, "The queue"). The row is the domain record and the dashboard its owner; the job only makes
/// the worker run it. A waiting run (Queued, Scheduled) has one job (submitted here, its id on the row); a run cancelled
/// while waiting loses its job; at start-up a job still "Processing" (its dashboard died) is failed with its run's outcome
/// and a waiting run without a job gets one. Nothing else calls Hangfire for a run.
/// </summary>
public sealed class RunJobs(RunStore store, IBackgroundJobClient jobs, JobStorage storage, TimeProvider time, ILogger<RunJobs> logger)
{
    /// <summary>
    /// Submits the job of a waiting run: enqueued now, or scheduled for its due time (<see cref="RunEntity.ScheduledUtc"/>
    /// in the future); records the job's id on the run (<see cref="RunEntity.JobId"/>).
    /// </summary>
    public async Task SubmitAsync(RunEntity run, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        var runId = run.Id;
        var jobId = run.ScheduledUtc is { } due && due > time.GetUtcNow().UtcDateTime
            ? jobs.Schedule<BenchmarkJob>(j => j.RunAsync(runId, CancellationToken.None), new DateTimeOffset(DateTime.SpecifyKind(due, DateTimeKind.Utc)))
            : jobs.Enqueue<BenchmarkJob>(j => j.RunAsync(runId, CancellationToken.None));
        run.JobId = jobId;
        await store.SetJobAsync(runId, jobId, cancellationToken);
    }

    /// <summary>Deletes the job of a run cancelled while it waited, if it has one.</summary>
    public void Delete(RunEntity run)
    {
        ArgumentNullException.ThrowIfNull(run);
        if (run.JobId is { } jobId)
        {
            jobs.Delete(jobId);
        }
    }

    /// <summary>
    /// Ends the job of run <paramref name="runId"/> after the worker ran it: a run that ended Cancelled (a user stopped it
    /// while it ran) has its job moved from Processing to Deleted, with the run's reason, as the job of a run cancelled while
    /// it waited is (<see cref="Delete"/>); otherwise Hangfire would list it Succeeded, its method having returned normally.
    /// Hangfire then leaves the job as it is: its worker moves a job to Succeeded only from Processing. Any other run's job
    /// is left to Hangfire (Succeeded). Does nothing for a run without a job id or no longer in the table.
    /// </summary>
    /// <param name="runId">The run the job ran.</param>
    /// <returns>True when the job was moved to Deleted.</returns>
    public async Task<bool> EndCancelledAsync(int runId)
    {
        var run = await store.FindAsync(runId, CancellationToken.None);
        if (run is not { Status: RunStatus.Cancelled, JobId: { } jobId })
        {
            return false;
        }

        var reason = $"run {runId} cancelled while it ran: {run.Error ?? "by a user"}";
        var deleted = jobs.ChangeState(jobId, new DeletedState { Reason = reason }, ProcessingState.StateName);
        logger.LogInformation("Run {RunId}: its queue job {JobId} {Outcome}", runId, jobId, deleted ? "marked Deleted (cancelled)" : "was no longer Processing: left as it is");
        return deleted;
    }

    /// <summary>Gives every waiting run without a job one (rows queued before the job was recorded, or by an older dashboard).</summary>
    public async Task SubmitOrphanedAsync(CancellationToken cancellationToken)
    {
        foreach (var run in await store.WaitingWithoutJobAsync(cancellationToken))
        {
            await SubmitAsync(run, cancellationToken);
            logger.LogInformation("Run {RunId} ({Status}) had no queue job: submitted", run.Id, run.Status);
        }
    }

    /// <summary>Submits the job of a run the worker put back for later (machine busy): it runs at <paramref name="dueUtc"/>.</summary>
    public async Task ResubmitAsync(int runId, DateTime dueUtc)
    {
        var jobId = jobs.Schedule<BenchmarkJob>(j => j.RunAsync(runId, CancellationToken.None), new DateTimeOffset(DateTime.SpecifyKind(dueUtc, DateTimeKind.Utc)));
        await store.SetJobAsync(runId, jobId, CancellationToken.None);
    }

    /// <summary>
    /// At start-up, before the workers start: every benchmark job still "Processing" belongs to a dashboard that died (one
    /// dashboard per queue storage). Each is marked Failed with its run's outcome, so Hangfire never runs it again.
    /// Returns the run ids.
    /// </summary>
    public async Task<IReadOnlyList<int>> FailProcessingJobsAsync(CancellationToken cancellationToken)
    {
        var failed = new List<int>();
        var processing = storage.GetMonitoringApi().ProcessingJobs(0, 1000);
        foreach (var (jobId, job) in processing)
        {
            if (job?.Job?.Method.Name != nameof(BenchmarkJob.RunAsync) || job.Job.Args.Count == 0 || job.Job.Args[0] is not int runId)
            {
                continue;
            }

            var run = await store.FindAsync(runId, cancellationToken);
            var reason = $"the dashboard that ran this job stopped; run {runId} is {run?.Status.ToString() ?? "deleted"}{(run?.Error is { } error ? $": {error}" : "")} (never retried: re-queue it from the Queue page)";
            jobs.ChangeState(jobId, new FailedState(new RunInterruptedException(reason)) { Reason = reason }, ProcessingState.StateName);
            failed.Add(runId);
        }

        return failed;
    }
}

/// <summary>The reason a run's Hangfire job failed: the process that ran it died, and the run was marked Interrupted.</summary>
public sealed class RunInterruptedException : Exception
{
    /// <summary>Creates the error with its reason.</summary>
    public RunInterruptedException(string message)
        : base(message)
    {
    }
}
