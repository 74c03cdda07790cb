using System.Text.Json.Serialization;
using Dashboard.Data.Results;

namespace Dashboard.Data.Claims;

/// <summary>What a claim measures (docs/claims.md). In JSON, the member's name.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<ClaimMetric>))]
public enum ClaimMetric
{
    /// <summary>Throughput in req/s (thesis ch. 7.2.2); higher is better.</summary>
    Throughput,

    /// <summary>Mean response time in ms (thesis ch. 7.2.2); lower is better.</summary>
    MeanResponseTime,

    /// <summary>CPU of the stack's own server process over the level, as % of one core (100 = one core busy; comparable across topologies, whose servers have different cores); lower is better.</summary>
    ServerCpu,

    /// <summary>Available memory of the server machine in MB over the level; higher is better (the thesis's "lesser memory").</summary>
    AvailableMemory,

    /// <summary>Bytes on the wire per round trip (request + response, seed 002); fewer is better. Counted, not sampled.</summary>
    WireBytes,

    /// <summary>Bytes on the wire per message beyond the payload's own bytes (seed 002 Table I); fewer is better. Counted.</summary>
    OverheadPerMessage,

    /// <summary>Server CPU time per operation in µs (seed 004's cost per operation, <see cref="OperationCost"/>); lower is better.</summary>
    CpuPerOperation,

    /// <summary>Mean response time of a level's first calls in ms, warm-up included (seed 002 Fig. 7's upstart); lower is better.</summary>
    Upstart,
}

/// <summary>How a claim compares its two sides. In JSON, the member's name.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<ClaimComparison>))]
public enum ClaimComparison
{
    /// <summary>A is better than B on the metric (its direction: <see cref="ClaimMetrics.HigherIsBetter"/>).</summary>
    Better,

    /// <summary>A ≈ B: the ratio A ÷ B lies within 1 ± the claim's tolerance (as [1/(1+x), 1+x]).</summary>
    Similar,

    /// <summary>The ratio A ÷ B lies in the claim's range [low, high].</summary>
    RatioInRange,
}

/// <summary>A claim's verdict for a run or a set of runs. In JSON, the member's name.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<ClaimVerdict>))]
public enum ClaimVerdict
{
    /// <summary>The test says the claim holds here.</summary>
    Holds,

    /// <summary>The test says the claim does not hold here (the other way round, or no difference where one was claimed).</summary>
    DoesNotHold,

    /// <summary>The test cannot tell; <see cref="ClaimResult.Reason"/> says what would help (more repetitions, steady state, other levels).</summary>
    Inconclusive,

    /// <summary>This build or machine cannot measure it; <see cref="ClaimResult.Reason"/> says why.</summary>
    NotMeasurable,

    /// <summary>
    /// Measurable here, but a side of every contrast has no level in these runs (e.g. a same-machine run for a claim across
    /// topologies); <see cref="ClaimResult.Reason"/> names the side missing and the preset that measures it.
    /// </summary>
    NotMeasuredInTheseRuns,
}

/// <summary>Where a claim comes from: the document, its section and the sentence, copied from the document's text.</summary>
/// <param name="Document">Key of the source document: <c>thesis</c>, <c>whitepaper</c>, <c>ice-paper</c>, <c>latency-harness</c>, <c>book</c>.</param>
/// <param name="Title">The document's title.</param>
/// <param name="Section">Section, table or figure, e.g. "ch. 9.1.1" or "Table I".</param>
/// <param name="Quote">The sentence as the document prints it.</param>
public sealed record ClaimSource(string Document, string Title, string Section, string Quote)
{
    /// <summary>"Title", Section: how the panel and the report cite it.</summary>
    public string Citation => $"“{Title}”, {Section}";
}

/// <summary>
/// Which levels make one side of a contrast. Null members do not filter. All given members must match.
/// </summary>
/// <param name="Variants">Endpoint variant ids (docs/web.md, variant catalogue).</param>
/// <param name="Clients">Client technology ids.</param>
/// <param name="Payloads">Payload ids.</param>
/// <param name="PayloadClass">Dataset class name (<c>Small</c>, <c>Large</c>, …, thesis ch. 6.2.1).</param>
/// <param name="Topology">Topology of the run (<c>same-machine</c>, <c>emulated-lan</c>, <c>remote</c>).</param>
/// <param name="MinClients">Smallest concurrency level counted.</param>
/// <param name="MaxClients">Largest concurrency level counted.</param>
public sealed record LevelFilter(
    IReadOnlyList<string>? Variants = null,
    IReadOnlyList<string>? Clients = null,
    IReadOnlyList<string>? Payloads = null,
    string? PayloadClass = null,
    string? Topology = null,
    int? MinClients = null,
    int? MaxClients = null)
{
    /// <summary>True when <paramref name="level"/> (in a run of <paramref name="topology"/>) belongs to this side.</summary>
    public bool Matches(LevelAggregate level, string topology)
    {
        ArgumentNullException.ThrowIfNull(level);
        return (Variants is null || Variants.Contains(level.Variant))
            && (Clients is null || Clients.Contains(level.Client))
            && (Payloads is null || Payloads.Contains(level.Payload))
            && (PayloadClass is null || PayloadClass == level.PayloadClass)
            && (Topology is null || Topology == topology)
            && (MinClients is null || level.Clients >= MinClients)
            && (MaxClients is null || level.Clients <= MaxClients);
    }

    /// <summary>"variants X, Y; clients java; …" for readers.</summary>
    public string Describe()
    {
        var parts = new List<string>();
        if (Variants is not null) parts.Add(string.Join(", ", Variants));
        if (Clients is not null) parts.Add("clients " + string.Join(", ", Clients));
        if (Payloads is not null) parts.Add("payloads " + string.Join(", ", Payloads));
        if (PayloadClass is not null) parts.Add(PayloadClass.ToLowerInvariant() + " datasets");
        if (Topology is not null) parts.Add(Topology);
        if (MinClients is not null || MaxClients is not null)
        {
            parts.Add(MinClients == MaxClients ? $"{MinClients} client(s)" : $"{MinClients ?? 1}–{(MaxClients is null ? "∞" : MaxClients)} clients");
        }

        return parts.Count == 0 ? "every level" : string.Join("; ", parts);
    }
}

