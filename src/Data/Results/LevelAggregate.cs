using Dashboard.Data.Measurement;

namespace Dashboard.Data.Results;

/// <summary>
/// One level over its repetitions: one row per (variant, client, payload, clients) of a run, built from the stored
/// levels (warm-up already excluded there; docs/statistics.md) by <see cref="LevelAggregation"/>.
/// Response-time figures are over the repetitions that had at least one successful request (a repetition where every
/// request failed has no response time); throughput is over every repetition (0 when nothing completed).
/// </summary>
public sealed record LevelAggregate
{
    /// <summary>Endpoint variant id (docs/service-contract.md), e.g. <c>AspNetH2BinXml</c>.</summary>
    public required string Variant { get; init; }

    /// <summary>Client technology id (docs/driver-protocol.md, "Client technologies"), e.g. <c>java</c>.</summary>
    public required string Client { get; init; }

    /// <summary>Payload case id (docs/service-contract.md), e.g. <c>IntArray1000</c>.</summary>
    public required string Payload { get; init; }

    /// <summary>The level's value: closed-loop clients, or for an open level (<see cref="IsOpen"/>) the offered arrival rate in req/s.</summary>
    public required int Clients { get; init; }

    /// <summary>True for an open level (scenario <c>workload: "open"</c>): <see cref="Clients"/> is an arrival rate in req/s, not a client count.</summary>
    public bool IsOpen { get; init; }

    /// <summary>Repetitions stored for this level.</summary>
    public required int Repetitions { get; init; }

    /// <summary>Throughput in req/s (thesis ch. 7.2.2): mean over repetitions, CoV, and from 3 repetitions its 95 % confidence interval (log scale, <see cref="Estimate"/>).</summary>
    public required Estimate ThroughputRps { get; init; }

    /// <summary>Mean response time in ms (thesis ch. 7.2.2): mean over repetitions with successes, CoV and (from 3) log-scale 95 % interval; <see cref="Estimate.N"/> = 0 when no request succeeded.</summary>
    public required Estimate MeanMs { get; init; }

    /// <summary>Median response time in ms, mean over repetitions with successes (0 when none).</summary>
    public required double P50Ms { get; init; }

    /// <summary>90th percentile of response time in ms, mean over repetitions with successes.</summary>
    public required double P90Ms { get; init; }

    /// <summary>99th percentile of response time in ms, mean over repetitions with successes.</summary>
    public required double P99Ms { get; init; }

    /// <summary>99.9th percentile of response time in ms, mean over repetitions with successes.</summary>
    public required double P999Ms { get; init; }

    /// <summary>Largest response time in ms, mean of the repetitions' maxima (so it sits with the percentiles above).</summary>
    public required double MaxMs { get; init; }

    /// <summary>Measured requests, summed over repetitions.</summary>
    public required long Requests { get; init; }

    /// <summary>Failed measured requests of any kind, summed over repetitions.</summary>
    public required long Errors { get; init; }

    /// <summary>Timeouts, summed over repetitions.</summary>
    public long TimeoutErrors { get; init; }

    /// <summary>Faults (error replies), summed over repetitions.</summary>
    public long FaultErrors { get; init; }

    /// <summary>Connection failures, summed over repetitions.</summary>
    public long ConnectionErrors { get; init; }

    /// <summary>Requests refused for their credentials, summed over repetitions.</summary>
    public long AuthenticationErrors { get; init; }

    /// <summary>Replies that parsed but were not what the payload case expects, summed over repetitions.</summary>
    public long WrongReplyErrors { get; init; }

    /// <summary>Other failures, summed over repetitions.</summary>
    public long OtherErrors { get; init; }

    /// <summary>Mean request bytes on the wire (seed 002), mean over the repetitions that counted them; null when none did.</summary>
    public double? MeanRequestBytes { get; init; }

    /// <summary>Mean response bytes on the wire, mean over the repetitions that counted them; null when none did.</summary>
    public double? MeanResponseBytes { get; init; }

    /// <summary>Mean CPU % (0–100, all cores) of the load generator, mean over the repetitions that measured it; null when none did.</summary>
    public double? GeneratorCpuPercent { get; init; }

    /// <summary>Median response time in ms over the repetitions with successes, as an estimate (mean, CoV, log-scale interval from 3 observations; over launches like <see cref="ThroughputRps"/>).</summary>
    public Estimate P50 { get; init; }

    /// <summary>
    /// The independent observations <see cref="ThroughputRps"/> stands on (<see cref="Estimate.Independent"/>: one per
    /// repetition, or per launch when the repetitions come from 2 or more launches), keyed by repetition or launch: what
    /// the compare page and rankings test (<see cref="SampleTests.Difference"/>).
    /// </summary>
    public IReadOnlyList<Observation> ThroughputObservations { get; init; } = [];

    /// <summary>The independent observations <see cref="MeanMs"/> stands on (repetitions with successes; per launch as for <see cref="ThroughputObservations"/>).</summary>
    public IReadOnlyList<Observation> MeanMsObservations { get; init; } = [];

