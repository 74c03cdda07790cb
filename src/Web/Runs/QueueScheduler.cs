using System.Collections.Specialized;
using Dashboard.Data.Entities;
using Dashboard.Web.Storage;
using Quartz;
using Quartz.Impl;
using Quartz.Spi;

namespace Dashboard.Web.Runs;

/// <summary>
/// Hosts the Quartz scheduler that drives the queue (Quartz.Extensions.Hosting does not restore here): one durable
/// job, <see cref="ProcessQueueJob"/>, that never runs twice at once, fired when a run is queued, at each scheduled
/// run's time and when a busy machine should be tried again. At start-up, runs left Running by a previous process
/// are marked Interrupted (their samples kept) and due queued runs start; at shutdown the run in progress is
/// stopped cleanly (SIGINT, the runner exits 130) and marked Interrupted.
/// </summary>
public sealed class QueueScheduler(IServiceProvider services, RunStore store, QueueWorker worker, RunEvents events, ILogger<QueueScheduler> logger)
    : IHostedService, IJobFactory, IDisposable
{
    private static readonly JobKey QueueJob = new("process-queue", "dashboard");
    private readonly CancellationTokenSource _stopping = new();
    private IScheduler? _scheduler;

    /// <summary>Fires when the dashboard stops: the run in progress is interrupted.</summary>
    public CancellationToken Stopping => _stopping.Token;

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        await RecoverAsync(cancellationToken);

        var factory = new StdSchedulerFactory(new NameValueCollection
        {
            ["quartz.scheduler.instanceName"] = "dashboard-queue",
            ["quartz.threadPool.maxConcurrency"] = "2",
        });
        _scheduler = await factory.GetScheduler(cancellationToken);
        _scheduler.JobFactory = this;
        var job = JobBuilder.Create<ProcessQueueJob>().WithIdentity(QueueJob).StoreDurably().Build();
        await _scheduler.AddJob(job, replace: true, cancellationToken);
        await _scheduler.Start(cancellationToken);
        worker.RetryScheduled += due => _ = WakeAtAsync(due, CancellationToken.None);

        foreach (var due in await store.ScheduledTimesAsync(cancellationToken))
        {
            await WakeAtAsync(due, cancellationToken);
        }

        await WakeAtAsync(DateTime.UtcNow, cancellationToken);
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        if (_scheduler is not null)
        {
            await _scheduler.Shutdown(waitForJobsToComplete: true, cancellationToken);
        }
    }

    /// <summary>Makes the queue look for due runs at <paramref name="dueUtc"/> (now if it is past).</summary>
    public async Task WakeAtAsync(DateTime dueUtc, CancellationToken cancellationToken)
    {
        if (_scheduler is null || _scheduler.IsShutdown)
        {
            return;
        }

        var trigger = TriggerBuilder.Create()
            .ForJob(QueueJob)
            .StartAt(dueUtc <= DateTime.UtcNow ? DateTimeOffset.UtcNow : new DateTimeOffset(dueUtc, TimeSpan.Zero))
            .WithSimpleSchedule(s => s.WithMisfireHandlingInstructionFireNow())
            .Build();
        await _scheduler.ScheduleJob(trigger, cancellationToken);
    }

    /// <inheritdoc />
    public void Dispose() => _stopping.Dispose();

    IJob IJobFactory.NewJob(TriggerFiredBundle bundle, IScheduler scheduler) =>
        (IJob)services.GetRequiredService(bundle.JobDetail.JobType);

    void IJobFactory.ReturnJob(IJob job)
    {
    }

    private async Task RecoverAsync(CancellationToken cancellationToken)
    {
        foreach (var (runId, link) in await store.FindLeftRunningAsync(cancellationToken))
        {
            // The start time recorded with the pid tells the runner from a process that got its id since (older rows: by name).
            bool RunnerAlive(int pid) => link.RunnerProcess is { } process ? process.IsAlive() : PosixProcess.IsAlive(pid, "Dashboard.Runner");
            if (link.RunnerPid is { } pid && RunnerAlive(pid))
            {
                logger.LogWarning("Run {RunId}: its runner {Pid} outlived the previous dashboard; stopping it", runId, pid);
                PosixProcess.Interrupt(pid);
                for (var i = 0; i < 100 && RunnerAlive(pid); i++)
                {
                    await Task.Delay(200, cancellationToken);
                }
            }

            // A runner that outlived the dashboard may have ended the run on its own meanwhile: then its outcome stands.
            var runnerRun = link.RunnerRunId is { } runnerRunId ? await store.FindAsync(runnerRunId, cancellationToken) : null;
            var (status, error) = runnerRun?.Status switch
            {
                RunStatus.Completed => (RunStatus.Completed, (string?)null),
                RunStatus.Failed => (RunStatus.Failed, runnerRun.Error),
                _ => (RunStatus.Interrupted,
                    "the dashboard stopped while this run was running (restart or crash); the samples measured so far are kept (re-queue it to run again)"),
            };
            await store.FinishAsync(runId, status, error, cancellationToken);
            events.Publish(new RunUpdate(runId, status));
            logger.LogWarning("Run {RunId} was left running by a previous dashboard: marked {Status}", runId, status);
        }

        // Runs of runners started elsewhere (headless, into this database) that were killed: found by their recorded process.
        foreach (var run in await store.MarkAbandonedAsync(cancellationToken))
        {
            events.Publish(new RunUpdate(run.Id, RunStatus.Interrupted));
            logger.LogWarning("Run {RunId} was left running by a runner that no longer runs: {Error}", run.Id, run.Error);
        }
    }
}

/// <summary>The Quartz job: runs due queued runs, one at a time, until none is due.</summary>
[DisallowConcurrentExecution]
public sealed class ProcessQueueJob(QueueWorker worker, QueueScheduler scheduler, ILogger<ProcessQueueJob> logger) : IJob
{
    /// <inheritdoc />
    public async Task Execute(IJobExecutionContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        try
        {
            await worker.DrainAsync(scheduler.Stopping);
        }
        catch (OperationCanceledException) when (scheduler.Stopping.IsCancellationRequested)
        {
            logger.LogInformation("Queue processing stopped with the dashboard");
        }
    }
}
