using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>Where a duration shown for a scenario comes from.</summary>
public enum DurationSource
{
    /// <summary>The wall time of the last completed run of the same scenario on this dashboard.</summary>
    Measured,

    /// <summary>Computed from the scenario with throughputs measured here (stored levels of earlier runs) where there are some.</summary>
    Calibrated,

    /// <summary>Computed from the scenario with the default throughputs of an idle 2-core machine (no run here yet).</summary>
    Estimated,
}

/// <summary>A scenario's expected wall time and where the figure comes from.</summary>
/// <param name="Duration">Wall time, runner and client start-up included.</param>
/// <param name="Source">Measured, calibrated or estimated.</param>
/// <param name="MeasuredUtc">When the measured run ended (UTC), for <see cref="DurationSource.Measured"/>; else null.</param>
public sealed record DurationFigure(TimeSpan Duration, DurationSource Source, DateTime? MeasuredUtc = null)
{
    /// <summary>"12 s", "4 min", "2.5 h": the duration rounded for people.</summary>
    public string Text => Format(Duration);

    /// <summary>
    /// The shortest wall time the plan allows (every steady-state warm-up ends after its first k windows); null for a
    /// measured figure. With <see cref="High"/> it is the estimate's uncertainty.
    /// </summary>
    public TimeSpan? Low { get; init; }

    /// <summary>The longest wall time the plan allows at the assumed throughputs (every warm-up runs to its cap); null for a measured figure.</summary>
    public TimeSpan? High { get; init; }

    /// <summary>"2–3 min": <see cref="Low"/> to <see cref="High"/> rounded for people, or null for a measured figure or when they round alike.</summary>
    public string? RangeText => Low is { } low && High is { } high && Format(low) != Format(high) ? $"{Format(low)} – {Format(high)}" : null;

    /// <summary>A short wall time: seconds below 2 min, minutes below 2 h, hours with one decimal above.</summary>
    public static string Format(TimeSpan duration) =>
        duration < TimeSpan.FromMinutes(2) ? FormattableString.Invariant($"{Math.Max(1, Math.Round(duration.TotalSeconds, MidpointRounding.AwayFromZero)):0} s")
        : duration < TimeSpan.FromHours(2) ? FormattableString.Invariant($"{Math.Round(duration.TotalMinutes, MidpointRounding.AwayFromZero):0} min")
        : FormattableString.Invariant($"{duration.TotalHours:0.#} h");
}

/// <summary>A throughput measured here: one stored level's variant, client, payload, concurrency and req/s.</summary>
/// <param name="Variant">Endpoint variant id.</param>
/// <param name="Client">Client technology id.</param>
/// <param name="Payload">Payload case id.</param>
/// <param name="Clients">Concurrent clients of the level.</param>
/// <param name="ThroughputRps">Its throughput in req/s.</param>
public sealed record MeasuredThroughput(string Variant, string Client, string Payload, int Clients, double ThroughputRps);

/// <summary>
/// Expected wall time of a scenario, computed from its plan in this one place (docs/web.md, "Durations"; issue #32): the
/// run's start (<see cref="RunStartSeconds"/>), then per launch and runnable cell (<see cref="ScenarioCells"/> × payloads) a
/// client start (<see cref="ClientStartSeconds"/>; per repetition with <c>freshClientPerRepetition</c>), and per level and
/// repetition its warm-up (the steady-state warm-up's typical length, <see cref="TypicalWarmupSeconds"/>, plus the warm-up
/// requests at the level's throughput), its measured window (the level's duration, or clients × requests ÷ throughput), and a
/// fixed cost (<see cref="LevelOverheadSeconds"/>: driver round trips, storing the level) plus the cost of storing each sample
/// (<see cref="SampleStoreSeconds"/>). Throughputs come from <paramref name="measured"/> levels of this dashboard (the nearest
/// concurrency of the same variant × client × payload, else of the same variant × client) and otherwise from defaults for
/// an idle 2-core machine (sequential and saturated req/s per stack, docs/web.md "Presets"). The figure's
/// <see cref="DurationFigure.Low"/> and <see cref="DurationFigure.High"/> take every warm-up at its shortest (k windows) and at its cap.
/// </summary>
public sealed class DurationEstimator(IReadOnlyList<MeasuredThroughput> measured)
{
    /// <summary>Cost of one level beyond its requests: the driver's round trip, storing the level row (s).</summary>
    public const double LevelOverheadSeconds = 0.15;

    /// <summary>Cost of storing one raw sample (s): the level's samples are written in one transaction after it.</summary>
    public const double SampleStoreSeconds = 4e-6;

    /// <summary>Cost of starting the runner, reading the host's endpoints and versions (s).</summary>
    public const double RunStartSeconds = 2.0;

    /// <summary>An estimator with no measured throughput (defaults only).</summary>
    public static DurationEstimator Default { get; } = new([]);

