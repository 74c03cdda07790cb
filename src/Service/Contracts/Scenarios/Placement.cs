namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// Where the scheduler may run the load generator and the service host during a level (the scenario field
/// <c>placement</c>; docs/statistics.md, "Placement: one client on one core"). On this 2-vCPU virtual machine a
/// 1-client closed level's throughput (1 ÷ its response time, 50–140 µs) swung by a CoV of 10–20 % over 3 s windows when
/// the scheduler placed the two processes freely, and by 1–2.5 % when both were pinned to one core (bench/README.md,
/// "One client on one core"): with one request outstanding at a time the two sides never run at once, so sharing a core
/// loses no parallelism, while waking the other side across vCPUs costs whatever the hypervisor's scheduling of that vCPU
/// costs at that moment.
/// </summary>
public static class Placement
{
    /// <summary>The scheduler places the runner, its drivers and the host on any core (the default; also a null field).</summary>
    public const string Free = "free";

    /// <summary>
    /// Closed levels of one client run with the runner, its driver processes and the host's processes (host and JVM)
    /// pinned to one core, the lowest the runner may use, from before their warm-up to after their window; every other
    /// level runs free. Same-machine topology only (the runner pins the host's processes, so it must see them), no agents.
    /// </summary>
    public const string SharedCore = "shared-core";

    /// <summary>Every placement, in the order the UI offers them.</summary>
    public static IReadOnlyList<string> All { get; } = [Free, SharedCore];

    /// <summary>True when a level of <paramref name="levelValue"/> (clients, or req/s when open) of this scenario runs on one shared core.</summary>
    public static bool SharesCore(ScenarioDocument scenario, int levelValue)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return scenario.Placement == SharedCore && !scenario.IsOpen && levelValue == 1;
    }
}
