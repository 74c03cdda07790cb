using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Storage;

/// <summary>Creates or upgrades the results database before anything else uses it (eShop style: migrations in a hosted service).</summary>
public sealed class DatabaseInitializer(IOptions<DashboardOptions> options, ILogger<DatabaseInitializer> logger) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        var store = options.Value.CreateResultsStore();
        using (store.Open())
        {
        }

        logger.LogInformation("Results database ready: {Provider} {Location}", store.Provider, store.Description);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
