namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// The workload models of a scenario's <c>workload</c> field (docs/statistics.md, "Closed and open workloads").
/// </summary>
public static class Workload
{
    /// <summary>Closed (the default): each level is N clients, each sending its next request when the reply to the last arrived.</summary>
    public const string Closed = "closed";

    /// <summary>Open: each level is an arrival rate; requests start on a schedule whatever the server does (coordinated omission corrected).</summary>
    public const string Open = "open";

    /// <summary>Every workload id.</summary>
    public static IReadOnlyList<string> All { get; } = [Closed, Open];

    /// <summary>The pool bound of an open level when the scenario gives no <c>maxConnections</c>.</summary>
    public const int DefaultMaxConnections = 64;

    /// <summary>Most connections an open level may open (as <see cref="ScenarioValidator.MaxLevel"/> bounds closed clients).</summary>
    public const int MaxConnectionsLimit = ScenarioValidator.MaxLevel;

    /// <summary>Highest arrival rate of one open level, req/s.</summary>
    public const int MaxRate = 1_000_000;

    /// <summary>
    /// The client technologies whose clients run in the runner's process and so can run open levels (the runner schedules
    /// every request itself). The external drivers (<c>java</c>, <c>node</c>) run closed loops in their own processes: the
    /// driver protocol (docs/driver-protocol.md) has no arrival schedule.
    /// </summary>
    public static IReadOnlySet<string> OpenCapableClients { get; } = new HashSet<string>(StringComparer.Ordinal) { "dotnet", "wcf", "lean" };
}
