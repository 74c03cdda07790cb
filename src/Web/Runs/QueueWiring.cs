namespace Dashboard.Web.Runs;

/// <summary>Connects the worker's "machine busy, try later" to the queue: the run's job is scheduled again for that time.</summary>
public sealed class QueueWiring(QueueWorker worker, QueueService queue) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        worker.RetryScheduled += queue.RescheduleAsync;
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken)
    {
        worker.RetryScheduled -= queue.RescheduleAsync;
        return Task.CompletedTask;
    }
}
