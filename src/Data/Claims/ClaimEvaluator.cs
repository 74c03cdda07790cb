using System.Globalization;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;

namespace Dashboard.Data.Claims;

/// <summary>One level as the claims engine sees it: its aggregate, the topology of its run, and its server facts.</summary>
/// <param name="Level">The level over its repetitions (<see cref="ResultsQueries"/>).</param>
/// <param name="Topology">The topology of its run (<see cref="ClaimCatalogue.SameMachine"/> when the run records none).</param>
/// <param name="RunId">The run it comes from.</param>
public sealed record ClaimLevel(LevelAggregate Level, string Topology, int RunId)
{
    /// <summary>Server resources over the level (CPU, memory, cost per operation), or null when none were read in its window.</summary>
    public LevelResources? Resources { get; init; }

    /// <summary>Mean response time of the level's first calls in ms (warm-up included), over repetitions; null when not read (only 1-client levels).</summary>
    public Estimate? FirstCallsMs { get; init; }

    /// <summary>"variant × client × payload × N clients (topology)": how readers find the level.</summary>
    public string Name => $"{Level.Variant} × {Level.Client} × {Level.Payload} × {Level.Clients} clients ({Topology})";
}

/// <summary>The verdict of one contrast (A vs B) of a claim.</summary>
/// <param name="Name">The contrast, e.g. "MetroSoap11 vs MetroSoap11Https".</param>
/// <param name="Verdict">What the test says for this contrast.</param>
/// <param name="Reason">Why, in a sentence; for inconclusive verdicts, what would help.</param>
/// <param name="Covered">True when the runs hold at least one pair of levels (A and B at the same match keys); false when the contrast was not measured.</param>
public sealed record ContrastResult(string Name, ClaimVerdict Verdict, string Reason, bool Covered)
{
    /// <summary>A's summary: the mean of its per-level values over the counted levels, in the metric's unit.</summary>
    public double? A { get; init; }

    /// <summary>B's summary, as <see cref="A"/>.</summary>
    public double? B { get; init; }

    /// <summary>The effect: A ÷ B.</summary>
    public double? Ratio { get; init; }

    /// <summary>Lower end of the ratio's interval (the statistics home's; = <see cref="Ratio"/> without one).</summary>
    public double? RatioLow { get; init; }

    /// <summary>Upper end of the ratio's interval.</summary>
    public double? RatioHigh { get; init; }

    /// <summary>True when RatioLow..RatioHigh is an interval (not just the point).</summary>
    public bool HasInterval { get; init; }

    /// <summary>Level pairs counted.</summary>
    public int LevelsCounted { get; init; }

    /// <summary>Level pairs left out (partial, generator-bound for a claim about the server, or without the metric).</summary>
    public int LevelsExcluded { get; init; }

    /// <summary>What bound the counted levels: count of levels (both sides) per bound, keyed "generator", "server", "machine", "neither" or "unknown" (<see cref="Entities.LevelBound"/>; unknown when no CPU was measured).</summary>
    public IReadOnlyDictionary<string, int> Bounds { get; init; } = new Dictionary<string, int>();

    /// <summary>The counted level pairs, "A level ↔ B level".</summary>
    public IReadOnlyList<string> Levels { get; init; } = [];

    /// <summary>The runs the counted levels come from, in order of first appearance (the run page whose charts show the evidence first).</summary>
    public IReadOnlyList<int> RunIds { get; init; } = [];

    /// <summary>The payloads of the counted levels, in order of first appearance.</summary>
    public IReadOnlyList<string> Payloads { get; init; } = [];

    /// <summary>For <see cref="ClaimMetric.CpuPerOperation"/>: A's cost per operation in MCycles (seed 004), the mean over the counted levels; null without a clock rate or for other metrics.</summary>
    public double? AMCycles { get; init; }

    /// <summary>B's cost per operation in MCycles, as <see cref="AMCycles"/>.</summary>
    public double? BMCycles { get; init; }
}

