using System.Globalization;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Clients;

namespace Dashboard.Data.Claims;

/// <summary>
/// Decides claims (<see cref="ClaimCatalogue"/>) on level aggregates, with the difference test and the per-level flags of
/// the statistics home (<see cref="IDifferenceTest"/>, <see cref="ILevelConditions"/>); side-effect free. The rules are
/// in docs/claims.md, "How a verdict is decided".
/// </summary>
/// <param name="test">The difference test and ratio interval.</param>
/// <param name="conditions">Per-level partial and bound flags.</param>
/// <param name="presetTitles">Titles of the presets by number (the presets catalogue), so that "not measured in these runs" names the preset that measures a claim; null: numbers only.</param>
public sealed class ClaimEvaluator(IDifferenceTest test, ILevelConditions conditions, IReadOnlyDictionary<int, string>? presetTitles = null)
{
    private const string NoLevel = "No level of either side.";

    /// <summary>Significance level of every test: 0.05 (two-sided).</summary>
    public const double Alpha = 0.05;

    /// <summary>The test and interval behind the verdicts, with their sources (<see cref="IDifferenceTest.Method"/>).</summary>
    public string Method => test.Method;

    /// <summary>
    /// The evaluator the dashboard uses: the one place to plug in the statistics home's adapters (docs/claims.md,
    /// "Statistics"): the library-backed tests (<see cref="LibraryDifferenceTest"/>) and the flags stored with each level (<see cref="StoredLevelConditions"/>).</summary>
    public static ClaimEvaluator Default { get; } = new(new LibraryDifferenceTest(), new StoredLevelConditions());

    /// <summary>
    /// <see cref="Default"/>'s tests and flags with the presets' titles, so that "not measured in these runs" names the
    /// preset that measures a claim (docs/claims.md, "Five verdicts").
    /// </summary>
    public ClaimEvaluator WithPresetTitles(IReadOnlyDictionary<int, string> titles) => new(test, conditions, titles);

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

