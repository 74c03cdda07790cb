using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;

namespace Dashboard.Runner.Hosts;

/// <summary>One GET of a service host's control route (docs/service-contract.md), for the readings a run records but must not fail on.</summary>
public static class HostGet
{
    /// <summary>
    /// <c>GET <paramref name="route"/></c> on <paramref name="host"/>, its JSON body as <typeparamref name="T"/> (camelCase),
    /// or null with the reason: no answer within <see cref="HostProbe.Timeout"/>, an error status (an older host without
    /// the route answers 404, a wrong token 401), a body that is not <typeparamref name="T"/>. Never throws but for
    /// cancellation: a failed reading must not stop a measurement.
    /// </summary>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public static async Task<(T? Value, string? Error)> JsonAsync<T>(HttpClient http, Uri host, string route, CancellationToken cancellationToken)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(host);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(HostProbe.Timeout);
        try
        {
            using var response = await http.GetAsync(new Uri(host, route), timeout.Token);
            if (!response.IsSuccessStatusCode)
            {
                return (null, string.Create(CultureInfo.InvariantCulture, $"GET {route} answered {(int)response.StatusCode} {response.ReasonPhrase}"));
            }

            var value = await response.Content.ReadFromJsonAsync<T>(JsonSerializerOptions.Web, timeout.Token);
            return value is null ? (null, $"GET {route} answered an empty body") : (value, null);
        }
        catch (Exception e) when (e is HttpRequestException or JsonException or NotSupportedException
            || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            return (null, e is OperationCanceledException
                ? string.Create(CultureInfo.InvariantCulture, $"GET {route} did not answer within {HostProbe.Timeout.TotalSeconds:0} s")
                : $"GET {route} failed: {e.Message}");
        }
    }
}
