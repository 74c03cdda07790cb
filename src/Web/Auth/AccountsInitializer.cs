using Dashboard.Data.Accounts;
using Dashboard.Web.Options;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Auth;

/// <summary>
/// Creates or upgrades the accounts' tables at start and, while no admin exists, makes a one-time setup link and prints
/// it on standard output once the dashboard listens (as Jupyter prints its login link): no default password.
/// </summary>
public sealed class AccountsInitializer(
    IOptions<DashboardOptions> dashboard, IOptions<AuthOptions> auth, IServiceScopeFactory scopes, IHostApplicationLifetime lifetime,
    IServer server, ILogger<AccountsInitializer> logger) : IHostedService
{
    /// <summary>The start of the line that carries the setup link (run.sh and the tests look for it).</summary>
    public const string SetupLinePrefix = "Set up the first admin (one-time link):";

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        using (dashboard.Value.CreateResultsStore().OpenAccounts())
        {
        }

        await using var scope = scopes.CreateAsyncScope();
        var accounts = scope.ServiceProvider.GetRequiredService<AccountService>();
        if (await accounts.AnyAdminAsync(cancellationToken))
        {
            return;
        }

        var secret = await accounts.CreateSetupLinkAsync(null, DashboardRoles.Admin, "first start", cancellationToken);
        lifetime.ApplicationStarted.Register(() =>
        {
            var link = new Uri(BaseAddress(), "/setup?token=" + secret);
            logger.LogWarning("No admin yet: the one-time setup link is printed on standard output (valid {Lifetime})", auth.Value.SetupLinkLifetime);
            Console.Out.WriteLine($"{SetupLinePrefix} {link}");
            Console.Out.Flush();
        });
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private Uri BaseAddress()
    {
        if (auth.Value.PublicAddress is { } configured)
        {
            return configured;
        }

        var address = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault() ?? "http://localhost:5080";
        address = address.Replace("://+", "://localhost", StringComparison.Ordinal).Replace("://*", "://localhost", StringComparison.Ordinal)
            .Replace("://0.0.0.0", "://localhost", StringComparison.Ordinal).Replace("://[::]", "://localhost", StringComparison.Ordinal);
        return new Uri(address);
    }
}
