using System.Diagnostics;
using System.Globalization;
using Dashboard.Data.Statistics;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Load;

/// <summary>
/// The CPU counters read at one end of a level's window (issue #32, item 2; docs/statistics.md, "CPU per request, from
/// the window's ends"): the server's as its host reported them (<c>GET /cpu</c>), the generator's own (runner + its
/// driver processes, from <c>/proc</c>) and this machine's <c>/proc/stat</c>.
/// </summary>
/// <param name="Timestamp">When it was read (a <see cref="Stopwatch"/> timestamp, taken before the local counters).</param>
/// <param name="Server">The host's counters; null when they could not be read (<paramref name="ServerError"/> says why).</param>
/// <param name="ServerError">Why <paramref name="Server"/> is null; null when read or not asked.</param>
/// <param name="GeneratorCpuSeconds">User + system CPU of the runner and every driver process it started, s; null when not tracked.</param>
/// <param name="Machine">This machine's counters; null where <c>/proc/stat</c> cannot be read.</param>
/// <param name="BootId">This machine's boot id (the same as the host's when both read one <c>/proc/stat</c>).</param>
public sealed record CpuReading(long Timestamp, CpuCounters? Server, string? ServerError, double? GeneratorCpuSeconds, MachineCpuCounters? Machine, string? BootId);

/// <summary>
/// A level's CPU figures from the readings at its window's two ends (<see cref="WindowCpu.Between"/>). Every CPU share
/// is of the cores that side may use; per-request figures divide by the requests served in the window.
/// </summary>
/// <param name="Seconds">Wall time between the two readings, s.</param>
/// <param name="ServerCpuSeconds">Server processes' (host + JVM) CPU in the window, s; null when not measured.</param>
/// <param name="ServerCpuMicrosPerRequest">That ÷ requests, µs; null when not measured or no request.</param>
/// <param name="ServerCpuPercent">That ÷ (window × the host's cores), % (0–100); null when not measured.</param>
/// <param name="ServerMissingReason">Why the server figures are null (host restarted, unreachable); null when measured or not asked.</param>
/// <param name="GeneratorCpuSeconds">Runner + drivers CPU in the window, s; null when not tracked.</param>
/// <param name="GeneratorCpuMicrosPerRequest">That ÷ requests, µs.</param>
/// <param name="GeneratorCpuPercent">That ÷ (window × the generator's cores), % (0–100).</param>
/// <param name="MachineBusyPercent">The server's machine's (else this one's) busy share over the window, %.</param>
/// <param name="StealPercent">Steal, % of the machine's time (the larger of the two machines').</param>
/// <param name="OthersCpuCores">Others' CPU in cores, less the counters' resolution, ≥ 0 (the larger of the two machines').</param>
/// <param name="Disturbed">True when others or steal were above <see cref="QuietMachine"/>'s limits; null when not measured.</param>
public sealed record WindowFigures(
    double Seconds,
    double? ServerCpuSeconds,
    double? ServerCpuMicrosPerRequest,
    double? ServerCpuPercent,
    string? ServerMissingReason,
    double? GeneratorCpuSeconds,
    double? GeneratorCpuMicrosPerRequest,
    double? GeneratorCpuPercent,
    double? MachineBusyPercent,
    double? StealPercent,
    double? OthersCpuCores,
    bool? Disturbed);

/// <summary>
/// Reads <see cref="CpuReading"/>s at the two ends of a level's window and turns two of them into its
/// <see cref="WindowFigures"/>. The level loop calls <see cref="ReadAsync"/> just before and just after the window; the
/// periodic once-a-second readings stay for the over-time charts only. Thread-safe.
/// </summary>
/// <param name="server">Reads the host's counters (<c>GET /cpu</c>); null: the server is not measured.</param>
/// <param name="generator">The runner and its driver processes; null: the runner alone.</param>
/// <param name="untrackedLocalProcesses">
/// True when processes of the benchmark that this runner does not track run on this machine (load agents): then others'
/// CPU on this machine cannot be told apart from them and is left unmeasured.
/// </param>
public sealed class WindowCpu(Func<CancellationToken, Task<(CpuCounters? Counters, string? Error)>>? server, GeneratorProcesses? generator, bool untrackedLocalProcesses = false)
{
    /// <summary>The resolution of one <c>/proc</c> CPU counter: one clock tick, s.</summary>
    public const double TickSeconds = 1 / ProcCounters.TicksPerSecond;

    /// <summary>Reads every counter now: the server's first (a request to its host), then this machine's.</summary>
    /// <exception cref="OperationCanceledException">Cancelled.</exception>
    public async Task<CpuReading> ReadAsync(CancellationToken cancellationToken)
    {
        var (counters, error) = server is null ? (null, null) : await server(cancellationToken);
        var timestamp = Stopwatch.GetTimestamp();
        var generatorCpu = generator is null ? ProcCounters.Process(Environment.ProcessId)?.CpuSeconds : generator.TotalCpu().TotalSeconds;
        return new CpuReading(timestamp, counters, error, generatorCpu, ProcCounters.Machine(), ProcCounters.BootId());
    }

