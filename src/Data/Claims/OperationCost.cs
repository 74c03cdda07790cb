using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Data.Claims;

/// <summary>
/// Seed 004's cost per operation ("Comparing Binding Performance and Scalability", Figure 4.5: "the cost of an
/// operation in MCycles … a 3.4GHz Pentium 4 processor, which equates to 3400 MCycles"): the server's CPU time spent
/// per operation, as µs of CPU and as millions of clock cycles.
/// </summary>
/// <param name="CpuSeconds">CPU time of the server process over the window, in CPU-seconds (s).</param>
/// <param name="Operations">Operations completed in the window (successful measured requests).</param>
/// <param name="CpuUsPerOperation">CPU time per operation in µs: CPU-seconds × 10⁶ ÷ operations.</param>
/// <param name="MCyclesPerOperation">Clock cycles per operation in millions: CPU-seconds × clock (MHz) ÷ operations.</param>
/// <param name="ClockMHz">The clock rate used, in MHz.</param>
public sealed record OperationCost(double CpuSeconds, long Operations, double CpuUsPerOperation, double MCyclesPerOperation, double ClockMHz)
{
    /// <summary>
    /// The cost of <paramref name="operations"/> operations for a process that used <paramref name="cpuPercentOfAllCores"/>
    /// % of all <paramref name="cores"/> cores on average over <paramref name="window"/>:
    /// CPU-seconds = % ÷ 100 × cores × window (s); µs per operation = CPU-seconds × 10⁶ ÷ operations;
    /// MCycles per operation = CPU-seconds × clock (MHz) ÷ operations. Null when no operation completed.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The CPU % is not in 0–100, cores or the clock is not positive, the window is negative.</exception>
    public static OperationCost? Compute(double cpuPercentOfAllCores, int cores, TimeSpan window, long operations, double clockMHz)
    {
        if (!(cpuPercentOfAllCores is >= 0 and <= 100))
        {
            throw new ArgumentOutOfRangeException(nameof(cpuPercentOfAllCores), cpuPercentOfAllCores, "CPU % of all cores lies in 0–100.");
        }

        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        ArgumentOutOfRangeException.ThrowIfLessThan(window, TimeSpan.Zero);
        if (!(clockMHz > 0) || !double.IsFinite(clockMHz))
        {
            throw new ArgumentOutOfRangeException(nameof(clockMHz), clockMHz, "The clock rate must be a positive number of MHz.");
        }

        if (operations <= 0)
        {
            return null;
        }

        var cpuSeconds = cpuPercentOfAllCores / 100 * cores * window.TotalSeconds;
        return new OperationCost(cpuSeconds, operations, cpuSeconds * 1e6 / operations, cpuSeconds * clockMHz / operations, clockMHz);
    }
}

