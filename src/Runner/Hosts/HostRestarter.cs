using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Hosts;

/// <summary>What <see cref="HostRestarter.RestartAsync"/> did.</summary>
/// <param name="ProcessId">The fresh host process's id; null when the host was not restarted.</param>
/// <param name="Reason">Why it was not (the host answered 409: nobody would start it again; 404: an older host); null when it was.</param>
public sealed record HostRestartOutcome(int? ProcessId, string? Reason)
{
    /// <summary>True when a fresh host process serves now.</summary>
    public bool Restarted => Reason is null;
}

/// <summary>
/// A fresh service host process for a run's next launch (issue #32, docs/statistics.md "Launches"): <c>POST /restart</c>
/// (<see cref="HostRestart"/>), then waits until the host answers again from another process and its stacks are up.
/// </summary>
public static class HostRestarter
{
    /// <summary>How long a restarted host may take to serve again, JVM included (a JVM on a loaded machine takes 10–40 s).</summary>
    public static readonly TimeSpan DefaultLimit = TimeSpan.FromSeconds(180);

    /// <summary>
    /// Asks <paramref name="host"/> to restart and waits up to <paramref name="limit"/> until <c>GET /cpu</c> names another
    /// host process and <c>GET /healthz</c> says no stack is starting. A host that cannot be restarted (409, 404, 405)
    /// is not an error: the outcome says why, and the launches share it.
    /// </summary>
    /// <param name="http">Carries the control token (<see cref="HostToken.CreateClient"/>).</param>
    /// <param name="host">The host's control API.</param>
    /// <param name="limit">How long the host may take to come back.</param>
    /// <param name="notice">Gets one line when the wait for starting stacks begins.</param>
    /// <param name="cancellationToken">Stops the wait.</param>
    /// <exception cref="HostUnavailableException">The host did not answer <c>POST /restart</c>, or did not come back within <paramref name="limit"/>.</exception>
    public static async Task<HostRestartOutcome> RestartAsync(HttpClient http, Uri host, TimeSpan limit, Action<string>? notice, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(host);
        var started = DateTime.UtcNow;
        int before;
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            timeout.CancelAfter(HostProbe.Timeout);
            try
            {
                using var response = await http.PostAsync(new Uri(host, HostRestart.Path), content: null, timeout.Token);
                if (response.StatusCode is HttpStatusCode.Conflict or HttpStatusCode.NotFound or HttpStatusCode.MethodNotAllowed)
                {
                    return new HostRestartOutcome(null, await ReasonAsync(response, timeout.Token));
                }

                if (response.StatusCode == HttpStatusCode.Unauthorized)
                {
                    throw new HostTokenRefusedException(host, http.DefaultRequestHeaders.Authorization is not null);
                }

                response.EnsureSuccessStatusCode();
                before = (await response.Content.ReadFromJsonAsync<HostRestartAccepted>(JsonSerializerOptions.Web, timeout.Token))?.ProcessId
                    ?? throw new JsonException("the answer names no process");
            }
            catch (Exception e) when (e is HttpRequestException or JsonException
                || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
            {
                throw new HostUnavailableException($"host {host} did not accept POST {HostRestart.Path}: {e.Message}", e);
            }
        }

        // The old process answers until it stops, then nothing answers until the new one listens.
        int? now = null;
        while (DateTime.UtcNow - started < limit)
        {
            now = await HostCpu.GetProcessIdAsync(http, host, cancellationToken);
            if (now is not null && now != before)
            {
                break;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(250), cancellationToken);
        }

        if (now is null || now == before)
        {
            throw new HostUnavailableException(string.Create(CultureInfo.InvariantCulture,
                $"host {host} did not come back within {limit.TotalSeconds:0} s after POST {HostRestart.Path} (process {before} ended; no other process answered GET /cpu)"));
        }

        var left = limit - (DateTime.UtcNow - started);
        await HostProbe.WaitForStacksAsync(http, host, left > TimeSpan.Zero ? left : TimeSpan.FromSeconds(1), notice, cancellationToken);
        return new HostRestartOutcome(now, null);
    }

    private static async Task<string> ReasonAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        var status = string.Create(CultureInfo.InvariantCulture, $"POST {HostRestart.Path} answered {(int)response.StatusCode}");
        if (response.StatusCode != HttpStatusCode.Conflict)
        {
            return $"{status} (a host without the route)";
        }

        try
        {
            using var problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
            return problem.RootElement.TryGetProperty("detail", out var detail) ? $"{status}: {detail.GetString()}" : status;
        }
        catch (JsonException)
        {
            return status;
        }
    }
}
