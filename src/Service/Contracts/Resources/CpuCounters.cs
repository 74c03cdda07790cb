namespace Dashboard.Service.Contracts.Resources;

/// <summary>
/// A service host's answer to <c>GET /cpu</c> (docs/service-contract.md, "CPU counters"): cumulative CPU counters, never
/// percentages, so a caller reading them at the two ends of a window gets that window's CPU exactly, whatever happened
/// between (issue #32: a once-a-second percentage is a neighbouring reading for a level of 300 ms). JSON: camelCase.
/// </summary>
/// <param name="Processes">Each process of a stack the host serves now: the host itself (<c>aspnet</c>), the JVM service (<c>jvm</c>) while it runs.</param>
/// <param name="Machine">The host machine's cumulative CPU time (<c>/proc/stat</c>, all cores).</param>
/// <param name="Cores">The cores the host process may use now (its CPU affinity), ascending; null: every core of its machine.</param>
/// <param name="BootId">The host kernel's boot id (<c>/proc/sys/kernel/random/boot_id</c>); two readers with the same one read the same <c>/proc/stat</c> (same machine, containers included); null where it cannot be read.</param>
public sealed record CpuCounters(IReadOnlyList<ProcessCpu> Processes, MachineCpuCounters Machine, IReadOnlyList<int>? Cores, string? BootId);

/// <summary>One process's cumulative CPU time and identity.</summary>
/// <param name="Stack">Which stack it serves: <c>aspnet</c> (the host process) or <c>jvm</c> (metro and ice).</param>
/// <param name="ProcessId">Its process id (as the host sees it).</param>
/// <param name="StartTicks">When it started, in clock ticks since boot (<c>/proc/&lt;pid&gt;/stat</c> field 22): with <paramref name="ProcessId"/>, tells a restarted process from the one read before.</param>
/// <param name="CpuSeconds">User + system CPU time of the whole process since it started, s (<c>/proc/&lt;pid&gt;/stat</c> fields 14 + 15: every thread, ended ones included).</param>
public sealed record ProcessCpu(string Stack, int ProcessId, long StartTicks, double CpuSeconds);

/// <summary>
/// A machine's cumulative CPU time since boot, summed over its cores, in seconds (<c>/proc/stat</c>'s <c>cpu</c> line, ticks ÷ USER_HZ).
/// Busy + idle + steal is every core's elapsed time.
/// </summary>
/// <param name="BusySeconds">user + nice + system + irq + softirq (guest time is inside user and nice).</param>
/// <param name="IdleSeconds">idle + iowait.</param>
/// <param name="StealSeconds">steal: time a virtual machine's cores waited for the hypervisor.</param>
/// <param name="Cores">The machine's logical cores (the <c>cpuN</c> lines).</param>
public sealed record MachineCpuCounters(double BusySeconds, double IdleSeconds, double StealSeconds, int Cores)
{
    /// <summary>Every core's elapsed time: busy + idle + steal, s.</summary>
    public double TotalSeconds => BusySeconds + IdleSeconds + StealSeconds;
}
