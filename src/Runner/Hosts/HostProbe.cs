using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Service.Contracts.Variants;
using Polly;
using Polly.Retry;

namespace Dashboard.Runner.Hosts;

/// <summary>Asks a service host what it serves (<c>GET /endpoints</c>) before a run, so a run fails fast and clearly.</summary>
public static class HostProbe
{
    /// <summary>How long the host may take to answer.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    private const string NoAnswer = "(no answer)";

    /// <summary>Default of how long <see cref="WaitForStacksAsync"/> waits for starting stacks (a JVM on a loaded machine takes 10–40 s).</summary>
    public static readonly TimeSpan DefaultStartWait = TimeSpan.FromSeconds(120);

    /// <summary>
    /// Waits while the host's <c>GET /healthz</c> answers 503 with status <c>starting</c> (a stack, e.g. the JVM service,
    /// is starting), polling every <paramref name="poll"/> up to <paramref name="limit"/>; <paramref name="notice"/> gets one
    /// line when the wait begins. Returns at once when the host is ready, or when it has no <c>/healthz</c> or answers
    /// otherwise (the endpoint list then decides).
    /// </summary>
    /// <exception cref="HostUnavailableException">The host cannot be reached, or a stack still starts after <paramref name="limit"/>.</exception>
    public static async Task WaitForStacksAsync(HttpClient http, Uri host, TimeSpan limit, Action<string>? notice, CancellationToken cancellationToken, TimeSpan? poll = null)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(host);
        var started = DateTime.UtcNow;
        // Asked again every poll while a stack is starting (or the host did not answer in time), until the limit: Polly's
        // retry with a constant delay; the limit and its reason stay here.
        var pipeline = new ResiliencePipelineBuilder<string?>()
            .AddRetry(new RetryStrategyOptions<string?>
            {
                ShouldHandle = args => ValueTask.FromResult(args.Outcome.Result is not null && DateTime.UtcNow - started < limit),
                Delay = poll ?? TimeSpan.FromMilliseconds(500),
                BackoffType = DelayBackoffType.Constant,
                UseJitter = false,
                MaxRetryAttempts = int.MaxValue,
                OnRetry = args =>
                {
                    if (args.AttemptNumber == 0)
                    {
                        notice?.Invoke(args.Outcome.Result == NoAnswer
                            ? $"host {host} did not answer GET /healthz within {Timeout.TotalSeconds:0} s; asking again for up to {limit.TotalSeconds:0} s"
                            : $"host {host}: stack {args.Outcome.Result} is starting; waiting up to {limit.TotalSeconds:0} s");
                    }

                    return default;
                },
            })
            .Build();
        var starting = await pipeline.ExecuteAsync(async token => await StartingAsync(http, host, token, cancellationToken), cancellationToken);
        if (starting == NoAnswer)
        {
            throw new HostUnavailableException($"host {host} did not answer GET /healthz within {Timeout.TotalSeconds:0} s");
        }

        if (starting is not null)
        {
            throw new HostUnavailableException($"host {host}: stack {starting} still starting after {limit.TotalSeconds:0} s");
        }
    }

    // One GET /healthz: the stacks still starting, NoAnswer when the host did not answer within Timeout, null when it is ready
    // (or has no /healthz: the endpoint list then decides).
    private static async Task<string?> StartingAsync(HttpClient http, Uri host, CancellationToken token, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(token);
        timeout.CancelAfter(Timeout);
        try
        {
            using var response = await http.GetAsync(new Uri(host, "/healthz"), timeout.Token);
            return response.StatusCode == System.Net.HttpStatusCode.ServiceUnavailable
                ? StartingStacks(await response.Content.ReadAsStringAsync(timeout.Token))
                : null;
        }
        catch (HttpRequestException e)
        {
            throw new HostUnavailableException($"host {host} is not reachable: {e.Message}", e);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // A host busy starting its stacks (or a loaded machine) may be slow to answer: asked again within the limit.
            return NoAnswer;
        }
    }

    /// <summary>The starting stacks named in a <c>/healthz</c> body ("jvm", "aspnet and jvm"), or null when it says none is starting.</summary>
    private static string? StartingStacks(string body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            if (!document.RootElement.TryGetProperty("stacks", out var stacks) || stacks.ValueKind != JsonValueKind.Object)
            {
                return null;
            }

            var names = stacks.EnumerateObject().Where(p => p.Value.ValueKind == JsonValueKind.String && p.Value.GetString() == "starting").Select(p => p.Name).ToArray();
            return names.Length == 0 ? null : string.Join(" and ", names);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>Returns the endpoints the host at <paramref name="host"/> exposes; <paramref name="http"/> carries the control token (<see cref="HostToken.CreateClient"/>).</summary>
    /// <exception cref="HostTokenRefusedException">The host answered 401: no token, or not its token.</exception>
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
            if (response.StatusCode == System.Net.HttpStatusCode.Unauthorized)
            {
                throw new HostTokenRefusedException(host, http.DefaultRequestHeaders.Authorization is not null);
            }

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

/// <summary>What a service host reports of its stacks' versions (<c>GET /versions</c>, docs/statistics.md "Environment").</summary>
public static class HostVersions
{
    /// <summary>
    /// The host's <c>GET /versions</c>: process group (<c>aspnet</c>, <c>jvm</c>) → component → version, as the host read
    /// them from what it loaded; null when the host does not answer it within <see cref="HostProbe.Timeout"/> (an older
    /// host without the route, a remote host behind a proxy): the run then records that the host did not report them.
    /// </summary>
    public static async Task<IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>?> GetAsync(HttpClient http, Uri host, CancellationToken cancellationToken)
    {
        var (versions, _) = await HostGet.JsonAsync<Dictionary<string, Dictionary<string, string>>>(http, host, "/versions", cancellationToken);
        return versions?.ToDictionary(p => p.Key, p => (IReadOnlyDictionary<string, string>)p.Value, StringComparer.Ordinal);
    }
}

/// <summary>A service host cannot be used; the message is one line naming the host and the reason.</summary>
public class HostUnavailableException : Exception
{
    /// <summary>Creates the error with its one-line <paramref name="message"/>.</summary>
    public HostUnavailableException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}

/// <summary>
/// The host answered 401 to its control API: the runner sent no control token or not the host's (docs/security.md). The
/// message says which and names <c>DASHBOARD_HOST_TOKEN</c>; the runner exits 3 as for any unusable host.
/// </summary>
public sealed class HostTokenRefusedException(Uri host, bool tokenSent) : HostUnavailableException(
    $"the host refused the control token: set {Service.Contracts.Security.HostControlToken.EnvironmentVariable} to the token of {host} "
    + $"({(tokenSent ? "the one sent is not its token" : "none was sent")}; the host's ServiceHost:ControlToken, or the {Service.Contracts.Security.HostControlToken.FileName} file of its security folder; docs/security.md)");