/// <summary>Which dimensions two levels must share to be compared (everything the contrast does not vary).</summary>
[Flags]
[JsonConverter(typeof(JsonStringEnumConverter<MatchOn>))]
public enum MatchOn
{
    /// <summary>Nothing.</summary>
    None = 0,

    /// <summary>The same endpoint variant.</summary>
    Variant = 1,

    /// <summary>The same client technology.</summary>
    Client = 2,

    /// <summary>The same payload.</summary>
    Payload = 4,

    /// <summary>The same concurrency level.</summary>
    Clients = 8,

    /// <summary>The same topology.</summary>
    Topology = 16,

    /// <summary>Everything but the variant (a contrast of variants).</summary>
    AllButVariant = Client | Payload | Clients | Topology,

    /// <summary>Everything but the client (a contrast of client technologies).</summary>
    AllButClient = Variant | Payload | Clients | Topology,

    /// <summary>Everything but the topology (a contrast of topologies).</summary>
    AllButTopology = Variant | Client | Payload | Clients,
}

/// <summary>One comparison A vs B inside a claim: two sides and what their levels must share.</summary>
/// <param name="Name">E.g. "MetroSoap11 vs MetroSoap11Https".</param>
/// <param name="A">The side the claim says is better (or the numerator of the ratio).</param>
/// <param name="B">The other side (the denominator).</param>
/// <param name="Match">Dimensions a level of A and a level of B must share to be paired.</param>
public sealed record Contrast(string Name, LevelFilter A, LevelFilter B, MatchOn Match);

/// <summary>
/// One claim of a source document as data (docs/claims.md): its source, the presets and cells it needs, the metric,
/// the comparison and, when this build cannot measure it, why.
/// </summary>
/// <param name="Id">Stable id, e.g. <c>thesis-9.3-unsecure-beats-secure-throughput</c>.</param>
/// <param name="Statement">The claim in one sentence in the product's terms.</param>
/// <param name="Source">Document, section and quoted sentence.</param>
/// <param name="Presets">Preset numbers (docs/web.md, "Presets") whose runs decide it.</param>
/// <param name="Metric">What is compared.</param>
/// <param name="Comparison">How A and B are compared.</param>
/// <param name="Contrasts">The A vs B comparisons; the claim holds when every contrast holds (docs/claims.md).</param>
public sealed record Claim(
    string Id,
    string Statement,
    ClaimSource Source,
    IReadOnlyList<int> Presets,
    ClaimMetric Metric,
    ClaimComparison Comparison,
    IReadOnlyList<Contrast> Contrasts)
{
    /// <summary>For <see cref="ClaimComparison.Similar"/>: the tolerance x (0.10 = within 10 %).</summary>
    public double Tolerance { get; init; } = 0.10;

    /// <summary>For <see cref="ClaimComparison.RatioInRange"/>: the smallest A ÷ B that agrees with the claim.</summary>
    public double RangeLow { get; init; }

    /// <summary>For <see cref="ClaimComparison.RatioInRange"/>: the largest A ÷ B that agrees with the claim; null for no upper bound.</summary>
    public double? RangeHigh { get; init; }

    /// <summary>
    /// For <see cref="ClaimComparison.Better"/>: a difference smaller than this (0.05 = 5 %) counts as "no advantage":
    /// when the ratio's whole interval lies within it, the claimed advantage is absent and the claim does not hold.
    /// </summary>
    public double EquivalenceMargin { get; init; } = 0.05;

    /// <summary>
    /// True when the source says "in all cases" (or "in every pair"): the claim holds only when every case holds. False for a
    /// general statement: from 3 cases on, a summary effect over the cases decides and the cases that disagree are listed.
    /// </summary>
    public bool InAllCases { get; init; }

    /// <summary>
    /// True when the source measured the server at its capacity (the whitepaper's runs at server CPU saturation): only
    /// server-bound levels decide it (<see cref="LevelRule.Capacity"/>).
    /// </summary>
    public bool AtCapacity { get; init; }

    /// <summary>Why this build or machine cannot measure the claim, or null when it can.</summary>
    public string? NotMeasurableReason { get; init; }

    /// <summary>
    /// Variants whose presence in a run makes a not-measurable claim worth listing beside the run's results (the
    /// nearest equivalents the run measured instead).
    /// </summary>
    public IReadOnlyList<string> RelatedVariants { get; init; } = [];

    /// <summary>The chart of the run page that shows the evidence (an anchor id, docs/claims.md), e.g. <c>chart-throughput</c>.</summary>
    public string ChartAnchor => ClaimMetrics.ChartAnchor(Metric);

    /// <summary>"A better than B", "A ≈ B within 10 %" or "A ÷ B in [2.29, 3.77]" for readers.</summary>
    public string DescribeComparison() => Comparison switch
    {
        ClaimComparison.Better => ClaimMetrics.HigherIsBetter(Metric) ? "A higher than B" : "A lower than B",
        ClaimComparison.Similar => $"A ≈ B within {Tolerance:P0}",
        _ => RangeHigh is { } high ? $"A ÷ B in [{RangeLow:0.##}, {high:0.##}]" : $"A ÷ B ≥ {RangeLow:0.##}",
    };
}

