using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Hosts;

/// <summary>The host's cumulative CPU counters (<c>GET /cpu</c>, docs/service-contract.md, "CPU counters"), read at each end of a level's window.</summary>
public static class HostCpu
{
    /// <summary>
    /// The host's counters now, or null with the reason (no answer within <see cref="HostProbe.Timeout"/>, an error status:
    /// an older host without the route answers 404). Never throws but for cancellation: a failed reading must not stop a measurement.
    /// </summary>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public static async Task<(CpuCounters? Counters, string? Error)> GetAsync(HttpClient http, Uri host, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(host);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(HostProbe.Timeout);
        try
        {
            using var response = await http.GetAsync(new Uri(host, "/cpu"), timeout.Token);
            if (!response.IsSuccessStatusCode)
            {
                return (null, string.Create(CultureInfo.InvariantCulture, $"GET /cpu answered {(int)response.StatusCode} {response.ReasonPhrase}"));
            }

            return (await response.Content.ReadFromJsonAsync<CpuCounters>(JsonSerializerOptions.Web, timeout.Token), null);
        }
        catch (Exception e) when (e is HttpRequestException or JsonException or NotSupportedException
            || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            return (null, e is OperationCanceledException ? $"GET /cpu did not answer within {HostProbe.Timeout.TotalSeconds:0} s" : $"GET /cpu failed: {e.Message}");
        }
    }
}
