using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Hosts;

/// <summary>Asks a service host what it serves (<c>GET /endpoints</c>) before a run, so a run fails fast and clearly.</summary>
public static class HostProbe
{
    /// <summary>How long the host may take to answer.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    /// <summary>Returns the endpoints the host at <paramref name="host"/> exposes.</summary>
    /// <exception cref="HostUnavailableException">The host cannot be reached, answers with an error, or not with an endpoint list.</exception>
    public static async Task<IReadOnlyList<HostEndpoint>> GetEndpointsAsync(HttpClient http, Uri host, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(host);
        var address = new Uri(host, "/endpoints");
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Timeout);
        try
        {
            using var response = await http.GetAsync(address, timeout.Token);
            if (!response.IsSuccessStatusCode)
            {
                throw new HostUnavailableException($"host {host} answered GET /endpoints with HTTP {(int)response.StatusCode} {response.ReasonPhrase}");
            }

            var endpoints = await response.Content.ReadFromJsonAsync<HostEndpoint[]>(JsonSerializerOptions.Web, timeout.Token);
            return endpoints ?? throw new HostUnavailableException($"host {host} answered GET /endpoints with null");
        }
        catch (HttpRequestException e)
        {
            throw new HostUnavailableException($"host {host} is not reachable: {e.Message}", e);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw new HostUnavailableException($"host {host} did not answer GET /endpoints within {Timeout.TotalSeconds:0} s", e);
        }
        catch (JsonException e)
        {
            throw new HostUnavailableException($"host {host} did not answer GET /endpoints with an endpoint list: {e.Message}", e);
        }
    }
}

/// <summary>A service host cannot be used; the message is one line naming the host and the reason.</summary>
public sealed class HostUnavailableException : Exception
{
    /// <summary>Creates the error with its one-line <paramref name="message"/>.</summary>
    public HostUnavailableException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
