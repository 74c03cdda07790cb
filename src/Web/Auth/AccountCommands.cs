using System.Globalization;
using Dashboard.Data.Accounts;
using Dashboard.Web.Extensions;
using Dashboard.Web.Options;
using Microsoft.AspNetCore.Identity;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Auth;

/// <summary>
/// The dashboard executable's account commands, run instead of the web host when the first argument is
/// <c>token</c> or <c>admin</c>, with the same configuration as the dashboard (appsettings.json, environment,
/// <c>--Dashboard:Database=…</c> and the like):
/// <list type="bullet">
/// <item><c>token create --role Viewer|Operator|Admin [--name NAME] [--expires 30d|12h|90m]</c>: prints the new API token, and only it, on standard output.</item>
/// <item><c>admin create --user NAME</c>: prints a one-time link that sets the new admin's password.</item>
/// <item><c>admin reset --user NAME</c>: prints a one-time link that sets a new password for NAME (and unlocks the account).</item>
/// </list>
/// Exit codes: 0 done, 1 refused (unknown user, user exists), 2 wrong usage. Messages go to standard error.
/// </summary>
public static class AccountCommands
{
    private const string Usage = """
        usage: Dashboard.Web token create --role Viewer|Operator|Admin [--name NAME] [--expires 30d|12h|90m] [--Section:Key=value ...]
               Dashboard.Web admin create --user NAME [--Section:Key=value ...]
               Dashboard.Web admin reset --user NAME [--Section:Key=value ...]
        """;

    /// <summary>True when <paramref name="args"/> name an account command rather than the web host.</summary>
    public static bool Matches(string[] args) => args is ["token" or "admin", ..];

    /// <summary>Runs the command <paramref name="args"/> name and returns the exit code.</summary>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        if (args.Length < 2 || !TryParse(args[2..], out var options, out var configuration))
        {
            await error.WriteLineAsync(Usage);
            return 2;
        }

        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = configuration, ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.ClearProviders();
        builder.AddDashboardOptions();
        builder.AddAccounts();
        await using var host = builder.Build();
        using (host.Services.GetRequiredService<IOptions<DashboardOptions>>().Value.CreateResultsStore().OpenAccounts())
        {
        }

        await using var scope = host.Services.CreateAsyncScope();
        var accounts = scope.ServiceProvider.GetRequiredService<AccountService>();
        try
        {
            switch (args[0], args[1])
            {
                case ("token", "create"):
                    if (!options.TryGetValue("role", out var role) || DashboardRoles.Parse(role) is null)
                    {
                        await error.WriteLineAsync("token create: --role Viewer, Operator or Admin is required");
                        return 2;
                    }

                    TimeSpan? lifetime = null;
                    if (options.TryGetValue("expires", out var expires))
                    {
                        if (ParseLifetime(expires) is not { } parsed)
                        {
                            await error.WriteLineAsync($"token create: --expires '{expires}' is not a duration (30d, 12h, 90m or d.hh:mm:ss)");
                            return 2;
                        }

                        lifetime = parsed;
                    }

                    var token = await accounts.CreateTokenAsync(options.GetValueOrDefault("name"), role, lifetime, AccountService.CommandLine);
                    await output.WriteLineAsync(token);
                    return 0;
                case ("admin", "create" or "reset"):
                    if (!options.TryGetValue("user", out var user) || string.IsNullOrWhiteSpace(user))
                    {
                        await error.WriteLineAsync($"admin {args[1]}: --user NAME is required");
                        return 2;
                    }

                    var existing = await scope.ServiceProvider.GetRequiredService<UserManager<UserEntity>>().FindByNameAsync(user);
                    if (args[1] == "create" && existing is not null)
                    {
                        await error.WriteLineAsync($"admin create: user '{user}' exists already; use admin reset --user {user}");
                        return 1;
                    }

                    if (args[1] == "reset" && existing is null)
                    {
                        await error.WriteLineAsync($"admin reset: no user '{user}'");
                        return 1;
                    }

                    if (existing?.ExternalLogin is not null)
                    {
                        await error.WriteLineAsync($"admin reset: '{user}' signs in with single sign-on and has no password; change its role at the provider or on the Users page");
                        return 1;
                    }

                    // The console is trusted: a reset re-enables a disabled account now. A setup link never does by itself,
                    // so a link made before an Admin disabled the account cannot let it back in (AccountService.UseSetupLinkAsync).
                    if (existing is not null && AccountService.IsDisabled(existing)
                        && await accounts.UpdateUserAsync(existing.Id, null, false, AccountService.CommandLine) is { } refusal)
                    {
                        await error.WriteLineAsync($"admin reset: {refusal}");
                        return 1;
                    }

                    var secret = await accounts.CreateSetupLinkAsync(user, existing?.Role ?? DashboardRoles.Admin, AccountService.CommandLine);
                    var auth = host.Services.GetRequiredService<IOptions<AuthOptions>>().Value;
                    var link = new Uri(auth.PublicAddress ?? new Uri("http://localhost:5080"), "/setup?token=" + secret);
                    await error.WriteLineAsync($"One-time link that sets the password of '{user}' (valid {auth.SetupLinkLifetime}):");
                    await output.WriteLineAsync(link.ToString());
                    return 0;
                default:
                    await error.WriteLineAsync(Usage);
                    return 2;
            }
        }
        catch (ArgumentException e)
        {
            await error.WriteLineAsync(e.Message);
            return 2;
        }
    }

    /// <summary>A duration as <c>30d</c>, <c>12h</c>, <c>90m</c> or a TimeSpan (<c>d.hh:mm:ss</c>); null when it is none or not positive.</summary>
    public static TimeSpan? ParseLifetime(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        text = text.Trim();
        if (text.Length > 1 && double.TryParse(text[..^1], NumberStyles.Float, CultureInfo.InvariantCulture, out var n) && n > 0)
        {
            switch (char.ToLowerInvariant(text[^1]))
            {
                case 'd':
                    return TimeSpan.FromDays(n);
                case 'h':
                    return TimeSpan.FromHours(n);
                case 'm':
                    return TimeSpan.FromMinutes(n);
            }
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var span) && span > TimeSpan.Zero ? span : null;
    }

    // --role/--name/--expires/--user take a value (the next argument or after '='); everything else is configuration.
    private static bool TryParse(string[] args, out Dictionary<string, string> options, out string[] configuration)
    {
        string[] known = ["role", "name", "expires", "user"];
        options = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        var rest = new List<string>();
        for (var i = 0; i < args.Length; i++)
        {
            var arg = args[i];
            var name = arg.StartsWith("--", StringComparison.Ordinal) ? arg[2..].Split('=', 2)[0] : null;
            if (name is null || !known.Contains(name, StringComparer.OrdinalIgnoreCase))
            {
                rest.Add(arg);
                continue;
            }

            if (arg.Contains('=', StringComparison.Ordinal))
            {
                options[name] = arg.Split('=', 2)[1];
            }
            else if (i + 1 < args.Length)
            {
                options[name] = args[++i];
            }
            else
            {
                configuration = [];
                return false;
            }
        }

        configuration = [.. rest];
        return true;
    }
}
