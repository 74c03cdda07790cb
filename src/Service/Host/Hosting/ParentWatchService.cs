using Dashboard.Service.Host.Settings;
using Dashboard.Service.Contracts.Processes;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.Hosting;

/// <summary>
/// With <c>ServiceHost:StopAtStdinEof</c>: stops the host when its standard input ends (<see cref="ParentWatch"/>), which
/// stops the JVM service the same way, by closing its standard input.
/// </summary>
public sealed class ParentWatchService(IOptions<ServiceHostOptions> options, IHostApplicationLifetime lifetime, ILogger<ParentWatchService> logger) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (options.Value.StopAtStdinEof)
        {
            ParentWatch.Start(() =>
            {
                logger.LogWarning("Standard input ended: the process that started the host is gone; stopping");
                lifetime.StopApplication();
            });
        }

        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
