using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Hosts;

/// <summary>The host's cumulative CPU counters (<c>GET /cpu</c>, docs/service-contract.md, "CPU counters"), read at each end of a level's window.</summary>
public static class HostCpu
{
    /// <summary>
    /// The host's counters now, or null with the reason (as <see cref="HostGet.JsonAsync{T}"/>: no answer in time, an
    /// error status, an older host without the route). Never throws but for cancellation.
    /// </summary>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public static Task<(CpuCounters? Counters, string? Error)> GetAsync(HttpClient http, Uri host, CancellationToken cancellationToken) =>
        HostGet.JsonAsync<CpuCounters>(http, host, "/cpu", cancellationToken);

    /// <summary>
    /// The host process's id (the <c>aspnet</c> stack's process in <c>GET /cpu</c>), recorded with each level
    /// (docs/statistics.md, "Launches"); null when the host does not report it: the level then records no host process.
    /// </summary>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
    public static async Task<int?> GetProcessIdAsync(HttpClient http, Uri host, CancellationToken cancellationToken) =>
        (await GetAsync(http, host, cancellationToken)).Counters?.Processes.FirstOrDefault(p => p.Stack == "aspnet")?.ProcessId;
}