    /// <summary>
    /// The verdict of <paramref name="claim"/> on <paramref name="levels"/>: one comparison per matched case of each
    /// contrast (the dimensions its match keeps: client, payload, concurrency, topology, variant), every run of a case
    /// pooled, each case tested on its own, Holm–Bonferroni across the claim's tests (docs/claims.md, "How a verdict is decided").
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public ClaimResult Evaluate(Claim claim, IReadOnlyList<ClaimLevel> levels)
    {
        ArgumentNullException.ThrowIfNull(claim);
        ArgumentNullException.ThrowIfNull(levels);
        var method = ClaimMetrics.IsExact(claim.Metric)
            ? "counted bytes: compared as they are, no test (no sampling noise)"
            : test.Method + "; Holm–Bonferroni across the claim's cases (Holm 1979)";
        if (claim.NotMeasurableReason is { } why)
        {
            return new ClaimResult(claim, ClaimVerdict.NotMeasurable, "Not measurable here: " + why + ".", [], method);
        }

        var drafts = claim.Contrasts.SelectMany(c => Cases(claim, c, levels)).ToList();
        var adjusted = MultipleTesting.HolmAdjusted([.. drafts.Select(d => d.Test is { Outcome: not TestOutcome.NotPossible, PValue: { } pv } ? pv : (double?)null)]);
        var results = drafts.Select((d, i) => d.Decided ?? Decide(claim, d, adjusted[i])).ToList();
        var covered = results.Where(r => r.Covered).ToList();
        if (covered.Count == 0)
        {
            // A side of every contrast has no level at all: not measured in these runs; say which side and which preset measures it.
            var oneSided = results.Where(r => r.Reason.Length > 0 && r.Reason != NoLevel).Select(r => $"{r.Name}: {r.Reason}").ToList();
            return new ClaimResult(claim, ClaimVerdict.NotMeasuredInTheseRuns,
                (oneSided.Count > 0 ? string.Join(" ", oneSided) : "No level of either side of this claim in these runs.")
                + $" Measured by {PresetNames(claim)}.",
                results, method);
        }

        var holds = covered.Count(r => r.Verdict == ClaimVerdict.Holds);
        var fails = covered.Where(r => r.Verdict == ClaimVerdict.DoesNotHold).ToList();
        var count = $"Holds in {holds} of {covered.Count} case{(covered.Count == 1 ? "" : "s")}";
        ClaimVerdict verdict;
        string summary;
        ClaimSummary? summaryEffect = null;
        var summaryCases = covered.Where(r => r.Ratio is > 0).ToList();
        if (!claim.InAllCases && summaryCases.Count >= MinimumCasesForSummary)
        {
            // A general statement: its summary effect over the cases decides; the cases that disagree are listed.
            // Every case decided the same way on its own (Holm-adjusted) test decides the statement whatever the summary's
            // interval, which measures the spread between cases: a claim that holds in every case holds in general.
            var (ratio, low, high) = Summary([.. summaryCases.Select(r => r.Ratio!.Value)]);
            var unanimous = holds == covered.Count ? ClaimVerdict.Holds : fails.Count == covered.Count ? ClaimVerdict.DoesNotHold : (ClaimVerdict?)null;
            verdict = unanimous ?? DecideSummary(claim, low, high);
            summaryEffect = new ClaimSummary(ratio, low, high, summaryCases.Count);
            summary = string.Create(CultureInfo.InvariantCulture,
                $"{count}; summary over {summaryCases.Count} cases ×{ratio:0.###} [{low:0.###}, {high:0.###}] (geometric mean, 95 % t interval over the cases' log ratios)")
                + (unanimous is null ? "" : unanimous == ClaimVerdict.Holds
                    ? "; every case holds on its own, so the statement holds whatever the summary's interval"
                    : "; every case does not hold on its own, so the statement does not hold whatever the summary's interval")
                + (fails.Count > 0 && unanimous is null ? $"; cases that disagree: {string.Join(", ", fails.Select(f => f.Label))}" : "") + ".";
        }
        else
        {
            // "In all cases" (or too few cases for a summary): every case must hold.
            verdict = fails.Count > 0 ? ClaimVerdict.DoesNotHold : holds == covered.Count ? ClaimVerdict.Holds : ClaimVerdict.Inconclusive;
            summary = count + (claim.InAllCases ? " (the source says \"in all cases\": every case must hold)"
                : $" (fewer than {MinimumCasesForSummary} cases for a summary: every case must hold)") + ".";
        }

        var reason = summary + " " + string.Join(" ", covered.Select(r => covered.Count > 1 ? $"{r.Label}: {r.Reason}" : r.Reason));
        var missing = results.Where(r => !r.Covered).Select(r => r.Name).ToList();
        if (missing.Count > 0)
        {
            reason += $" Not measured in these runs: {string.Join(", ", missing)}.";
        }

        return new ClaimResult(claim, verdict, reason, results, method) { Summary = summaryEffect };
    }

    /// <summary>Fewest independent observations (launches × repetitions, over the case's runs) per side for a test: 3 (docs/statistics.md: no interval below 3).</summary>
    public const int MinimumObservations = 3;

    /// <summary>Fewest cases for a general statement's summary effect (a t interval over the cases' log ratios): 3.</summary>
    public const int MinimumCasesForSummary = 3;

