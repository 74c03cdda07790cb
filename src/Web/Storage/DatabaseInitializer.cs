using Dashboard.Data.Results;
using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Storage;

/// <summary>
/// Creates or upgrades the results database before anything else uses it (eShop style: migrations in a hosted service),
/// then stores the per-level summaries of levels kept before summaries were (<see cref="LevelSummaries.BackfillAsync"/>):
/// the one place outside the runner that writes them, so no results read ever writes.
/// </summary>
public sealed class DatabaseInitializer(IOptions<DashboardOptions> options, ILogger<DatabaseInitializer> logger) : IHostedService
{
    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var store = options.Value.CreateResultsStore();
        await using (var db = store.Open())
        {
            var filled = await LevelSummaries.BackfillAsync(db, cancellationToken);
            if (filled > 0)
            {
                logger.LogInformation("Stored the summaries of {Levels} level(s) kept before summaries were", filled);
            }
        }

        logger.LogInformation("Results database ready: {Provider} {Location}", store.Provider, store.Description);
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
