namespace Dashboard.Web.Runs;

/// <summary>Connects the worker's "machine busy, try later" to the queue: the run's job is scheduled again for that time.</summary>
public sealed class QueueWiring(QueueWorker worker, RunJobs runJobs) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        worker.RetryScheduled += runJobs.ResubmitAsync;
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken)
    {
        worker.RetryScheduled -= runJobs.ResubmitAsync;
        return Task.CompletedTask;
    }
}