    private static (double Ratio, double Low, double High) Summary(IReadOnlyList<double> ratios)
    {
        var logs = ratios.Select(r => Math.Log(r)).ToList();
        var mean = logs.Average();
        var sd = Math.Sqrt(logs.Sum(x => (x - mean) * (x - mean)) / (logs.Count - 1));
        var half = Estimate.TwoSidedCriticalValue(logs.Count - 1, Alpha) * sd / Math.Sqrt(logs.Count);
        return (Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half));
    }

    private static ClaimVerdict DecideSummary(Claim claim, double low, double high)
    {
        if (claim.Comparison == ClaimComparison.Better)
        {
            var higher = ClaimMetrics.HigherIsBetter(claim.Metric);
            var margin = claim.EquivalenceMargin;
            return (higher ? low > 1 : high < 1) ? ClaimVerdict.Holds
                : (higher ? high < 1 : low > 1) || (low >= 1 / (1 + margin) && high <= 1 + margin) ? ClaimVerdict.DoesNotHold
                : ClaimVerdict.Inconclusive;
        }

        var (bandLow, bandHigh) = Band(claim);
        return low >= bandLow && high <= bandHigh ? ClaimVerdict.Holds
            : high < bandLow || low > bandHigh ? ClaimVerdict.DoesNotHold
            : ClaimVerdict.Inconclusive;
    }

    /// <summary>One case before Holm: its figures and raw test, or its final result when no test decides it.</summary>
    private sealed record CaseDraft(Contrast Contrast, ContrastResult Shell, double A, double B, RatioTest? Test, ContrastResult? Decided);

    private IEnumerable<CaseDraft> Cases(Claim claim, Contrast contrast, IReadOnlyList<ClaimLevel> levels)
    {
        var a = levels.Where(l => contrast.A.Matches(l.Level, l.Topology)).OrderBy(l => l.RunId).ToList();
        var b = levels.Where(l => contrast.B.Matches(l.Level, l.Topology)).OrderBy(l => l.RunId).ToList();
        if (a.Count == 0 && b.Count == 0)
        {
            yield return Final(contrast, new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, NoLevel, false));
            yield break;
        }

        // One case per match key that both sides have; every run of the case is pooled (none dropped).
        var bByKey = b.GroupBy(l => Key(l, contrast.Match)).ToDictionary(g => g.Key, g => g.ToList());
        var cases = a.GroupBy(l => Key(l, contrast.Match)).Where(g => bByKey.ContainsKey(g.Key))
            .Select(g => (Key: g.Key, A: g.ToList(), B: bByKey[g.Key])).ToList();
        if (cases.Count == 0)
        {
            var has = a.Count > 0 ? $"A ({contrast.A.Describe()})" : $"B ({contrast.B.Describe()})";
            var lacks = a.Count > 0 ? $"B ({contrast.B.Describe()})" : $"A ({contrast.A.Describe()})";
            yield return Final(contrast, new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive,
                $"The runs have levels of {has} but none of {lacks} to pair them with. What would help: {Help(claim, contrast)}.", false));
            yield break;
        }

        foreach (var (_, caseA, caseB) in cases)
        {
            yield return Case(claim, contrast, caseA, caseB);
        }
    }

    private CaseDraft Case(Claim claim, Contrast contrast, List<ClaimLevel> caseA, List<ClaimLevel> caseB)
    {
        var bounds = new Dictionary<string, int>();
        var exclusions = new List<string>();
        var repetitionsLeftOut = new List<string>();
        var rule = ClaimMetrics.LevelRuleOf(claim);
        List<(ClaimLevel Level, double? Exact, Estimate Estimate)> Keep(List<ClaimLevel> side)
        {
            var kept = new List<(ClaimLevel, double?, Estimate)>();
            foreach (var level in side)
            {
                var condition = conditions.ConditionOf(level.Level, level.Resources);
                var (exact, estimate) = Value(claim.Metric, level);
                var left = LeftOut(claim, rule, level, condition, exact, estimate);
                if (left is not null)
                {
                    exclusions.Add($"{left}: {level.Name} (run {level.RunId})");
                    continue;
                }

                bounds[BoundName(condition.Bound)] = bounds.GetValueOrDefault(BoundName(condition.Bound)) + 1;
                kept.Add((level, exact, estimate));
                if (level.RepetitionsLeftOut.Count > 0)
                {
                    repetitionsLeftOut.Add($"{level.Name} (run {level.RunId}): {string.Join(", ", level.RepetitionsLeftOut)}");
                }
            }

            return kept;
        }

        var keptA = Keep(caseA);
        var keptB = Keep(caseB);
        var shell = new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, "", true)
        {
            Case = CaseName(caseA[0], contrast.Match),
            LevelsCounted = keptA.Count + keptB.Count,
            LevelsExcluded = exclusions.Count,
            Exclusions = exclusions,
            Bounds = bounds,
            Levels = [.. keptA.Select(k => "A " + k.Level.Name + $" (run {k.Level.RunId})").Concat(keptB.Select(k => "B " + k.Level.Name + $" (run {k.Level.RunId})"))],
            RunIds = [.. keptA.Concat(keptB).Select(k => k.Level.RunId).Distinct()],
            Payloads = [.. keptA.Concat(keptB).Select(k => k.Level.Level.Payload).Distinct(StringComparer.Ordinal)],
            AMCycles = claim.Metric == ClaimMetric.CpuPerOperation ? MeanMCycles(keptA.Select(k => k.Level)) : null,
            BMCycles = claim.Metric == ClaimMetric.CpuPerOperation ? MeanMCycles(keptB.Select(k => k.Level)) : null,
        };
        var leftOut = (exclusions.Count == 0 ? "" : $" Left out: {string.Join("; ", exclusions)}.")
            + (repetitionsLeftOut.Count == 0 ? "" : $" Repetitions left out of counted levels: {string.Join("; ", repetitionsLeftOut)}.");
        if (keptA.Count == 0 || keptB.Count == 0)
        {
            var generatorBound = exclusions.Count(e => e.StartsWith("generator-bound", StringComparison.Ordinal));
            var partial = exclusions.Count(e => e.StartsWith("partial", StringComparison.Ordinal));
            var disturbed = exclusions.Count(e => e.StartsWith("disturbed", StringComparison.Ordinal));
            var notServerBound = exclusions.Count(e => e.StartsWith("not server-bound", StringComparison.Ordinal));
            var unsteady = exclusions.Count(e => e.StartsWith("before steady state", StringComparison.Ordinal));
            var busiest = caseA.Concat(caseB).Select(l => l.Level.ServerCpuPercent).Where(c => c is not null).DefaultIfEmpty().Max();
            var why = rule == LevelRule.Capacity && notServerBound > 0
                ? $"A capacity claim is decided on server-bound levels only, and a side has none ({notServerBound} level(s) not server-bound; the server's CPU was at most {(busiest is { } b ? b.ToString("0", CultureInfo.InvariantCulture) + " %" : "not measured")}). What would help: {SaturationAdvice(caseA.Concat(caseB).Select(l => l.Level.Variant))}."
                : disturbed > 0 && unsteady == 0 && generatorBound == 0 && partial == 0
                ? $"Every level of a side was disturbed: {DisturbedCount(caseA.Concat(caseB))} (other work or steal on the machine during their windows). What would help: a run on a quiet machine (docs/statistics.md, \"Disturbed\")."
                : generatorBound > 0
                ? $"Every level of a side was bound by the load generator ({generatorBound}), so it shows the generator's limit, not the server's. What would help: fewer clients, or a generator with cores of its own (the emulated-lan topology splits them)."
                : partial > 0
                    ? $"Every level of a side was cut short (partial, {partial}). What would help: a run that finishes its levels."
                : unsteady > 0 || disturbed > 0
                    ? $"Every level of a side was left out, none having a clean repetition: {unsteady} measured before steady state (a warm-up that ended at its cap), {disturbed} disturbed. What would help: longer warm-ups (the scenario's steadyState.maxWarmup, as the full presets have), more launches, a quieter machine."
                    : $"No level of a side has a value of {claim.Metric} ({Missing(claim.Metric)}).";
            return Final(contrast, shell with { Reason = why + leftOut });
        }

        var suffix = $" Levels counted: {keptA.Count} + {keptB.Count} (runs {string.Join(", ", shell.RunIds)}).{leftOut}";
        if (ClaimMetrics.IsExact(claim.Metric))
        {
            var exact = DecideExact(claim, contrast, keptA.Average(k => k.Exact!.Value), keptB.Average(k => k.Exact!.Value));
            return Final(contrast, shell with
            {
                Verdict = exact.Verdict, Reason = exact.Reason + suffix, A = exact.A, B = exact.B,
                Ratio = exact.Ratio, RatioLow = exact.RatioLow, RatioHigh = exact.RatioHigh,
            });
        }

        // The runs of a case pooled: every independent observation of every counted level, per side (Observations).
        var observationsA = keptA.SelectMany(k => Observations(claim.Metric, k.Level)).ToList();
        var observationsB = keptB.SelectMany(k => Observations(claim.Metric, k.Level)).ToList();
        var meanA = observationsA.Count > 0 ? observationsA.Average() : keptA.Average(k => k.Estimate.Mean);
        var meanB = observationsB.Count > 0 ? observationsB.Average() : keptB.Average(k => k.Estimate.Mean);
        var fewest = Math.Min(observationsA.Count, observationsB.Count);
        if (fewest < MinimumObservations)
        {
            double? ratio = meanB > 0 ? meanA / meanB : null;
            var few = shell with { A = meanA, B = meanB, Ratio = ratio, RatioLow = ratio, RatioHigh = ratio };
            var more = MinimumObservations - fewest;
            return Final(contrast, few with
            {
                Reason = $"A ÷ B = {FormatRatio(few)}; no test: only {observationsA.Count} vs {observationsB.Count} independent observations (launches × repetitions), "
                    + $"at least {MinimumObservations} per side. What would help: {more} more repetition{(more == 1 ? "" : "s")} (or launch{(more == 1 ? "" : "es")}) of the side with {fewest}." + suffix,
            });
        }

        var tested = claim.Comparison == ClaimComparison.Better
            ? test.Compare(observationsA, observationsB, Alpha)
            : test.Equivalence(observationsA, observationsB, Band(claim).Low, Band(claim).High, Alpha);
        return new CaseDraft(contrast, shell with { Reason = suffix, Method = tested.Method, MannWhitneyPValue = tested.MannWhitneyPValue }, meanA, meanB, tested, null);
    }

    /// <summary>
    /// The independent observations of <paramref name="level"/> for <paramref name="metric"/>: for throughput and mean
    /// response time the level's own (<see cref="LevelAggregate.ThroughputObservations"/>, <see cref="Estimate.Independent"/>:
    /// the launches' means when the run had 2 or more launches, docs/statistics.md, "Launches", else one value per
    /// repetition), the same the compare page and rankings test; for server resources and first calls one value per
    /// repetition. Empty when not stored.
    /// </summary>
    private static IReadOnlyList<double> Observations(ClaimMetric metric, ClaimLevel level) => metric switch
    {
        ClaimMetric.Throughput => [.. level.Level.ThroughputObservations.Select(o => o.Value)],
        ClaimMetric.MeanResponseTime => [.. level.Level.MeanMsObservations.Select(o => o.Value)],
        ClaimMetric.ServerCpu => level.Resources?.StackCpuPercentOfOneCoreValues ?? [],
        ClaimMetric.AvailableMemory => level.Resources?.AvailableMemoryMbValues ?? [],
        ClaimMetric.CpuPerOperation => level.Resources?.CpuUsPerOperationValues ?? [],
        ClaimMetric.Upstart => level.FirstCallsValues,
        _ => [],
    };

    /// <summary>Why a level is left out of a case under <paramref name="rule"/>, or null when it counts (docs/claims.md, "Levels by metric kind").</summary>
    private static string? LeftOut(Claim claim, LevelRule rule, ClaimLevel level, LevelCondition condition, double? exact, Estimate estimate)
    {
        if (condition.IsPartial)
        {
            return "partial";
        }

        if (ClaimMetrics.IsExact(claim.Metric))
        {
            // Counted bytes: no sampling noise, no contention in them; only a level without the count is left out.
            return exact is null ? $"without {claim.Metric}" : null;
        }

        if (level.Level.DisturbedRepetitions > 0)
        {
            return $"disturbed ({level.Level.DisturbedRepetitions} of {level.Level.CheckedRepetitions} repetitions)";
        }

        if (level.Level.SteadyStateReached == false)
        {
            return "before steady state";
        }

        var left = rule switch
        {
            LevelRule.Capacity when condition.Bound != Entities.LevelBound.Server => "not server-bound",
            LevelRule.EqualLoad when condition.Bound == Entities.LevelBound.Generator => "generator-bound",
            _ => null,
        };
        return left ?? (estimate.N == 0 ? $"without {claim.Metric}" : null);
    }

    /// <summary>"2 of 3 repetitions were disturbed" over <paramref name="levels"/> (their disturbed and checked repetitions summed).</summary>
    private static string DisturbedCount(IEnumerable<ClaimLevel> levels)
    {
        var list = levels.ToList();
        var disturbed = list.Sum(l => l.Level.DisturbedRepetitions);
        return $"{disturbed} of {list.Sum(l => l.Level.CheckedRepetitions)} repetition{(disturbed == 1 ? " was" : "s were")} disturbed";
    }

    private static CaseDraft Final(Contrast contrast, ContrastResult result) => new(contrast, result, default, default, null, result);

    private static ContrastResult Decide(Claim claim, CaseDraft draft, double? adjustedP)
    {
        var decided = DecideTested(claim, draft.Contrast, draft.A, draft.B, draft.Test!, adjustedP);
        return draft.Shell with
        {
            Verdict = decided.Verdict,
            Reason = decided.Reason + draft.Shell.Reason + MannWhitneyNote(draft.Test!),
            A = decided.A, B = decided.B, Ratio = decided.Ratio, RatioLow = decided.RatioLow, RatioHigh = decided.RatioHigh,
            HasInterval = decided.HasInterval,
            PValue = draft.Test!.PValue,
            AdjustedPValue = adjustedP,
        };
    }

    private static string MannWhitneyNote(RatioTest t) => t.MannWhitneyPValue is { } p
        ? string.Create(CultureInfo.InvariantCulture, $" Mann–Whitney U: p = {p:0.####} (reported, not deciding).")
        : "";

    private static ContrastResult DecideTested(Claim claim, Contrast contrast, double a, double b, RatioTest t, double? adjustedP)
    {
        var effect = new ContrastResult(contrast.Name, ClaimVerdict.Inconclusive, "", true)
        {
            A = a, B = b, Ratio = t.Ratio, RatioLow = t.Low, RatioHigh = t.High, HasInterval = t.HasInterval,
        };
        var shown = FormatRatio(effect);
        if (t.Ratio is not { } ratio)
        {
            return effect with { Reason = $"B's mean is 0: no ratio. What would help: {Help(claim, contrast)}." };
        }

        // After Holm: the case differs when its adjusted p is below α.
        var outcome = t.Outcome == TestOutcome.NotPossible ? TestOutcome.NotPossible
            : adjustedP is { } q ? (q < Alpha ? TestOutcome.Differs : TestOutcome.NoDifference) : t.Outcome;
        var p = string.Create(CultureInfo.InvariantCulture, $"p = {t.PValue:0.####}, Holm-adjusted {adjustedP:0.####}");
        if (claim.Comparison == ClaimComparison.Better)
        {
            var wanted = ClaimMetrics.HigherIsBetter(claim.Metric) ? ratio > 1 : ratio < 1;
            var margin = claim.EquivalenceMargin;
            return outcome switch
            {
                TestOutcome.NotPossible => effect with { Reason = $"A ÷ B = {shown}; no test: {t.Note}. What would help: at least 3 repetitions per level." },
                TestOutcome.Differs when wanted => effect with { Verdict = ClaimVerdict.Holds, Reason = $"A ÷ B = {shown}; Welch's t-test on the log scale finds the difference ({p})." },
                TestOutcome.Differs => effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown}: the other way round; Welch's t-test on the log scale finds the difference ({p})." },
                _ when t.HasInterval && t.Low >= 1 / (1 + margin) && t.High <= 1 + margin =>
                    effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown}: no difference, the interval lies within ±{margin:P0} (no advantage)." },
                _ => effect with { Reason = $"A ÷ B = {shown}; Welch's t-test on the log scale cannot tell A from B ({p}). What would help: more repetitions, or longer levels in steady state, to narrow the interval." },
            };
        }

        var (low, high) = Band(claim);
        if (!t.HasInterval || t.Outcome == TestOutcome.NotPossible)
        {
            return effect with { Reason = $"A ÷ B = {shown}; no test ({t.Note ?? "none given"}). What would help: at least 3 observations per side." };
        }

        // TOST: equivalent when its Holm-adjusted p is below α; the other way when the 95 % interval lies wholly outside.
        var equivalent = (adjustedP ?? t.PValue) < Alpha;
        var outside = t.High < low || t.Low > high;
        var tost = string.Create(CultureInfo.InvariantCulture, $"TOST p = {t.PValue:0.####}, Holm-adjusted {adjustedP:0.####}");
        return equivalent ? effect with { Verdict = ClaimVerdict.Holds, Reason = $"A ÷ B = {shown}, inside {DescribeBand(low, high)} by TOST ({tost})." }
            : outside ? effect with { Verdict = ClaimVerdict.DoesNotHold, Reason = $"A ÷ B = {shown}, outside {DescribeBand(low, high)} ({tost})." }
            : effect with { Reason = $"A ÷ B = {shown}: TOST cannot place it inside {DescribeBand(low, high)} ({tost}). What would help: more repetitions to narrow the interval." };
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

    /// <summary>
    /// The ratios A ÷ B that agree with a <see cref="ClaimComparison.Similar"/> or <see cref="ClaimComparison.RatioInRange"/>
    /// claim: [1/(1+x), 1+x] for "A ≈ B within x", [low, high] for a range (high +∞ when open).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="claim"/> is null.</exception>
    public static (double Low, double High) Band(Claim claim) => (claim ?? throw new ArgumentNullException(nameof(claim))).Comparison == ClaimComparison.Similar
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

    /// <summary>
    /// What would make a capacity claim's levels server-bound: more clients, and the <c>lean</c> generator only when it can
    /// call every variant of the claim's case (the client catalogue's <c>lean</c> entry); else the variants it cannot call
    /// with the catalogue's reason (the whitepaper's capacity claim compares two WS-Security variants, which it cannot).
    /// </summary>
    private static string SaturationAdvice(IEnumerable<string> variants)
    {
        var lean = ClientTechnology.Get("lean");
        var refused = variants.Distinct(StringComparer.Ordinal).Where(v => !lean.Callable.Contains(v)).Order(StringComparer.Ordinal).ToList();
        if (refused.Count == 0)
        {
            return "more clients, or the lean generator (client lean), so that the server saturates";
        }

        var reasons = refused.Select(v => lean.Refusals?.GetValueOrDefault(v) is { } reason ? $"{v}: {reason}" : v);
        return $"more clients, so that the server saturates (the lean generator cannot call {string.Join("; ", reasons)})";
    }

    private static string Missing(ClaimMetric metric) => metric switch
    {
        ClaimMetric.ServerCpu or ClaimMetric.AvailableMemory or ClaimMetric.CpuPerOperation => "no server CPU measured in the levels' windows (no CPU counters at their ends, no periodic reading inside them)",
        ClaimMetric.Upstart => "the first calls are read for 1-client levels only",
        ClaimMetric.WireBytes or ClaimMetric.OverheadPerMessage => "the client did not count wire bytes",
        _ => "no request succeeded",
    };

    /// <summary>"preset 3 (Security modes)" or "presets 3 (…), 5 (…)": the presets that measure <paramref name="claim"/>, with their titles when known.</summary>
    public string PresetNames(Claim claim)
    {
        ArgumentNullException.ThrowIfNull(claim);
        var names = claim.Presets.Select(n => presetTitles?.GetValueOrDefault(n) is { } title ? $"{n} ({title})" : n.ToString(CultureInfo.InvariantCulture)).ToList();
        return names.Count == 0 ? "no preset" : (names.Count == 1 ? "preset " : "presets ") + string.Join(", ", names);
    }

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

    private static string CaseName(ClaimLevel level, MatchOn match)
    {
        var parts = new List<string>();
        if (match.HasFlag(MatchOn.Variant)) parts.Add(level.Level.Variant);
        if (match.HasFlag(MatchOn.Client)) parts.Add(level.Level.Client);
        if (match.HasFlag(MatchOn.Payload)) parts.Add(level.Level.Payload);
        if (match.HasFlag(MatchOn.Clients)) parts.Add(level.Level.Clients == 1 ? "1 client" : $"{level.Level.Clients} clients");
        if (match.HasFlag(MatchOn.Topology)) parts.Add(level.Topology);
        return parts.Count == 0 ? "every level" : string.Join(" × ", parts);
    }

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
