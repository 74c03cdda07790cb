using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Storage;

namespace Dashboard.Web.Runs;

/// <summary>What a cancel request did.</summary>
public enum CancelResult
{
    /// <summary>No run has that id.</summary>
    NotFound,

    /// <summary>The run was queued and is now cancelled.</summary>
    Cancelled,

    /// <summary>The run is running; its runner was asked to stop (SIGINT) and keeps its samples.</summary>
    Stopping,

    /// <summary>The run had already ended; nothing changed.</summary>
    AlreadyFinished,
}

/// <summary>The queue as pages and the API see it: queue now or later, cancel, re-queue.</summary>
public sealed class QueueService(RunStore store, QueueWorker worker, QueueScheduler scheduler, RunEvents events)
{
    /// <summary>Queues <paramref name="scenario"/> (already validated) to run as soon as possible or at <paramref name="notBeforeUtc"/>.</summary>
    public async Task<RunEntity> EnqueueAsync(ScenarioDocument scenario, DateTime? notBeforeUtc, CancellationToken cancellationToken)
    {
        ScenarioLoader.Validate(scenario);
        var run = await store.EnqueueAsync(scenario, notBeforeUtc, cancellationToken);
        events.Publish(new RunUpdate(run.Id, RunStatus.Queued));
        await scheduler.WakeAtAsync(run.CreatedUtc, cancellationToken);
        return run;
    }

    /// <summary>Cancels a queued run, or asks a running one to stop.</summary>
    public async Task<CancelResult> CancelAsync(int id, CancellationToken cancellationToken)
    {
        if (worker.CancelRunning(id))
        {
            return CancelResult.Stopping;
        }

        var status = await store.CancelQueuedAsync(id, cancellationToken);
        switch (status)
        {
            case null:
                return CancelResult.NotFound;
            case RunStatus.Cancelled when (await store.FindAsync(id, cancellationToken))?.Error == "cancelled before it started":
                events.Publish(new RunUpdate(id, RunStatus.Cancelled));
                return CancelResult.Cancelled;
            case RunStatus.Running:
                // Started between the two checks: ask again.
                return worker.CancelRunning(id) ? CancelResult.Stopping : CancelResult.AlreadyFinished;
            default:
                return CancelResult.AlreadyFinished;
        }
    }

    /// <summary>Queues a new run with the scenario of run <paramref name="id"/> (e.g. an interrupted one).</summary>
    public async Task<RunEntity?> RequeueAsync(int id, CancellationToken cancellationToken)
    {
        var run = await store.RequeueCopyAsync(id, cancellationToken);
        if (run is not null)
        {
            events.Publish(new RunUpdate(run.Id, RunStatus.Queued));
            await scheduler.WakeAtAsync(run.CreatedUtc, cancellationToken);
        }

        return run;
    }
}