/// <summary>The verdict of a claim for a run or a set of runs (docs/claims.md, "How a verdict is decided").</summary>
/// <param name="Claim">The claim.</param>
/// <param name="Verdict">Holds, does not hold, inconclusive or not measurable here.</param>
/// <param name="Reason">Why; for inconclusive, what would help; for not measurable, why not.</param>
/// <param name="Contrasts">Each contrast's verdict.</param>
/// <param name="Method">The test and interval used, with its source.</param>
public sealed record ClaimResult(Claim Claim, ClaimVerdict Verdict, string Reason, IReadOnlyList<ContrastResult> Contrasts, string Method)
{
    /// <summary>The effect A ÷ B when one contrast decides the claim; null with several (see <see cref="Contrasts"/>).</summary>
    public double? Ratio => Single?.Ratio;

    /// <summary>Lower end of <see cref="Ratio"/>'s interval.</summary>
    public double? RatioLow => Single?.RatioLow;

    /// <summary>Upper end of <see cref="Ratio"/>'s interval.</summary>
    public double? RatioHigh => Single?.RatioHigh;

    /// <summary>Level pairs counted over every contrast.</summary>
    public int LevelsCounted => Contrasts.Sum(c => c.LevelsCounted);

    /// <summary>Level pairs left out over every contrast.</summary>
    public int LevelsExcluded => Contrasts.Sum(c => c.LevelsExcluded);

    /// <summary>"×1.32 [1.20, 1.45]" per measured contrast, joined with "; " — the effect as the panel and the report print it.</summary>
    public string Effect => string.Join("; ", Contrasts.Where(c => c.Ratio is not null).Select(c =>
        (Contrasts.Count(x => x.Ratio is not null) > 1 ? c.Name + ": " : "") + ClaimEvaluator.FormatRatio(c)));

    /// <summary>
    /// A's and B's values in the metric's unit per measured contrast, joined with "; ": "A 91 µs (0.31 MCycles) vs B 264 µs
    /// (0.9 MCycles) of server CPU per operation" (seed 004's cost), "A 509 vs B 660 bytes per message beyond the payload's own"
    /// (seed 002's overhead); empty when no contrast has both.
    /// </summary>
    public string Figures => string.Join("; ", Contrasts.Select(c => (c, text: ClaimEvaluator.FormatFigures(c, Claim.Metric))).Where(x => x.text.Length > 0)
        .Select(x => (Contrasts.Count(c => c.A is not null && c.B is not null) > 1 ? x.c.Name + ": " : "") + x.text));

    /// <summary>"server 4, neither 8": what bound the counted levels.</summary>
    public string BoundSummary => ClaimEvaluator.FormatBounds(Contrasts.SelectMany(c => c.Bounds)
        .GroupBy(b => b.Key).ToDictionary(g => g.Key, g => g.Sum(x => x.Value)));

    private ContrastResult? Single => Contrasts.Count(c => c.Ratio is not null) == 1 ? Contrasts.Single(c => c.Ratio is not null) : null;
}

/// <summary>
/// Decides claims (<see cref="ClaimCatalogue"/>) on level aggregates, with the difference test and the per-level flags of
/// the statistics home (<see cref="IDifferenceTest"/>, <see cref="ILevelConditions"/>); side-effect free. The rules are
/// in docs/claims.md, "How a verdict is decided".
/// </summary>
/// <param name="test">The difference test and ratio interval.</param>
/// <param name="conditions">Per-level partial and bound flags.</param>
public sealed class ClaimEvaluator(IDifferenceTest test, ILevelConditions conditions)
{
    private const string NoLevel = "No level of either side.";

    /// <summary>Significance level of every test: 0.05 (two-sided).</summary>
    public const double Alpha = 0.05;

    /// <summary>The test and interval behind the verdicts, with their sources (<see cref="IDifferenceTest.Method"/>).</summary>
    public string Method => test.Method;

