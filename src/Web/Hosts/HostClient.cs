using System.Net.Http.Json;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Web.Hosts;

/// <summary>
/// Talks to a service host's control API (docs/service-contract.md, docs/topologies.md): <c>/healthz</c> (open),
/// <c>/endpoints</c> and <c>/security</c> with the host's control token from the <see cref="HostRegistry"/> (docs/security.md).
/// </summary>
public sealed class HostClient(HttpClient http, HostRegistry registry)
{
    /// <summary>Polls <c>GET {host}/healthz</c>; the health and one line about it.</summary>
    public async Task<(HostHealth Health, string Detail)> CheckAsync(Uri host, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(host);
        try
        {
            using var response = await http.GetAsync(new Uri(host, "healthz"), cancellationToken);
            var body = await response.Content.ReadAsStringAsync(cancellationToken);
            var stacks = Stacks(body);
            return (int)response.StatusCode switch
            {
                >= 200 and < 300 => (HostHealth.Up, stacks ?? "healthy"),
                503 when stacks is not null => (HostHealth.Starting, stacks),
                _ => (HostHealth.Down, $"/healthz answered {(int)response.StatusCode} {response.ReasonPhrase}"),
            };
        }
        catch (HttpRequestException e)
        {
            return (HostHealth.Down, e.Message);
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return (HostHealth.Down, "no answer within the timeout");
        }
    }

    /// <summary>"aspnet up, jvm starting" from a <c>/healthz</c> body, or null when it lists no stacks.</summary>
    private static string? Stacks(string body)
    {
        try
        {
            using var document = System.Text.Json.JsonDocument.Parse(body);
            return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object
                && document.RootElement.TryGetProperty("stacks", out var stacks) && stacks.ValueKind == System.Text.Json.JsonValueKind.Object
                ? string.Join(", ", stacks.EnumerateObject().Select(p => $"{p.Name} {p.Value}"))
                : null;
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }

    /// <summary>The host's <c>GET /endpoints</c> answer.</summary>
    /// <exception cref="HttpRequestException">The host cannot be reached or answered an error.</exception>
    public async Task<IReadOnlyList<HostEndpoint>> GetEndpointsAsync(Uri host, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(host);
        return await GetAsync<HostEndpoint[]>(host, "endpoints", cancellationToken) ?? [];
    }

    /// <summary>The host's <c>GET /security</c> answer: the files a secure run from another machine needs (docs/topologies.md).</summary>
    /// <exception cref="HttpRequestException">The host cannot be reached or answered an error.</exception>
    /// <exception cref="System.Text.Json.JsonException">The answer is not the expected shape.</exception>
    public async Task<HostSecurityInfo> GetSecurityAsync(Uri host, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(host);
        return await GetAsync<HostSecurityInfo>(host, "security", cancellationToken)
            ?? throw new HttpRequestException($"{new Uri(host, "security")} answered null");
    }

    // GET of a guarded route with the host's token; 401 says whose token is missing or wrong.
    private async Task<T?> GetAsync<T>(Uri host, string route, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(host, route));
        if (registry.ControlTokenFor(host) is { } token)
        {
            request.Headers.Authorization = HostControlToken.Header(token);
        }

        using var response = await http.SendAsync(request, cancellationToken);
        if (response.StatusCode == System.Net.HttpStatusCode.Unauthorized)
        {
            throw new HttpRequestException(
                $"the host refused the dashboard's control token: {(registry.Find(host)?.IsLocal == true ? "set Dashboard:LocalHost:ControlToken, or let the host make its control-token in its security folder" : "register the host again on the Hosts page with its token")} (docs/security.md)",
                null, response.StatusCode);
        }

        response.EnsureSuccessStatusCode();
        return await response.Content.ReadFromJsonAsync<T>(cancellationToken);
    }
}