    /// <summary>The expected wall time of <paramref name="scenario"/> with its range; <see cref="DurationSource.Calibrated"/> when a measured throughput was used.</summary>
    public DurationFigure Estimate(ScenarioDocument scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var cells = ScenarioCells.Of(scenario.Variants, scenario.Clients);
        var payloads = (scenario.Payloads ?? []).Distinct().ToList();
        var levels = scenario.LevelValues.Where(l => l > 0).ToList();
        var repetitions = Math.Max(1, scenario.Repetitions);
        var launches = Math.Max(1, scenario.Launches ?? 1);
        var (typical, shortest, longest) = scenario.SteadyState is { } steady
            ? (TypicalWarmupSeconds(steady), steady.Windows * steady.Window.TotalSeconds, steady.MaxWarmup.TotalSeconds + steady.Window.TotalSeconds)
            : (0.0, 0.0, 0.0);
        // A fresh host per launch (docs/statistics.md, "Launches"): the dashboard's local host restarts before launch 2, 3, …
        var fixedSeconds = RunStartSeconds + (launches - 1) * HostRestartSeconds(scenario.Variants);
        var levelRepetitions = 0;
        var calibrated = false;
        foreach (var pair in cells.Runnable)
        {
            foreach (var payload in payloads)
            {
                fixedSeconds += launches * ClientStartSeconds(pair.Client) * (scenario.FreshClientPerRepetition ? repetitions : 1);
                foreach (var clients in levels)
                {
                    // An open level's value is its arrival rate: its requests follow the schedule (a warm-up of `warmup` requests, then the duration).
                    var (rps, fromHere) = scenario.IsOpen ? (clients, false) : Throughput(pair, payload, clients);
                    calibrated |= fromHere;
                    var warmupCount = (scenario.IsOpen ? 1 : clients) * (double)Math.Max(0, scenario.Warmup);
                    var warmupRequests = warmupCount / rps;
                    var window = scenario.Duration is { } d ? d.TotalSeconds
                        : clients * (double)Math.Max(0, scenario.RequestsPerClient ?? 0) / rps;
                    var samples = rps * window + warmupCount;
                    fixedSeconds += launches * repetitions * (warmupRequests + window + LevelOverheadSeconds + samples * SampleStoreSeconds);
                    levelRepetitions += launches * repetitions;
                }
            }
        }

        // A precision target adds repetitions after the planned ones, until reached or its time limit: the typical figure
        // is the planned run (and at least the 3 repetitions an interval needs), the high end adds the whole time limit.
        var planned = fixedSeconds + levelRepetitions * typical;
        var extra = scenario.Precision is null ? 0 : (scenario.PrecisionTimeLimit ?? PrecisionTarget.DefaultTimeLimit).TotalSeconds;
        var toThree = scenario.Precision is not null && repetitions < 3 ? (3.0 - repetitions) / repetitions : 0;
        return new DurationFigure(TimeSpan.FromSeconds(planned * (1 + toThree)), calibrated ? DurationSource.Calibrated : DurationSource.Estimated)
        {
            Low = TimeSpan.FromSeconds((fixedSeconds + levelRepetitions * shortest) * (1 + toThree)),
            High = TimeSpan.FromSeconds((fixedSeconds + levelRepetitions * longest) * (1 + toThree) + extra),
        };
    }

    /// <summary>
    /// The typical length of a steady-state warm-up (s): halfway between its shortest (the first k windows already agree)
    /// and its cap plus the window that crosses it. On a shared 2-core machine about half the levels of preset 1 quick
    /// reached steady state and the rest ran to the cap (issue #32), so the midpoint is the expectation.
    /// </summary>
    public static double TypicalWarmupSeconds(SteadyStateSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var shortest = settings.Windows * settings.Window.TotalSeconds;
        var longest = settings.MaxWarmup.TotalSeconds + settings.Window.TotalSeconds;
        return (shortest + Math.Max(shortest, longest)) / 2;
    }

    private (double Rps, bool FromHere) Throughput(CellPair pair, string payload, int clients)
    {
        var candidates = measured.Where(m => m.Variant == pair.Variant && m.Client == pair.Client && m.ThroughputRps > 0).ToList();
        var samePayload = candidates.Where(m => m.Payload == payload).ToList();
        var pool = samePayload.Count > 0 ? samePayload : candidates;
        if (pool.Count > 0)
        {
            var nearest = pool.MinBy(m => Math.Abs(Math.Log(m.Clients) - Math.Log(clients)))!;
            return (nearest.ThroughputRps, true);
        }

        return (DefaultThroughput(pair, clients), false);
    }

    /// <summary>
    /// Default req/s for an idle 2-core machine with the load generator on it: sequential (one client) and saturated
    /// rates per stack and client, in the order of the reference figures in docs/web.md; linear in between up to 10 clients.
    /// </summary>
    public static double DefaultThroughput(CellPair pair, int clients)
    {
        ArgumentNullException.ThrowIfNull(pair);
        var stack = VariantCatalogue.TryGet(pair.Variant, out var v) ? v.Stack : VariantCatalogue.AspNet;
        var (sequential, saturated) = (stack, pair.Client) switch
        {
            (_, "node") => (800.0, 2500.0),
            (VariantCatalogue.Ice, _) => (8000.0, 15000.0),
            (VariantCatalogue.Metro, "java") => (2600.0, 6000.0),
            (VariantCatalogue.Metro, _) => (1500.0, 6000.0),
            _ => (3000.0, 15000.0),
        };
        var secureFactor = v?.IsSecure == true ? 0.6 : 1.0;
        var rate = clients <= 1 ? sequential : Math.Min(saturated, sequential * clients);
        return rate * secureFactor;
    }

    /// <summary>
    /// Seconds to restart the service host between launches (<c>POST /restart</c> until its stacks are up): about 3 s for
    /// the host alone, 15 s when a variant needs the JVM service (metro, ice), which starts again with it. A host the
    /// launches share costs nothing, so for one the figure is high by this much.
    /// </summary>
    public static double HostRestartSeconds(IEnumerable<string> variants) =>
        variants.Any(v => VariantCatalogue.TryGet(v, out var variant) && variant.Stack is VariantCatalogue.Metro or VariantCatalogue.Ice) ? 15.0 : 3.0;

    /// <summary>Seconds to start one cell's client: the runner's own dotnet client at once, a JVM or Node process longer.</summary>
    public static double ClientStartSeconds(string client) => client switch
    {
        "java" => 1.5,
        "node" => 0.8,
        _ => 0.1,
    };
}
