using System.Collections.Concurrent;
using System.Diagnostics;

namespace Dashboard.Runner.Load;

/// <summary>
/// The processes that make up the load generator: the runner itself and the driver processes it started
/// (docs/statistics.md, "generator CPU % of the runner and of each driver process"). Thread-safe. A driver's CPU is known up
/// to the last reading before it ended: the resource poller reads every 250 ms, so at most that much of its CPU is missed.
/// </summary>
public sealed class GeneratorProcesses
{
    // The last CPU reading of each driver: an ended, reaped process can no longer be read.
    private readonly ConcurrentDictionary<int, (Process Process, TimeSpan LastCpu)> _drivers = new();
    private readonly object _retiredLock = new();
    private TimeSpan _retired;

    /// <summary>Counts <paramref name="driver"/>'s CPU from now until <see cref="Remove"/>.</summary>
    public void Add(Process driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        _drivers[driver.Id] = (driver, TimeSpan.Zero);
    }

    /// <summary>Stops tracking <paramref name="driver"/>, keeping the CPU it used in the total.</summary>
    public void Remove(Process driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        if (_drivers.TryRemove(driver.Id, out var entry))
        {
            lock (_retiredLock)
            {
                _retired += CpuOf(entry.Process) ?? entry.LastCpu;
            }
        }
    }

    /// <summary>The process ids of the driver processes tracked now (the runner itself not included).</summary>
    public IReadOnlyList<int> DriverIds => [.. _drivers.Keys];

    /// <summary>Driver processes tracked now (the runner itself not counted).</summary>
    public int Count => _drivers.Count;

    /// <summary>CPU time used so far by the runner and every driver it started (running or ended), user + system.</summary>
    public TimeSpan TotalCpu()
    {
        using var self = Process.GetCurrentProcess();
        var total = self.TotalProcessorTime;
        foreach (var (pid, entry) in _drivers)
        {
            var cpu = CpuOf(entry.Process) ?? entry.LastCpu;
            _drivers.TryUpdate(pid, (entry.Process, cpu), entry);
            total += cpu;
        }

        lock (_retiredLock)
        {
            return total + _retired;
        }
    }

    private static TimeSpan? CpuOf(Process process)
    {
        try
        {
            process.Refresh();
            return process.HasExited ? null : process.TotalProcessorTime;
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            return null;
        }
    }
}
