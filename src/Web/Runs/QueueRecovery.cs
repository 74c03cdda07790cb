using Dashboard.Data.Entities;
using Dashboard.Data.Runs;
using Dashboard.Web.Processes;

namespace Dashboard.Web.Runs;

/// <summary>
/// At start-up, before the queue's workers start: finds what a previous dashboard left. A runner still alive for a run
/// left Running (recorded pid and start time, so a process that got the id since is never signalled) is ended (SIGTERM,
/// then SIGKILL); every run left Running is marked Interrupted with the reason and its queue job failed (no retry: only a
/// user re-queues); waiting runs without a queue job get one. Each step is logged.
/// </summary>
public sealed class QueueRecovery(RunStore store, RunJobs runJobs, RunEvents events, ILogger<QueueRecovery> logger) : IHostedService
{
    /// <summary>The error of a run the dashboard was running when it stopped, after <paramref name="done"/> of <paramref name="total"/> levels.</summary>
    public static string InterruptedReason(int done, int total) =>
        $"the dashboard stopped while this run was running (restart or crash) after {done} of {total} levels; its runner stopped with it (the end of its standard input); the levels stored before are kept with their samples (re-queue it to run again)";

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        foreach (var (runId, runner) in await store.RunnersOfLeftRunningAsync(cancellationToken))
        {
            if (!runner.IsAlive())
            {
                continue;
            }

            logger.LogWarning("Run {RunId}: its runner (process {Pid}) outlived the previous dashboard; ending it", runId, runner.Pid);
            await PosixProcess.EndAsync(runner, TimeSpan.FromSeconds(10), cancellationToken);
            logger.LogWarning("Run {RunId}: runner {Pid} ended", runId, runner.Pid);
        }

        foreach (var run in await store.InterruptLeftRunningAsync(InterruptedReason, cancellationToken))
        {
            events.Publish(new RunUpdate(run.Id, RunStatus.Interrupted));
            logger.LogWarning("Run {RunId} was left running by a previous dashboard: marked {Status}", run.Id, run.Status);
        }

        foreach (var runId in await runJobs.FailProcessingJobsAsync(cancellationToken))
        {
            logger.LogWarning("Run {RunId}: its queue job was still processing in a previous dashboard; marked failed (no retry)", runId);
        }

        await runJobs.SubmitOrphanedAsync(cancellationToken);
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