    /// <summary>
    /// The evaluator the dashboard uses: the one place to plug in the statistics home's adapters (docs/claims.md,
    /// "Statistics"): the statistics home's test (<see cref="HomeDifferenceTest"/>) and the flags stored with each level (<see cref="StoredLevelConditions"/>).</summary>
    public static ClaimEvaluator Default { get; } = new(new HomeDifferenceTest(), new StoredLevelConditions());

    /// <summary>
    /// The claims that concern <paramref name="levels"/> (a level of either side of a contrast is there, or, for a claim
    /// not measurable here, one of its related variants), or every claim when <paramref name="all"/> is true, each with its verdict.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public IReadOnlyList<ClaimResult> EvaluateAll(IReadOnlyList<ClaimLevel> levels, bool all = false, IReadOnlyList<Claim>? claims = null)
    {
        ArgumentNullException.ThrowIfNull(levels);
        return [.. (claims ?? ClaimCatalogue.All).Where(c => all || Concerns(c, levels)).Select(c => Evaluate(c, levels))];
    }

    /// <summary>True when <paramref name="levels"/> hold a level of either side of one of the claim's contrasts, or one of its related variants.</summary>
    public static bool Concerns(Claim claim, IReadOnlyList<ClaimLevel> levels)
    {
        ArgumentNullException.ThrowIfNull(claim);
        ArgumentNullException.ThrowIfNull(levels);
        return levels.Any(l => claim.RelatedVariants.Contains(l.Level.Variant)
            || claim.Contrasts.Any(c => c.A.Matches(l.Level, l.Topology) || c.B.Matches(l.Level, l.Topology)));
    }

    /// <summary>The verdict of <paramref name="claim"/> on <paramref name="levels"/>.</summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public ClaimResult Evaluate(Claim claim, IReadOnlyList<ClaimLevel> levels)
    {
        ArgumentNullException.ThrowIfNull(claim);
        ArgumentNullException.ThrowIfNull(levels);
        var method = ClaimMetrics.IsExact(claim.Metric)
            ? "counted bytes: compared as they are, no test (no sampling noise)"
            : test.Method;
        if (claim.NotMeasurableReason is { } why)
        {
            return new ClaimResult(claim, ClaimVerdict.NotMeasurable, "Not measurable here: " + why + ".", [], method);
        }

        var results = claim.Contrasts.Select(c => Evaluate(claim, c, levels)).ToList();
        var covered = results.Where(r => r.Covered).ToList();
        var presets = string.Join(", ", claim.Presets);
        if (covered.Count == 0)
        {
            // Levels of one side only: say which side is missing; no level at all: name the presets.
            var oneSided = results.Where(r => r.Reason.Length > 0 && r.Reason != NoLevel).Select(r => $"{r.Name}: {r.Reason}").ToList();
            return new ClaimResult(claim, ClaimVerdict.Inconclusive,
                oneSided.Count > 0 ? string.Join(" ", oneSided) : $"No level of this claim in the run(s). What would help: a run of preset {presets}.",
                results, method);
        }

        var verdict = covered.Any(r => r.Verdict == ClaimVerdict.DoesNotHold) ? ClaimVerdict.DoesNotHold
            : covered.All(r => r.Verdict == ClaimVerdict.Holds) ? ClaimVerdict.Holds
            : ClaimVerdict.Inconclusive;
        var reason = string.Join(" ", covered.Select(r => covered.Count > 1 ? $"{r.Name}: {r.Reason}" : r.Reason));
        var missing = results.Where(r => !r.Covered).Select(r => r.Name).ToList();
        if (missing.Count > 0)
        {
            reason += $" Not measured in these runs: {string.Join(", ", missing)}.";
        }

        return new ClaimResult(claim, verdict, reason, results, method);
    }

    private ContrastResult Evaluate(Claim claim, Contrast contrast, IReadOnlyList<ClaimLevel> levels)
    {
        var a = levels.Where(l => contrast.A.Matches(l.Level, l.Topology)).OrderBy(l => l.RunId).ToList();
        var b = levels.Where(l => contrast.B.Matches(l.Level, l.Topology)).OrderBy(l => l.RunId).ToList();
        if (a.Count == 0 && b.Count == 0)
        {
            return new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, NoLevel, false);
        }

