using System.Net;
using Dashboard.Service.Contracts.Security;

namespace Dashboard.Runner.Hosts;

/// <summary>
/// The control token the runner sends to the service host it calls (docs/security.md, "The control API's token"):
/// <see cref="HostControlToken.EnvironmentVariable"/> (<c>DASHBOARD_HOST_TOKEN</c>) for any host, else, for a host on this
/// machine (a loopback address), the <c>control-token</c> file of the security folder (<c>--security-dir</c>, by default
/// the local host's). A remote host's token is never guessed from a local file: the local token is not sent elsewhere.
/// </summary>
public static class HostToken
{
    /// <summary>The token to send to <paramref name="host"/>, or null when there is none (the host then answers 401).</summary>
    /// <param name="host">The host's control API address.</param>
    /// <param name="securityDirectory">The security folder whose <c>control-token</c> a local host's token is read from.</param>
    /// <param name="environment">Reads an environment variable; default <see cref="Environment.GetEnvironmentVariable(string)"/> (tests pass another).</param>
    public static string? For(Uri host, string securityDirectory, Func<string, string?>? environment = null)
    {
        ArgumentNullException.ThrowIfNull(host);
        ArgumentNullException.ThrowIfNull(securityDirectory);
        var variable = (environment ?? Environment.GetEnvironmentVariable)(HostControlToken.EnvironmentVariable)?.Trim();
        if (!string.IsNullOrEmpty(variable))
        {
            return variable;
        }

        return IsLoopback(host) ? HostControlToken.ReadFile(securityDirectory) : null;
    }

    /// <summary>True when <paramref name="host"/> names this machine by a loopback name or address (<c>localhost</c>, 127.0.0.0/8, <c>::1</c>).</summary>
    public static bool IsLoopback(Uri host)
    {
        ArgumentNullException.ThrowIfNull(host);
        return host.IsLoopback || (IPAddress.TryParse(host.DnsSafeHost, out var address) && IPAddress.IsLoopback(address));
    }

    /// <summary>A client for a host's control API that sends <paramref name="token"/> on every request (none when null); the caller disposes it.</summary>
    public static HttpClient CreateClient(string? token)
    {
        var http = new HttpClient();
        if (token is not null)
        {
            http.DefaultRequestHeaders.Authorization = HostControlToken.Header(token);
        }

        return http;
    }
}
