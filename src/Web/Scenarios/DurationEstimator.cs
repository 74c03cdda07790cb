using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Web.Scenarios;

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
/// Expected wall time of a scenario: for every runnable cell (<see cref="ScenarioCells"/> × payloads), a client start,
/// then per level and repetition the level's requests (clients × (warm-up + measured requests)) at the level's
/// throughput, or its duration plus the warm-up, plus a fixed per-level cost (driver round trips, storing the level).
/// Throughputs come from <paramref name="measured"/> levels of this dashboard (the nearest concurrency of the same
/// variant × client × payload, else of the same variant × client) and otherwise from defaults for an idle 2-core
/// machine (sequential and saturated req/s per stack, docs/web.md "Presets").
/// </summary>
public sealed class DurationEstimator(IReadOnlyList<MeasuredThroughput> measured)
{
    /// <summary>Cost of one level beyond its requests: the driver's round trip, storing the level and its samples (s).</summary>
    public const double LevelOverheadSeconds = 0.12;

    /// <summary>Cost of starting the runner and reading the host's endpoints (s).</summary>
    public const double RunStartSeconds = 1.5;

    /// <summary>An estimator with no measured throughput (defaults only).</summary>
    public static DurationEstimator Default { get; } = new([]);

    /// <summary>The expected wall time of <paramref name="scenario"/>; <see cref="DurationSource.Calibrated"/> when a measured throughput was used.</summary>
    public DurationFigure Estimate(ScenarioDocument scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var cells = ScenarioCells.Of(scenario.Variants, scenario.Clients);
        var payloads = (scenario.Payloads ?? []).Distinct().ToList();
        var levels = (scenario.Levels ?? []).Where(l => l > 0).ToList();
        var repetitions = Math.Max(1, scenario.Repetitions);
        var seconds = RunStartSeconds;
        var calibrated = false;
        foreach (var pair in cells.Runnable)
        {
            foreach (var payload in payloads)
            {
                seconds += ClientStartSeconds(pair.Client);
                foreach (var clients in levels)
                {
                    var (rps, fromHere) = Throughput(pair, payload, clients);
                    calibrated |= fromHere;
                    var warmup = clients * (double)Math.Max(0, scenario.Warmup) / rps;
                    var measuredPart = scenario.Duration is { } d ? d.TotalSeconds
                        : clients * (double)Math.Max(0, scenario.RequestsPerClient ?? 0) / rps;
                    seconds += repetitions * (warmup + measuredPart + LevelOverheadSeconds);
                }
            }
        }

        return new DurationFigure(TimeSpan.FromSeconds(seconds), calibrated ? DurationSource.Calibrated : DurationSource.Estimated);
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

    /// <summary>Seconds to start one cell's client: the runner's own dotnet client at once, a JVM or Node process longer.</summary>
    public static double ClientStartSeconds(string client) => client switch
    {
        "java" => 1.5,
        "node" => 0.8,
        _ => 0.1,
    };
}
