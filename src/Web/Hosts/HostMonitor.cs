using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Hosts;

/// <summary>Polls every known host's <c>GET /healthz</c> so the pages can show when a host is down.</summary>
public sealed class HostMonitor(HostRegistry registry, HostClient client, IOptions<LocalHostOptions> options, ILogger<HostMonitor> logger)
    : BackgroundService
{
    /// <inheritdoc />
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(options.Value.HealthPollInterval);
        do
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
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }
}