/// <summary>
/// Server resources over one level (variant × client × payload × clients), over its repetitions: the stack's own
/// process CPU, the machine's CPU and available memory, and seed 004's cost per operation. Each figure is an
/// <see cref="Estimate"/> over the repetitions that had readings in their window.
/// </summary>
/// <param name="StackCpuPercent">Mean server CPU % (0–100, all cores): from each repetition's window, the host process and its JVM (user + system at the window's ends); from periodic readings only for repetitions without them, the process that serves the variant (the host for aspnet and grpc, the JVM for metro and ice).</param>
/// <param name="MachineCpuPercent">Mean CPU % (0–100, all cores) of the server machine.</param>
/// <param name="AvailableMemoryMb">Mean available memory of the server machine, MB.</param>
/// <param name="CpuUsPerOperation">Server CPU per operation in µs (<see cref="OperationCost"/>).</param>
/// <param name="MCyclesPerOperation">Server CPU per operation in MCycles (<see cref="OperationCost"/>); <see cref="Estimate.N"/> = 0 when the clock rate is not known.</param>
/// <param name="Readings">Resource readings inside the level's windows, summed over repetitions.</param>
public sealed record LevelResources(
    Estimate StackCpuPercent,
    Estimate MachineCpuPercent,
    Estimate AvailableMemoryMb,
    Estimate CpuUsPerOperation,
    Estimate MCyclesPerOperation,
    int Readings)
{
    /// <summary>
    /// Mean CPU of the stack's process as % of one core (100 = one core busy the whole level, <c>top</c>'s convention):
    /// <see cref="StackCpuPercent"/> × the server's cores. It compares across topologies, where the server has different
    /// cores (all of the machine's on-machine, the host's pinned cores over an emulated LAN, docs/topologies.md); within
    /// one topology its ratios equal those of <see cref="StackCpuPercent"/>.
    /// </summary>
    public Estimate StackCpuPercentOfOneCore { get; init; }

    /// <summary>The per-repetition values behind <see cref="StackCpuPercentOfOneCore"/> (% of one core), for the claims' tests on observations.</summary>
    public IReadOnlyList<double> StackCpuPercentOfOneCoreValues { get; init; } = [];

    /// <summary>The per-repetition values behind <see cref="AvailableMemoryMb"/> (MB).</summary>
    public IReadOnlyList<double> AvailableMemoryMbValues { get; init; } = [];

    /// <summary>The per-repetition values behind <see cref="CpuUsPerOperation"/> (µs).</summary>
    public IReadOnlyList<double> CpuUsPerOperationValues { get; init; } = [];

    /// <summary>The process of a stack as <c>GET /resources</c> reports it: <c>jvm</c> for metro and ice, <c>host</c> otherwise.</summary>
    public static string ProcessOf(string variant) =>
        VariantCatalogue.TryGet(variant, out var v) && v.Stack is "metro" or "ice" ? "jvm" : "host";

    /// <summary>
    /// The resources of one aggregate's repetitions (<paramref name="repetitions"/>, stored levels of one run or several).
    /// Server CPU comes from each repetition's own window (issue #32): the server's CPU counters (host process and JVM,
    /// user + system) read at the window's two ends, stored as <see cref="LevelEntity.ServerCpuPercent"/> (% of the cores
    /// the host may use) and <see cref="LevelEntity.ServerCpuMicrosPerRequest"/> (µs per request); the machine's share from
    /// <see cref="LevelEntity.MachineBusyPercent"/>. Only a repetition without them (a run stored before window accounting,
    /// or a host without <c>GET /cpu</c>) falls back to the periodic resource readings inside its start–end span:
    /// <paramref name="readingsOf"/> gives, per run id, its readings and the time their offsets count from (the run's start
    /// as the runner wrote it), the stack's process (<see cref="ProcessOf"/>) and <see cref="OperationCost.Compute"/> over
    /// the span. Available memory comes only from the readings. <paramref name="cores"/> is the server's logical core count
    /// (the host's pinned cores in emulated-lan), <paramref name="clockMHz"/> its clock rate (null: no MCycles). Repetitions
    /// with neither are left out; null when none has CPU figures.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static LevelResources? Of(
        IReadOnlyList<LevelEntity> repetitions,
        Func<int, (IReadOnlyList<ResourceSampleEntity> Readings, DateTime Origin)?> readingsOf,
        int cores,
        double? clockMHz)
    {
        ArgumentNullException.ThrowIfNull(repetitions);
        ArgumentNullException.ThrowIfNull(readingsOf);
        List<double> stack = [], oneCore = [], machine = [], memory = [], us = [], mcycles = [];
        var count = 0;
        foreach (var level in repetitions)
        {
            IReadOnlyList<ResourceSampleEntity> inside = [];
            if (readingsOf(level.RunId) is { } run)
            {
                var from = (long)(level.StartedUtc - run.Origin).TotalMilliseconds;
                var to = (long)(level.EndedUtc - run.Origin).TotalMilliseconds;
                inside = [.. run.Readings.Where(r => r.OffsetMs >= from && r.OffsetMs <= to)];
            }

            var jvm = ProcessOf(level.Variant) == "jvm";
            var periodic = inside.Select(r => jvm ? r.JvmCpuPercent : r.ProcessCpuPercent).Where(c => c is not null).Select(c => Math.Clamp(c!.Value, 0, 100)).ToList();
            var window = level.ServerCpuPercent is not null && level.ServerCpuMicrosPerRequest is not null;
            if (!window && periodic.Count == 0)
            {
                continue;
            }

            count += inside.Count;
            var percent = window ? Math.Clamp(level.ServerCpuPercent!.Value, 0, 100) : periodic.Average();
            stack.Add(percent);
            oneCore.Add(percent * cores);
            if (window && level.MachineBusyPercent is { } busy)
            {
                machine.Add(Math.Clamp(busy, 0, 100));
            }
            else if (inside.Count > 0)
            {
                machine.Add(inside.Average(r => Math.Clamp(r.MachineCpuPercent, 0, 100)));
            }

            if (inside.Count > 0)
            {
                memory.Add(inside.Average(r => Math.Max(0, r.AvailableMemoryMb)));
            }

            var perOperation = window ? level.ServerCpuMicrosPerRequest
                : OperationCost.Compute(percent, cores, level.EndedUtc - level.StartedUtc, level.Requests - level.Errors, clockMHz ?? 1)?.CpuUsPerOperation;
            if (perOperation is { } u)
            {
                us.Add(u);
                if (clockMHz is { } mhz)
                {
                    // µs × MHz = cycles; ÷ 10⁶ = MCycles (seed 004's unit).
                    mcycles.Add(u * mhz / 1e6);
                }
            }
        }

        return stack.Count == 0 ? null
            : new LevelResources(Estimate.Of(stack), Estimate.Of(machine), Estimate.Of(memory), Estimate.Of(us), Estimate.Of(mcycles), count)
            {
                StackCpuPercentOfOneCore = Estimate.Of(oneCore),
                StackCpuPercentOfOneCoreValues = oneCore,
                AvailableMemoryMbValues = memory,
                CpuUsPerOperationValues = us,
            };
    }
}