/// <summary>Which levels may decide a claim (<see cref="ClaimMetrics.LevelRuleOf"/>).</summary>
public enum LevelRule
{
    /// <summary>A cost per operation or per message: every complete, undisturbed, steady level, whatever bound it.</summary>
    Cost,

    /// <summary>The server's capacity (its most throughput): server-bound levels only.</summary>
    Capacity,

    /// <summary>A comparison at equal load (response time, throughput, server CPU, memory at N clients): generator-bound levels left out.</summary>
    EqualLoad,
}

/// <summary>Units, directions and chart anchors of <see cref="ClaimMetric"/>s.</summary>
public static class ClaimMetrics
{
    /// <summary>True when a larger value is better (throughput, available memory).</summary>
    public static bool HigherIsBetter(ClaimMetric metric) => metric is ClaimMetric.Throughput or ClaimMetric.AvailableMemory;

    /// <summary>True for counted (exact) quantities: no sampling noise, compared without a test.</summary>
    public static bool IsExact(ClaimMetric metric) => metric is ClaimMetric.WireBytes or ClaimMetric.OverheadPerMessage;

    /// <summary>
    /// Which levels may decide <paramref name="claim"/> (docs/claims.md, "Levels by metric kind"): costs per operation or
    /// per message from every level whatever bound it; capacity (<see cref="Claim.AtCapacity"/>) only from server-bound
    /// levels; everything else compares at equal load and leaves out generator-bound levels. Partial, disturbed and
    /// pre-steady-state levels never count (counted bytes excepted from the last two).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="claim"/> is null.</exception>
    public static LevelRule LevelRuleOf(Claim claim)
    {
        ArgumentNullException.ThrowIfNull(claim);
        return claim.Metric is ClaimMetric.CpuPerOperation or ClaimMetric.WireBytes or ClaimMetric.OverheadPerMessage ? LevelRule.Cost
            : claim.AtCapacity ? LevelRule.Capacity
            : LevelRule.EqualLoad;
    }

    /// <summary>What a metric is, in words for axis titles: "throughput", "server CPU per operation"…</summary>
    public static string NameOf(ClaimMetric metric) => metric switch
    {
        ClaimMetric.Throughput => "throughput",
        ClaimMetric.MeanResponseTime => "mean response time",
        ClaimMetric.ServerCpu => "server CPU",
        ClaimMetric.AvailableMemory => "available memory",
        ClaimMetric.WireBytes => "bytes per round trip",
        ClaimMetric.OverheadPerMessage => "overhead per message",
        ClaimMetric.CpuPerOperation => "server CPU per operation",
        ClaimMetric.Upstart => "first calls' response time",
        _ => metric.ToString(),
    };

    /// <summary>The unit of a metric's values.</summary>
    public static string UnitOf(ClaimMetric metric) => metric switch
    {
        ClaimMetric.Throughput => "req/s",
        ClaimMetric.MeanResponseTime or ClaimMetric.Upstart => "ms",
        ClaimMetric.ServerCpu => "% of one core",
        ClaimMetric.AvailableMemory => "MB",
        ClaimMetric.WireBytes or ClaimMetric.OverheadPerMessage => "bytes",
        ClaimMetric.CpuPerOperation => "µs",
        _ => "",
    };

    /// <summary>The anchor of the run page's chart that shows a metric (docs/claims.md lists them).</summary>
    public static string ChartAnchor(ClaimMetric metric) => metric switch
    {
        ClaimMetric.Throughput => "chart-throughput",
        ClaimMetric.MeanResponseTime => "chart-response-time",
        ClaimMetric.ServerCpu or ClaimMetric.CpuPerOperation => "chart-cpu",
        ClaimMetric.AvailableMemory => "chart-memory",
        ClaimMetric.WireBytes or ClaimMetric.OverheadPerMessage => "chart-wire-bytes",
        ClaimMetric.Upstart => "chart-sequential-calls",
        _ => "results",
    };
}
