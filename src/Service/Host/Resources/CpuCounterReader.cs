using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Host.Resources;

/// <summary>
/// The host's answer to <c>GET /cpu</c>: cumulative CPU seconds of each stack process (this process for aspnet, the JVM's
/// while it runs), read from <c>/proc</c> at the moment of the request, with the machine's counters (issue #32, item 2).
/// </summary>
public sealed class CpuCounterReader(JvmProcessInfo jvm)
{
    /// <summary>The counters now; a process that cannot be read (not Linux, the JVM just ended) is left out of the list.</summary>
    public CpuCounters Read()
    {
        var processes = new List<ProcessCpu>(2);
        Add(processes, "aspnet", Environment.ProcessId);
        if (jvm.ProcessId is { } pid)
        {
            Add(processes, "jvm", pid);
        }

        var machine = ProcCounters.Machine() ?? new MachineCpuCounters(0, 0, 0, Environment.ProcessorCount);
        return new CpuCounters(processes, machine, ProcReader.AllowedCores()?.Order().ToArray(), ProcCounters.BootId());
    }

    private static void Add(List<ProcessCpu> processes, string stack, int pid)
    {
        if (ProcCounters.Process(pid) is { } read)
        {
            processes.Add(new ProcessCpu(stack, pid, read.StartTicks, read.CpuSeconds));
        }
    }
}
