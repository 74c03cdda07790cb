namespace Dashboard.Service.Contracts.Resources;

/// <summary>
/// A service host's answer to <c>GET /resources</c> (docs/architecture.md): the server machine's and the service
/// process's resource use at one moment, as the thesis measured them (Table 7.1: "% Processor Time",
/// "Available MBytes"). JSON: camelCase property names.
/// </summary>
/// <param name="MachineCpuPercent">CPU use of the host machine's cores since the previous snapshot, 0–100: all cores, or the host's own when it is pinned to some (an emulated-lan run, docs/topologies.md).</param>
/// <param name="AvailableMemoryMb">Memory available to new processes on the machine, MB (Linux: MemAvailable).</param>
/// <param name="ProcessCpuPercent">CPU use of the service process since the previous snapshot, 0–100 % of the cores it may use now (<paramref name="Cores"/>; all of the machine's when null).</param>
/// <param name="WorkingSetMb">Working set of the service process, MB.</param>
/// <param name="GcHeapMb">Managed heap size of the service process, MB.</param>
/// <param name="ThreadCount">Threads of the service process.</param>
/// <param name="JvmCpuPercent">CPU use of the JVM service process (metro and ice stacks) over the last interval, 0–100 % of the cores the host may use now (<paramref name="Cores"/>); null when it is not running.</param>
/// <param name="JvmResidentMb">Resident memory of the JVM service process, MB; null when it is not running.</param>
/// <param name="Cores">The cores the host process may use now (its CPU affinity, e.g. under <c>taskset</c>), ascending; null: every core of its machine. The runner tells from it whether generator and server share cores (docs/statistics.md, "What bound each level").</param>
/// <remarks>The host process itself is the aspnet stack's process: <paramref name="ProcessCpuPercent"/>, <paramref name="WorkingSetMb"/> (resident).</remarks>
public sealed record ResourceSnapshot(
    double MachineCpuPercent,
    double AvailableMemoryMb,
    double ProcessCpuPercent,
    double WorkingSetMb,
    double GcHeapMb,
    int ThreadCount,
    double? JvmCpuPercent = null,
    double? JvmResidentMb = null,
    IReadOnlyList<int>? Cores = null);