    /// <summary>The independent observations <see cref="P50"/> stands on (repetitions with successes; per launch as for <see cref="ThroughputObservations"/>).</summary>
    public IReadOnlyList<Observation> P50Observations { get; init; } = [];

    /// <summary>
    /// True when every repetition counted here ran to its end. False only when partial levels were asked for
    /// (<see cref="LevelAggregation.Aggregate(IEnumerable{Entities.LevelEntity}, bool)"/> with <c>includePartial</c>): then
    /// <see cref="PartialRepetitions"/> says how many were cut, and the level must be flagged and kept out of comparisons.
    /// </summary>
    public bool Complete => PartialRepetitions == 0;

    /// <summary>Repetitions counted here that were cut by a cancel, crash or failed driver (0 unless partial levels were asked for).</summary>
    public int PartialRepetitions { get; init; }

    /// <summary>
    /// Steady state before measuring: true when every repetition reached it, false when at least one was measured before
    /// it (flagged), null when the scenario's <c>steadyState</c> was off.
    /// </summary>
    public bool? SteadyStateReached { get; init; }

    /// <summary>Mean steady-state warm-up length in s over the repetitions that had one; null when off.</summary>
    public double? SteadyStateWarmupSeconds { get; init; }

    /// <summary>Mean server CPU % (0–100, all its cores) over the repetitions that measured it; null when none did.</summary>
    public double? ServerCpuPercent { get; init; }

    /// <summary>
    /// What bound the level: <c>Generator</c> when any repetition was generator-bound (this is not the server's capacity),
    /// else <c>Server</c> when any was server-bound, else <c>Neither</c>; null when no repetition measured CPU.
    /// </summary>
    public Entities.LevelBound? Bound { get; init; }

    /// <summary>Generator CPU per measured request in µs, mean over the repetitions that measured it; null when none did.</summary>
    public double? GeneratorCpuMicrosPerRequest { get; init; }

    /// <summary>
    /// Server CPU per request in µs (from each repetition's window, docs/statistics.md), over the repetitions that measured
    /// it: mean, CoV and from 3 repetitions its 95 % interval (log scale); null when none did.
    /// </summary>
    public Estimate? ServerCpuPerRequest { get; init; }

    /// <summary>Generator (client) CPU per request in µs over the repetitions that measured it, as an estimate (mean, CoV, interval from 3); null when none did.</summary>
    public Estimate? GeneratorCpuPerRequest { get; init; }

    /// <summary>Repetitions flagged disturbed (others used more than 0.10 of a core or steal exceeded 2 % over the window; <see cref="Statistics.QuietMachine"/>).</summary>
    public int DisturbedRepetitions { get; init; }

    /// <summary>Repetitions whose window was checked for others' CPU and steal (the denominator of <see cref="DisturbedRepetitions"/>).</summary>
    public int CheckedRepetitions { get; init; }

    /// <summary>Others' CPU in cores over the window, mean over the repetitions that measured it; null when none did.</summary>
    public double? OthersCpuCores { get; init; }

    /// <summary>Steal, % of the machine's time over the window, mean over the repetitions that measured it; null when none did.</summary>
    public double? StealPercent { get; init; }

    /// <summary>The machine's busy share over the window, %, mean over the repetitions that measured it; null when none did.</summary>
    public double? MachineBusyPercent { get; init; }

    /// <summary>The variant's security mode (WCF's term: <c>None</c>, <c>Transport</c>, …) from the variant catalogue; <c>unknown</c> for a variant it does not list.</summary>
    public string SecurityMode { get; init; } = ResultsClassification.Unknown;

    /// <summary>True when the variant's security mode is not <c>None</c> (the thesis's secure panels and Tables 9.3–9.4).</summary>
    public bool IsSecure { get; init; }

    /// <summary>
    /// The payload's dataset class from the payload catalogue: <c>Small</c>, <c>Large</c> (thesis ch. 6.2.1),
    /// <c>Whitepaper</c> or <c>Book</c>; <c>unknown</c> for a payload it does not list.
    /// </summary>
    public string PayloadClass { get; init; } = ResultsClassification.Unknown;

    /// <summary>
    /// The load agents that generated the level (docs/agents.md), each over the repetitions, in the split's order; empty
    /// when the runner generated every repetition itself.
    /// </summary>
    public IReadOnlyList<AgentShareSummary> Agents { get; init; } = [];

    /// <summary>
    /// The bound on how far apart the agents started, ms: the largest over the repetitions of each one's
    /// <see cref="Entities.LevelEntity.StartSkewBoundMs"/>; null without agents.
    /// </summary>
    public double? StartSkewBoundMs { get; init; }

    /// <summary>
    /// The stored levels (repetitions) this row is over, ordered by repetition: what a statistic declared in
    /// <c>Statistics.LevelStatistics</c> without a property here is aggregated from.
    /// </summary>
    public IReadOnlyList<Entities.LevelEntity> Levels { get; init; } = [];

    /// <summary>True when any repetition of the level had errors (charts mark such levels).</summary>
    public bool HasErrors => Errors > 0;

    /// <summary>The cell's name in legends: variant × client × payload.</summary>
    public string Cell => $"{Variant} × {Client} × {Payload}";
}
