using System.Globalization;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;

namespace Dashboard.Data.Claims;

/// <summary>One level as the claims engine sees it: its aggregate, the topology of its run, and its server facts.</summary>
/// <param name="Level">The level over its repetitions (<see cref="Results.LevelAggregation"/>).</param>
/// <param name="Topology">The topology of its run (<see cref="ClaimCatalogue.SameMachine"/> when the run records none).</param>
/// <param name="RunId">The run it comes from.</param>
public sealed record ClaimLevel(LevelAggregate Level, string Topology, int RunId)
{
    /// <summary>Server resources over the level (CPU, memory, cost per operation), or null when none were read in its window.</summary>
    public LevelResources? Resources { get; init; }

    /// <summary>Mean response time of the level's first calls in ms (warm-up included), over repetitions; null when not read (only 1-client levels).</summary>
    public Estimate? FirstCallsMs { get; init; }

    /// <summary>The per-repetition means behind <see cref="FirstCallsMs"/> (ms), for the claims' tests on observations; empty when not read.</summary>
    public IReadOnlyList<double> FirstCallsValues { get; init; } = [];

    /// <summary>
    /// The level's repetitions left out before it was aggregated, with why ("launch 3: disturbed", "launch 2: before steady
    /// state"): a disturbed repetition, or one measured before steady state, is dropped on its own while others of the
    /// level are clean (docs/claims.md, "Levels by metric kind"); empty when none was, or when none was clean (then the
    /// whole level carries the flags and the verdict leaves it out).
    /// </summary>
    public IReadOnlyList<string> RepetitionsLeftOut { get; init; } = [];

    /// <summary>"variant × client × payload × N clients (topology)": how readers find the level.</summary>
    public string Name => $"{Level.Variant} × {Level.Client} × {Level.Payload} × {(Level.Clients == 1 ? "1 client" : $"{Level.Clients} clients")} ({Topology})";
}

/// <summary>The verdict of one case of a contrast (A vs B) of a claim, or of a contrast that was not measured.</summary>
/// <param name="Name">The contrast, e.g. "MetroSoap11 vs MetroSoap11Https" (<see cref="Case"/> says which case).</param>
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

    /// <summary>The case: the values of the dimensions both sides share, e.g. "java × Int × 20 clients × same-machine"; empty when not measured.</summary>
    public string Case { get; init; } = "";

    /// <summary>"contrast · case" (the contrast alone when not measured): how reasons and effects name it.</summary>
    public string Label => Case.Length == 0 ? Name : $"{Name} · {Case}";

    /// <summary>The test's two-sided p-value before adjustment; null without a test.</summary>
    public double? PValue { get; init; }

    /// <summary>The exact test of this case, with its library, sample sizes and degrees of freedom (e.g. "Welch's two-sided t-test on ln values (Perfolizer 0.6.1), n = 3 vs 3, ν = 3.9"); empty when no test ran.</summary>
    public string Method { get; init; } = "";

    /// <summary>The Mann–Whitney U test's two-sided p-value on the same observations (reported beside, never deciding); null without a test.</summary>
    public double? MannWhitneyPValue { get; init; }

    /// <summary>The p-value after Holm–Bonferroni across the claim's cases; the case's verdict uses it.</summary>
    public double? AdjustedPValue { get; init; }

    /// <summary>Levels counted, both sides, every run of the case.</summary>
    public int LevelsCounted { get; init; }

    /// <summary>Levels left out (partial, generator-bound for a claim about the server, or without the metric).</summary>
    public int LevelsExcluded { get; init; }

    /// <summary>Each level left out, "reason: level (run N)", e.g. "partial: IceTcp × java × Int × 20 clients (same-machine) (run 3)".</summary>
    public IReadOnlyList<string> Exclusions { get; init; } = [];

    /// <summary>What bound the counted levels: count of levels (both sides) per bound, keyed "generator", "server", "machine", "neither" or "unknown" (<see cref="Entities.LevelBound"/>; unknown when no CPU was measured).</summary>
    public IReadOnlyDictionary<string, int> Bounds { get; init; } = new Dictionary<string, int>();

    /// <summary>The counted levels, "A level (run N)" and "B level (run N)".</summary>
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

    /// <summary>
    /// A general statement's summary effect over its cases (the geometric mean of the cases' ratios with a 95 % t interval
    /// over their logs), when it decided the verdict; null for "in all cases" claims and below 3 measured cases.
    /// </summary>
    public ClaimSummary? Summary { get; init; }

    /// <summary>Level pairs counted over every contrast.</summary>
    public int LevelsCounted => Contrasts.Sum(c => c.LevelsCounted);

    /// <summary>Level pairs left out over every contrast.</summary>
    public int LevelsExcluded => Contrasts.Sum(c => c.LevelsExcluded);

    /// <summary>"×1.32 [1.20, 1.45]" per measured contrast, joined with "; " — the effect as the panel and the report print it.</summary>
    public string Effect => string.Join("; ", Contrasts.Where(c => c.Ratio is not null).Select(c =>
        (Contrasts.Count(x => x.Ratio is not null) > 1 ? c.Label + ": " : "") + ClaimEvaluator.FormatRatio(c)));

    /// <summary>
    /// A's and B's values in the metric's unit per measured contrast, joined with "; ": "A 91 µs (0.31 MCycles) vs B 264 µs
    /// (0.9 MCycles) of server CPU per operation" (seed 004's cost), "A 509 vs B 660 bytes per message beyond the payload's own"
    /// (seed 002's overhead); empty when no contrast has both.
    /// </summary>
    public string Figures => string.Join("; ", Contrasts.Select(c => (c, text: ClaimEvaluator.FormatFigures(c, Claim.Metric))).Where(x => x.text.Length > 0)
        .Select(x => (Contrasts.Count(c => c.A is not null && c.B is not null) > 1 ? x.c.Label + ": " : "") + x.text));

    /// <summary>"server 4, neither 8": what bound the counted levels.</summary>
    public string BoundSummary => ClaimEvaluator.FormatBounds(Contrasts.SelectMany(c => c.Bounds)
        .GroupBy(b => b.Key).ToDictionary(g => g.Key, g => g.Sum(x => x.Value)));

    private ContrastResult? Single => Contrasts.Count(c => c.Ratio is not null) == 1 ? Contrasts.Single(c => c.Ratio is not null) : null;
}

/// <summary>A claim's summary effect over its cases: A ÷ B as the geometric mean of the cases' ratios.</summary>
/// <param name="Ratio">The geometric mean of the cases' ratios A ÷ B.</param>
/// <param name="Low">Lower end of its 95 % t interval over the cases' log ratios.</param>
/// <param name="High">Upper end of that interval.</param>
/// <param name="Cases">How many cases it summarises (at least <see cref="ClaimEvaluator.MinimumCasesForSummary"/>).</param>
public sealed record ClaimSummary(double Ratio, double Low, double High, int Cases);
