using Dashboard.Service.Contracts.Processes;
using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Processes;

/// <summary>
/// With <c>Dashboard:StopAtStdinEof</c>: stops the dashboard when its standard input ends (<see cref="ParentWatch"/>: the
/// process that started it is gone, however it ended). Its local service host and runner then stop as at any shutdown.
/// </summary>
public sealed class ParentWatchService(IOptions<DashboardOptions> options, IHostApplicationLifetime lifetime, ILogger<ParentWatchService> logger) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (options.Value.StopAtStdinEof)
        {
            ParentWatch.Start(() =>
            {
                logger.LogWarning("Standard input ended: the process that started the dashboard is gone; stopping");
                lifetime.StopApplication();
            });
        }

        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
