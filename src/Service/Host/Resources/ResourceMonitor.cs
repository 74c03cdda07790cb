using System.Diagnostics;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Host.Resources;

/// <summary>
/// Samples the machine's and the stacks' processes' CPU and memory every <see cref="Interval"/> and keeps the
/// latest reading for <c>GET /resources</c>; CPU percentages are over that interval, 0–100 of the cores the host may use now
/// (all of the machine's unless it is pinned: <see cref="ProcReader.AllowedCores"/>) (thesis Table 7.1: "% Processor Time", "Available MBytes").
/// </summary>
public sealed class ResourceMonitor(JvmProcessInfo jvm) : BackgroundService
{
    /// <summary>Time between readings.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(500);

    private ResourceSnapshot _latest = new(0, ProcReader.AvailableMemoryMb() ?? 0, 0, 0, 0, 0);

    /// <summary>The latest reading.</summary>
    public ResourceSnapshot Latest => Volatile.Read(ref _latest);

    /// <inheritdoc />
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var self = Process.GetCurrentProcess();
        // Pinned to some cores (an emulated-lan run, docs/topologies.md, or a taskset -p after start): machine CPU % is of
        // the host's own cores, and so are the process's and the JVM's CPU %. Read at each tick: the pinning can change.
        var machineCores = ProcReader.MachineCores() ?? Environment.ProcessorCount;
        var cores = ProcReader.AllowedCores();
        var lastMachine = ProcReader.MachineCpu(cores: cores);
        var lastSelf = self.TotalProcessorTime.TotalSeconds;
        var (lastJvmPid, lastJvm) = (jvm.ProcessId, jvm.ProcessId is { } p ? ProcReader.ProcessCpuSeconds(p) : null);
        var lastTime = Stopwatch.GetTimestamp();
        using var timer = new PeriodicTimer(Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                var now = Stopwatch.GetTimestamp();
                var nowCores = ProcReader.AllowedCores();
                var elapsedCoreSeconds = Stopwatch.GetElapsedTime(lastTime, now).TotalSeconds * (nowCores?.Count ?? machineCores);
                lastTime = now;

                if (!SameCores(cores, nowCores))
                {
                    // The host was pinned (or unpinned) since the last tick: start the machine reading over on its new cores.
                    (cores, lastMachine) = (nowCores, ProcReader.MachineCpu(cores: nowCores));
                }

                var machine = ProcReader.MachineCpu(cores: cores);
                var machineCpu = machine is { } m && lastMachine is { } lm && m.Total > lm.Total ? 100.0 * (m.Busy - lm.Busy) / (m.Total - lm.Total) : 0;
                lastMachine = machine;

                self.Refresh();
                var selfCpu = self.TotalProcessorTime.TotalSeconds;
                var selfPercent = elapsedCoreSeconds > 0 ? 100.0 * (selfCpu - lastSelf) / elapsedCoreSeconds : 0;
                lastSelf = selfCpu;

                double? jvmPercent = null, jvmResident = null;
                if (jvm.ProcessId is { } pid)
                {
                    var cpu = ProcReader.ProcessCpuSeconds(pid);
                    if (cpu is { } c && pid == lastJvmPid && lastJvm is { } lc)
                    {
                        jvmPercent = Math.Clamp(elapsedCoreSeconds > 0 ? 100.0 * (c - lc) / elapsedCoreSeconds : 0, 0, 100);
                    }

                    (lastJvmPid, lastJvm) = (pid, cpu);
                    jvmResident = ProcReader.ResidentMb(pid);
                }

                Volatile.Write(ref _latest, new ResourceSnapshot(
                    Math.Clamp(machineCpu, 0, 100),
                    ProcReader.AvailableMemoryMb() ?? 0,
                    Math.Clamp(selfPercent, 0, 100),
                    self.WorkingSet64 / (1024.0 * 1024.0),
                    GC.GetGCMemoryInfo().HeapSizeBytes / (1024.0 * 1024.0),
                    self.Threads.Count,
                    jvmPercent,
                    jvmResident,
                    cores?.Order().ToArray()));
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    private static bool SameCores(IReadOnlySet<int>? a, IReadOnlySet<int>? b) => a is null ? b is null : b is not null && a.SetEquals(b);
}
