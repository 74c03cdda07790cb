using System.Globalization;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Execution;

/// <summary>
/// One level's pin of the scenario's <c>placement: "shared-core"</c> (<see cref="Service.Contracts.Scenarios.Placement"/>;
/// docs/statistics.md, "Placement: one client on one core"): every thread of the runner, of its driver processes and of the
/// host's processes (host and JVM, as <c>GET /cpu</c> lists them) is pinned to one core with <c>taskset -a -cp</c>, and
/// each process gets its own earlier affinity back on <see cref="Dispose"/>. Threads started while pinned inherit the
/// core; <c>-a</c> at the release reaches them too.
/// </summary>
internal sealed class SharedCorePin : IDisposable
{
    private readonly List<(int ProcessId, string Cores)> _before;

    private SharedCorePin(int core, List<(int, string)> before) => (Core, _before) = (core, before);

    /// <summary>The core every pinned process ran on.</summary>
    public int Core { get; }

    /// <summary>
    /// Pins <paramref name="processIds"/> (this runner first, then its drivers, then the host's processes) to the lowest core
    /// this runner may use now.
    /// </summary>
    /// <exception cref="InvalidOperationException">A process is not on this machine (its <c>/proc</c> entry is missing), or
    /// <c>taskset</c> is missing or refused (no permission over the host's processes); what was pinned before is released.</exception>
    public static SharedCorePin Pin(IEnumerable<int> processIds)
    {
        ArgumentNullException.ThrowIfNull(processIds);
        var core = (CpuAffinity.AllowedCores() is { Count: > 0 } mine ? mine : Enumerable.Range(0, Environment.ProcessorCount).ToHashSet()).Min();
        var before = new List<(int, string)>();
        var pin = new SharedCorePin(core, before);
        try
        {
            foreach (var id in processIds.Distinct())
            {
                var cores = CpuAffinity.AllowedCores($"/proc/{id}/status")
                    ?? throw new InvalidOperationException($"process {id} is not on this machine (no /proc/{id}/status): placement 'shared-core' needs the host on the runner's machine");
                Taskset(id, core.ToString(CultureInfo.InvariantCulture));
                before.Add((id, string.Join(",", cores)));
            }
        }
        catch
        {
            pin.Dispose();
            throw;
        }

        return pin;
    }

    /// <summary>Gives every pinned process its earlier affinity back; a process that ended meanwhile is skipped.</summary>
    public void Dispose()
    {
        foreach (var (id, cores) in _before)
        {
            if (Directory.Exists($"/proc/{id}"))
            {
                try
                {
                    Taskset(id, cores);
                }
                catch (InvalidOperationException)
                {
                    // The process ended between the check and taskset.
                }
            }
        }

        _before.Clear();
    }

    private static void Taskset(int processId, string cores)
    {
        var (code, _, error) = ShortCommand.Run("taskset", ["-a", "-cp", cores, processId.ToString(CultureInfo.InvariantCulture)]);
        if (code == 127)
        {
            throw new InvalidOperationException($"taskset is missing ({error.Trim()}): placement 'shared-core' needs it (Debian package util-linux)");
        }

        if (code != 0)
        {
            throw new InvalidOperationException($"taskset could not pin process {processId} to cores {cores}: {error.Trim()}");
        }
    }
}
