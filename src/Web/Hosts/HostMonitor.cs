using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Hosts;

/// <summary>
/// Polls every known host's <c>GET /healthz</c> so the pages can show when a host is down: every
/// <see cref="LocalHostOptions.HealthPollInterval"/>, and every <see cref="LocalHostOptions.HealthPollIntervalWhileRunning"/>
/// while a run goes (<see cref="WhileRunning"/>): the runner watches the host it loads itself, and this process's CPU
/// counts as others' on the machine during the run's measured windows (bench/README.md, "The dashboard's own CPU while a
/// run goes"). When the last run ends the hosts are polled at once.
/// </summary>
public sealed class HostMonitor(HostRegistry registry, HostClient client, IOptions<LocalHostOptions> options, ILogger<HostMonitor> logger)
    : BackgroundService
{
    private readonly Lock _gate = new();
    private int _runs;
    private TaskCompletionSource _runsEnded = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Polls at the slower interval until the returned scope is disposed (the queue worker holds it while its runner runs).</summary>
    public IDisposable WhileRunning()
    {
        lock (_gate)
        {
            _runs++;
        }

        return new RunScope(this);
    }

    /// <inheritdoc />
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            foreach (var host in registry.All)
            {
                var (health, detail) = await client.CheckAsync(host.Address, stoppingToken);
                if (health != host.Health)
                {
                    logger.LogInformation("Service host {Address} is {Health}: {Detail}", host.Address, health, detail);
                }

                registry.Report(host.Address, health, detail);
            }

            Task runsEnded;
            TimeSpan interval;
            lock (_gate)
            {
                runsEnded = _runsEnded.Task;
                interval = _runs > 0 ? options.Value.HealthPollIntervalWhileRunning : options.Value.HealthPollInterval;
            }

            using var wait = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
            await Task.WhenAny(Task.Delay(interval, wait.Token), runsEnded);
            await wait.CancelAsync();
        }
    }

    private void RunEnded()
    {
        TaskCompletionSource ended;
        lock (_gate)
        {
            if (--_runs > 0)
            {
                return;
            }

            ended = _runsEnded;
            _runsEnded = new(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        ended.TrySetResult();
    }

    private sealed class RunScope(HostMonitor monitor) : IDisposable
    {
        private int _disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                monitor.RunEnded();
            }
        }
    }
}