        var bByKey = b.GroupBy(l => Key(l, contrast.Match)).ToDictionary(g => g.Key, g => g.First());
        var pairs = a.GroupBy(l => Key(l, contrast.Match))
            .Where(g => bByKey.ContainsKey(g.Key))
            .Select(g => (A: g.First(), B: bByKey[g.Key]))
            .ToList();
        if (pairs.Count == 0)
        {
            var has = a.Count > 0 ? $"A ({contrast.A.Describe()})" : $"B ({contrast.B.Describe()})";
            var lacks = a.Count > 0 ? $"B ({contrast.B.Describe()})" : $"A ({contrast.A.Describe()})";
            return new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive,
                $"The runs have levels of {has} but none of {lacks} to pair them with. What would help: {Help(claim, contrast)}.", false);
        }

        // Leave out partial levels, generator-bound ones for claims about the server, and pairs without the metric.
        var counted = new List<(ClaimLevel A, ClaimLevel B, double? ExactA, double? ExactB, Estimate EstA, Estimate EstB)>();
        var bounds = new Dictionary<string, int>();
        int partial = 0, generatorBound = 0, noValue = 0;
        foreach (var (la, lb) in pairs)
        {
            var ca = conditions.ConditionOf(la.Level, la.Resources);
            var cb = conditions.ConditionOf(lb.Level, lb.Resources);
            if (ca.IsPartial || cb.IsPartial)
            {
                partial++;
                continue;
            }

            if (ClaimMetrics.IsAboutServer(claim.Metric) && (ca.Bound == Entities.LevelBound.Generator || cb.Bound == Entities.LevelBound.Generator))
            {
                generatorBound++;
                continue;
            }

            var (exactA, estA) = Value(claim.Metric, la);
            var (exactB, estB) = Value(claim.Metric, lb);
            if (ClaimMetrics.IsExact(claim.Metric) ? exactA is null || exactB is null : estA.N == 0 || estB.N == 0)
            {
                noValue++;
                continue;
            }

            bounds[BoundName(ca.Bound)] = bounds.GetValueOrDefault(BoundName(ca.Bound)) + 1;
            bounds[BoundName(cb.Bound)] = bounds.GetValueOrDefault(BoundName(cb.Bound)) + 1;
            counted.Add((la, lb, exactA, exactB, estA, estB));
        }

        var excluded = partial + generatorBound + noValue;
        if (counted.Count == 0)
        {
            var why = generatorBound > 0
                ? $"every matched level ({generatorBound}) was bound by the load generator, so it shows the generator's limit, not the server's. What would help: fewer clients, or a generator with cores of its own (the emulated-lan topology splits them)"
                : partial > 0
                    ? $"every matched level ({partial}) was cut short (partial). What would help: a run that finishes its levels"
                    : $"no matched level has a value of {claim.Metric} ({Missing(claim.Metric)})";
            return new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, char.ToUpperInvariant(why[0]) + why[1..] + ".", true)
            {
                LevelsExcluded = excluded,
            };
        }

        var names = counted.Select(p => $"{p.A.Name} ↔ {p.B.Name}").ToList();
        var result = ClaimMetrics.IsExact(claim.Metric)
            ? DecideExact(claim, contrast, counted.Average(p => p.ExactA!.Value), counted.Average(p => p.ExactB!.Value))
            : DecideTested(claim, contrast, Estimate.MeanOf([.. counted.Select(p => p.EstA)]), Estimate.MeanOf([.. counted.Select(p => p.EstB)]));
        var notes = new List<string>();
        if (generatorBound > 0) notes.Add($"{generatorBound} generator-bound level pair(s) left out");
        if (partial > 0) notes.Add($"{partial} partial level pair(s) left out");
        if (noValue > 0) notes.Add($"{noValue} level pair(s) without {claim.Metric} left out");
        var suffix = $" Levels counted: {counted.Count}" + (notes.Count > 0 ? $" ({string.Join("; ", notes)})" : "") + ".";
        return result with
        {
            Reason = result.Reason + suffix,
            LevelsCounted = counted.Count,
            LevelsExcluded = excluded,
            Bounds = bounds,
            Levels = names,
            RunIds = [.. counted.SelectMany(p => new[] { p.A.RunId, p.B.RunId }).Distinct()],
            Payloads = [.. counted.SelectMany(p => new[] { p.A.Level.Payload, p.B.Level.Payload }).Distinct(StringComparer.Ordinal)],
            AMCycles = claim.Metric == ClaimMetric.CpuPerOperation ? MeanMCycles(counted.Select(p => p.A)) : null,
            BMCycles = claim.Metric == ClaimMetric.CpuPerOperation ? MeanMCycles(counted.Select(p => p.B)) : null,
        };
    }

    private ContrastResult DecideTested(Claim claim, Contrast contrast, Estimate a, Estimate b)
    {
        var t = test.Compare(a, b, Alpha);
        var effect = new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, "", true)
        {
            A = a.Mean, B = b.Mean, Ratio = t.Ratio, RatioLow = t.Low, RatioHigh = t.High, HasInterval = t.HasInterval,
        };
        var shown = FormatRatio(effect);
        if (t.Ratio is not { } ratio)
        {
            return effect with { Reason = $"B's mean is 0: no ratio. What would help: {Help(claim, contrast)}." };
        }

        if (claim.Comparison == ClaimComparison.Better)
        {
            var wanted = ClaimMetrics.HigherIsBetter(claim.Metric) ? ratio > 1 : ratio < 1;
            var margin = claim.EquivalenceMargin;
            return t.Outcome switch
            {
                TestOutcome.NotPossible => effect with { Reason = $"A ÷ B = {shown}; no test: {t.Note}. What would help: at least 3 repetitions per level." },
                TestOutcome.Differs when wanted => effect with { Verdict = ClaimVerdict.Holds, Reason = $"A ÷ B = {shown}; the test finds the difference (5 %)." },
                TestOutcome.Differs => effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown}: the other way round; the test finds the difference (5 %)." },
                _ when t.HasInterval && t.Low >= 1 / (1 + margin) && t.High <= 1 + margin =>
                    effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown}: no difference, the interval lies within ±{margin:P0} (no advantage)." },
                _ => effect with { Reason = $"A ÷ B = {shown}; the test cannot tell A from B. What would help: more repetitions, or longer levels in steady state, to narrow the interval." },
            };
        }

        var (low, high) = Band(claim);
        if (!t.HasInterval)
        {
            return effect with { Reason = $"A ÷ B = {shown}; no interval ({t.Note ?? "none given"}). What would help: at least 3 repetitions per level." };
        }

        var inside = t.Low >= low && t.High <= high;
        var outside = t.High < low || t.Low > high;
        return inside ? effect with { Verdict = ClaimVerdict.Holds, Reason = $"A ÷ B = {shown}, inside {DescribeBand(low, high)}." }
            : outside ? effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown}, outside {DescribeBand(low, high)}." }
            : effect with { Reason = $"A ÷ B = {shown} reaches both inside and outside {DescribeBand(low, high)}. What would help: more repetitions to narrow the interval." };
    }

    private static ContrastResult DecideExact(Claim claim, Contrast contrast, double a, double b)
    {
        var effect = new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, "", true)
        {
            A = a, B = b, Ratio = b != 0 ? a / b : null, RatioLow = b != 0 ? a / b : null, RatioHigh = b != 0 ? a / b : null,
        };
        if (effect.Ratio is not { } ratio || b < 0 || a < 0)
        {
            return effect with { Reason = $"A = {a:0.#}, B = {b:0.#} {ClaimMetrics.UnitOf(claim.Metric)}: no meaningful ratio (B is 0 or a value is negative)." };
        }

        var shown = FormatRatio(effect);
        if (claim.Comparison == ClaimComparison.Better)
        {
            var margin = claim.EquivalenceMargin;
            var better = ClaimMetrics.HigherIsBetter(claim.Metric) ? ratio > 1 + margin : ratio < 1 / (1 + margin);
            return better
                ? effect with { Verdict = ClaimVerdict.Holds, Reason = $"A ÷ B = {shown} (counted)." }
                : effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown} (counted): no advantage beyond {margin:P0}." };
        }

        var (low, high) = Band(claim);
        return ratio >= low && ratio <= high
            ? effect with { Verdict = ClaimVerdict.Holds, Reason = $"A ÷ B = {shown} (counted), inside {DescribeBand(low, high)}." }
            : effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown} (counted), outside {DescribeBand(low, high)}." };
    }

    private static (double Low, double High) Band(Claim claim) => claim.Comparison == ClaimComparison.Similar
        ? (1 / (1 + claim.Tolerance), 1 + claim.Tolerance)
        : (claim.RangeLow, claim.RangeHigh ?? double.PositiveInfinity);

    private static string DescribeBand(double low, double high) =>
        double.IsPositiveInfinity(high) ? $"≥ {low:0.##}" : $"[{low:0.##}, {high:0.##}]";

    private static (double? Exact, Estimate Estimate) Value(ClaimMetric metric, ClaimLevel level) => metric switch
    {
        ClaimMetric.Throughput => (null, level.Level.ThroughputRps),
        ClaimMetric.MeanResponseTime => (null, level.Level.MeanMs),
        // % of one core, not of all cores: on-machine and emulated-lan servers have different cores (docs/claims.md).
        ClaimMetric.ServerCpu => (null, level.Resources?.StackCpuPercentOfOneCore ?? default),
        ClaimMetric.AvailableMemory => (null, level.Resources?.AvailableMemoryMb ?? default),
        ClaimMetric.CpuPerOperation => (null, level.Resources?.CpuUsPerOperation ?? default),
        ClaimMetric.Upstart => (null, level.FirstCallsMs ?? default),
        ClaimMetric.WireBytes => (level.Level is { MeanRequestBytes: { } q, MeanResponseBytes: { } r } ? q + r : null, default),
        ClaimMetric.OverheadPerMessage => (MessageOverhead.Of(level.Level)?.PerMessageBytes, default),
        _ => (null, default),
    };

    private static double? MeanMCycles(IEnumerable<ClaimLevel> levels)
    {
        var values = levels.Select(l => l.Resources?.MCyclesPerOperation).Where(e => e is { N: > 0 }).Select(e => e!.Value.Mean).ToList();
        return values.Count == 0 ? null : values.Average();
    }

    /// <summary>
    /// A's and B's values of <paramref name="contrast"/> with the unit of <paramref name="metric"/>, e.g. "A 91 µs (0.31
    /// MCycles) vs B 264 µs (0.9 MCycles) of server CPU per operation"; empty when either is missing.
    /// </summary>
    public static string FormatFigures(ContrastResult contrast, ClaimMetric metric)
    {
        ArgumentNullException.ThrowIfNull(contrast);
        if (contrast is not { A: { } a, B: { } b })
        {
            return "";
        }

        return metric switch
        {
            ClaimMetric.CpuPerOperation =>
                $"A {Figure(a)} µs{MCycles(contrast.AMCycles)} vs B {Figure(b)} µs{MCycles(contrast.BMCycles)} of server CPU per operation",
            ClaimMetric.OverheadPerMessage => $"A {Figure(a)} vs B {Figure(b)} bytes per message beyond the payload's own",
            ClaimMetric.WireBytes => $"A {Figure(a)} vs B {Figure(b)} bytes on the wire per round trip",
            _ => $"A {Figure(a)} vs B {Figure(b)} {ClaimMetrics.UnitOf(metric)}",
        };

        static string MCycles(double? m) => m is { } v ? $" ({Figure(v)} MCycles)" : "";
    }

    private static string Figure(double value) => Math.Abs(value) switch
    {
        >= 100 => value.ToString("#,##0", CultureInfo.InvariantCulture),
        >= 10 => value.ToString("0.#", CultureInfo.InvariantCulture),
        _ => value.ToString("0.###", CultureInfo.InvariantCulture),
    };

    private static string Missing(ClaimMetric metric) => metric switch
    {
        ClaimMetric.ServerCpu or ClaimMetric.AvailableMemory or ClaimMetric.CpuPerOperation => "no server resource readings inside the levels' windows",
        ClaimMetric.Upstart => "the first calls are read for 1-client levels only",
        ClaimMetric.WireBytes or ClaimMetric.OverheadPerMessage => "the client did not count wire bytes",
        _ => "no request succeeded",
    };

    private static string Help(Claim claim, Contrast contrast) =>
        contrast.Match.HasFlag(MatchOn.Variant) && !contrast.Match.HasFlag(MatchOn.Topology)
            ? $"runs of preset {string.Join(", ", claim.Presets)} in both topologies ({contrast.A.Topology ?? "any"} and {contrast.B.Topology ?? "any"})"
            : $"a run of preset {string.Join(", ", claim.Presets)} with both sides at the same {Describe(contrast.Match)}";

    private static string Describe(MatchOn match)
    {
        var parts = new List<string>();
        if (match.HasFlag(MatchOn.Variant)) parts.Add("variant");
        if (match.HasFlag(MatchOn.Client)) parts.Add("client");
        if (match.HasFlag(MatchOn.Payload)) parts.Add("payload");
        if (match.HasFlag(MatchOn.Clients)) parts.Add("concurrency level");
        if (match.HasFlag(MatchOn.Topology)) parts.Add("topology");
        return string.Join(", ", parts);
    }

    private static string Key(ClaimLevel level, MatchOn match) => string.Join('|',
        match.HasFlag(MatchOn.Variant) ? level.Level.Variant : "",
        match.HasFlag(MatchOn.Client) ? level.Level.Client : "",
        match.HasFlag(MatchOn.Payload) ? level.Level.Payload : "",
        match.HasFlag(MatchOn.Clients) ? level.Level.Clients.ToString(CultureInfo.InvariantCulture) : "",
        match.HasFlag(MatchOn.Topology) ? level.Topology : "");

    /// <summary>"×1.32 [1.20, 1.45]" or "×1.32 (no interval)"; empty without a ratio.</summary>
    public static string FormatRatio(ContrastResult contrast)
    {
        ArgumentNullException.ThrowIfNull(contrast);
        return contrast.Ratio is not { } r ? ""
            : contrast.HasInterval ? string.Create(CultureInfo.InvariantCulture, $"×{r:0.###} [{contrast.RatioLow:0.###}, {contrast.RatioHigh:0.###}]")
            : string.Create(CultureInfo.InvariantCulture, $"×{r:0.###}");
    }

    /// <summary>"server 4, neither 8" from counts per bound (keys as in <see cref="ContrastResult.Bounds"/>); "—" when empty.</summary>
    public static string FormatBounds(IReadOnlyDictionary<string, int> bounds)
    {
        ArgumentNullException.ThrowIfNull(bounds);
        return bounds.Count == 0 ? "—"
            : string.Join(", ", bounds.OrderBy(b => BoundOrder(b.Key)).ThenBy(b => b.Key, StringComparer.Ordinal).Select(b => $"{b.Key} {b.Value}"));
    }

    /// <summary>The key of <paramref name="bound"/> in <see cref="ContrastResult.Bounds"/>: its name in lower case, "unknown" for null.</summary>
    public static string BoundName(Entities.LevelBound? bound) => bound?.ToString().ToLowerInvariant() ?? "unknown";

    private static int BoundOrder(string key) => key switch
    {
        "generator" => 0,
        "server" => 1,
        "neither" => 2,
        _ => 3,
    };
}