    /// <summary>The window's figures from its two readings.</summary>
    /// <param name="start">The reading at the window's start.</param>
    /// <param name="end">The reading at its end.</param>
    /// <param name="requests">Requests served in the window (every sample of the level: errors and warm-up ones included, all inside it).</param>
    /// <param name="generatorCores">The cores the generator may use (its CPU affinity).</param>
    public WindowFigures Between(CpuReading start, CpuReading end, long requests, int generatorCores)
    {
        ArgumentNullException.ThrowIfNull(start);
        ArgumentNullException.ThrowIfNull(end);
        var seconds = Stopwatch.GetElapsedTime(start.Timestamp, end.Timestamp).TotalSeconds;
        double? PerRequest(double? cpu) => cpu is { } c && requests > 0 ? c * 1e6 / requests : null;
        double? Share(double? cpu, int cores) => cpu is { } c && seconds > 0 ? Math.Clamp(100.0 * c / (seconds * Math.Max(cores, 1)), 0, 100) : null;

        var (serverCpu, serverProcesses, missing) = ServerDelta(start, end);
        var serverCores = end.Server is { } s ? s.Cores is { Count: > 0 } c ? c.Count : s.Machine.Cores : 1;
        var generatorCpu = start.GeneratorCpuSeconds is { } g0 && end.GeneratorCpuSeconds is { } g1 ? Math.Max(0, g1 - g0) : (double?)null;

        // This machine: busy less our processes on it (the generator's; the server's too when the host reads the same /proc/stat).
        var sameMachine = end.BootId is not null && end.Server?.BootId == end.BootId;
        var local = untrackedLocalProcesses ? null : Machine(start.Machine, end.Machine,
            (generatorCpu ?? double.NaN) + (sameMachine ? serverCpu ?? double.NaN : 0), 2 + (generator?.Count ?? 0) + (sameMachine ? serverProcesses : 0));
        // The server's machine when it is another one: busy less the server's processes.
        var remote = sameMachine || start.Server is null || end.Server is null ? null
            : Machine(start.Server.Machine, end.Server.Machine, serverCpu ?? double.NaN, 2 + serverProcesses);
        var others = Max(local?.Others, remote?.Others);
        var steal = Max(local?.Steal, remote?.Steal);
        var busy = remote?.Busy ?? local?.Busy;
        return new WindowFigures(seconds, serverCpu, PerRequest(serverCpu), Share(serverCpu, serverCores), missing,
            generatorCpu, PerRequest(generatorCpu), Share(generatorCpu, generatorCores), busy, steal, others, QuietMachine.IsDisturbed(others, steal));
    }

    private static (double? Cpu, int Processes, string? Missing) ServerDelta(CpuReading start, CpuReading end)
    {
        if (start.Server is null || end.Server is null)
        {
            var error = start.ServerError ?? end.ServerError;
            return (null, 0, error is null ? null : $"the host's CPU counters could not be read: {error}");
        }

        double cpu = 0;
        foreach (var after in end.Server.Processes)
        {
            var before = start.Server.Processes.FirstOrDefault(p => p.Stack == after.Stack);
            if (before is null || before.ProcessId != after.ProcessId || before.StartTicks != after.StartTicks)
            {
                return (null, 0, string.Create(CultureInfo.InvariantCulture,
                    $"the host's {after.Stack} process {(before is null ? "started" : "restarted")} during the window (process {after.ProcessId}, start {after.StartTicks}{(before is null ? "" : $"; was {before.ProcessId}, start {before.StartTicks}")})"));
            }

            cpu += after.CpuSeconds - before.CpuSeconds;
        }

        if (start.Server.Processes.FirstOrDefault(p => end.Server.Processes.All(a => a.Stack != p.Stack)) is { } gone)
        {
            return (null, 0, $"the host's {gone.Stack} process (process {gone.ProcessId}) ended during the window");
        }

        return (Math.Max(0, cpu), end.Server.Processes.Count, null);
    }

    // Busy share, steal share and others' cores of one machine between two readings; ours = our processes' CPU there (NaN: unknown).
    private static (double Busy, double Steal, double? Others)? Machine(MachineCpuCounters? start, MachineCpuCounters? end, double ours, int counters)
    {
        if (start is null || end is null || end.TotalSeconds <= start.TotalSeconds)
        {
            return null;
        }

        var total = end.TotalSeconds - start.TotalSeconds;
        var busy = end.BusySeconds - start.BusySeconds;
        var steal = end.StealSeconds - start.StealSeconds;
        var wall = total / Math.Max(end.Cores, 1);
        // Each counter read at each end is whole ticks: allow one tick per counter so a short quiet window is not flagged.
        var resolution = counters * TickSeconds;
        double? others = double.IsNaN(ours) ? null : Math.Max(0, busy - ours - resolution) / wall;
        return (100.0 * busy / total, 100.0 * steal / total, others);
    }

    private static double? Max(double? a, double? b) => a is null ? b : b is null ? a : Math.Max(a.Value, b.Value);
}
