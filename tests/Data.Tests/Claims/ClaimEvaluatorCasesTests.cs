using Dashboard.Data.Claims;
using Dashboard.Service.Contracts.Payloads;

namespace Dashboard.Data.Tests.Claims;

/// <summary>Per-case verdicts (issue #34 item 2): one comparison per matched case, runs pooled, Holm across the cases.</summary>
public class ClaimEvaluatorCasesTests
{
    private static readonly ClaimEvaluator Evaluator = ClaimEvaluator.Default;

    // A synthetic general statement: IceTcp has more throughput than IceSsl, one case per client × payload × clients × topology.
    private static Claim General(bool inAllCases = false) => new(
        "test-ice-faster", "IceTcp has higher throughput than IceSsl.",
        new ClaimSource(ClaimCatalogue.Thesis, "The thesis", "ch. 9.3", "Quote."), [1], ClaimMetric.Throughput, ClaimComparison.Better,
        [new Contrast("IceTcp vs IceSsl", new LevelFilter(Variants: ["IceTcp"]), new LevelFilter(Variants: ["IceSsl"]), MatchOn.AllButVariant)])
    {
        InAllCases = inAllCases,
    };

    private static string Payload(int i) => PayloadCatalogue.Ids[i];

    private static ClaimLevel Run(ClaimLevel level, int runId) => level with { RunId = runId };

    [Fact]
    public void Evaluate_TwoPayloads_OneCaseEachWithItsOwnVerdict()
    {
        var result = Evaluator.Evaluate(General(inAllCases: true),
        [
            ClaimLevels.Of("IceTcp", "java", Payload(0), 20, [2000, 2010, 1990]),
            ClaimLevels.Of("IceSsl", "java", Payload(0), 20, [1000, 1010, 990]),
            ClaimLevels.Of("IceTcp", "java", Payload(1), 20, [1000, 1200, 800]),
            ClaimLevels.Of("IceSsl", "java", Payload(1), 20, [1000, 800, 1200]),
        ]);

        Assert.Equal([ClaimVerdict.Holds, ClaimVerdict.Inconclusive], result.Contrasts.Select(c => c.Verdict));
        Assert.Equal([Payload(0), Payload(1)], result.Contrasts.Select(c => c.Payloads.Single()));
        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.StartsWith("Holds in 1 of 2 cases (the source says \"in all cases\"", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_SameCellInTwoRuns_BothRunsPooledNoneDropped()
    {
        var result = Evaluator.Evaluate(General(),
        [
            Run(ClaimLevels.Of("IceTcp", "java", Payload(0), 20, [2000, 2010, 1990]), 1),
            Run(ClaimLevels.Of("IceSsl", "java", Payload(0), 20, [1000, 1010, 990]), 1),
            Run(ClaimLevels.Of("IceTcp", "java", Payload(0), 20, [2200, 2210, 2190]), 2),
            Run(ClaimLevels.Of("IceSsl", "java", Payload(0), 20, [1100, 1110, 1090]), 2),
        ]);

        var only = Assert.Single(result.Contrasts);
        Assert.Equal(4, only.LevelsCounted);
        Assert.Equal(0, only.LevelsExcluded);
        Assert.Equal([1, 2], only.RunIds);
        Assert.Equal(2100, only.A!.Value, 6); // the mean of both runs' means, not the first run's 2000
        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
    }

    [Fact]
    public void Evaluate_PartialLevelOfOneRun_LeftOutAndNamed()
    {
        var result = Evaluator.Evaluate(General(),
        [
            Run(ClaimLevels.Of("IceTcp", "java", Payload(0), 20, [2000, 2010, 1990]), 1),
            Run(ClaimLevels.Of("IceSsl", "java", Payload(0), 20, [1000, 1010, 990]), 1),
            Run(ClaimLevels.Of("IceTcp", "java", Payload(0), 20, [500, 2010, 1990], partial: true), 2),
        ]);

        var only = Assert.Single(result.Contrasts);
        Assert.Equal(2, only.LevelsCounted);
        Assert.Equal(["partial: IceTcp × java × " + Payload(0) + " × 20 clients (same-machine) (run 2)"], only.Exclusions);
        Assert.Contains("Left out: partial: IceTcp", only.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_TenCasesOneDiffersAtFourPercent_NotDoesNotHoldAfterHolm()
    {
        // Nine cases without a difference (noisy, inconclusive) and one where A is lower than B at a raw p below 5 %.
        var levels = new List<ClaimLevel>();
        for (var i = 0; i < 9; i++)
        {
            levels.Add(ClaimLevels.Of("IceTcp", "java", Payload(i), 20, [900, 1100, 1000]));
            levels.Add(ClaimLevels.Of("IceSsl", "java", Payload(i), 20, [1000, 1100, 900]));
        }

        levels.Add(ClaimLevels.Of("IceTcp", "java", Payload(9), 20, [940, 960, 980]));
        levels.Add(ClaimLevels.Of("IceSsl", "java", Payload(9), 20, [1000, 1020, 1040]));

        var result = Evaluator.Evaluate(General(inAllCases: true), levels);

        Assert.Equal(10, result.Contrasts.Count);
        var odd = result.Contrasts.Single(c => c.Payloads.Single() == Payload(9));
        Assert.InRange(odd.PValue!.Value, 0.005, 0.05); // alone, it would say "does not hold"
        Assert.True(odd.AdjustedPValue >= 0.05, $"Holm-adjusted p {odd.AdjustedPValue}");
        Assert.NotEqual(ClaimVerdict.DoesNotHold, odd.Verdict);
        Assert.NotEqual(ClaimVerdict.DoesNotHold, result.Verdict);
        Assert.StartsWith("Holds in 0 of 10 cases", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_GeneralStatementOverFourCases_SummaryDecidesAndDisagreeingCaseListed()
    {
        var levels = new List<ClaimLevel>();
        for (var i = 0; i < 4; i++)
        {
            var factor = i == 3 ? 0.8 : 1.5 + (0.1 * i);
            levels.Add(ClaimLevels.Of("IceTcp", "java", Payload(i), 20, [1000 * factor, 1010 * factor, 990 * factor]));
            levels.Add(ClaimLevels.Of("IceSsl", "java", Payload(i), 20, [1000, 1010, 990]));
        }

        var result = Evaluator.Evaluate(General(), levels);

        Assert.Contains("Holds in 3 of 4 cases; summary over 4 cases ×", result.Reason, StringComparison.Ordinal);
        Assert.Contains("cases that disagree: IceTcp vs IceSsl · java × " + Payload(3), result.Reason, StringComparison.Ordinal);
        // Log ratios ln 1.5, ln 1.6, ln 1.7, ln 0.8 spread too widely for a 95 % t interval (3 df) above 1.
        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
    }

    [Fact]
    public void Evaluate_GeneralStatementEveryCaseHoldsButSummaryWide_Holds()
    {
        // Four cases, each clearly better on its own test, with effects as far apart as the book's claim emulated-lan
        // (×0.80, ×0.70, ×0.35, ×0.46 there; here ×1.25 to ×3): the summary's 3-df interval over their log ratios is
        // wide, yet a statement that holds in every case holds in general.
        double[] factors = [1.25, 1.4, 2.8, 3.0];
        var levels = new List<ClaimLevel>();
        for (var i = 0; i < factors.Length; i++)
        {
            levels.Add(ClaimLevels.Of("IceTcp", "java", Payload(i), 20, [1000 * factors[i], 1010 * factors[i], 990 * factors[i]]));
            levels.Add(ClaimLevels.Of("IceSsl", "java", Payload(i), 20, [1000, 1010, 990]));
        }

        var result = Evaluator.Evaluate(General(), levels);

        Assert.All(result.Contrasts, c => Assert.Equal(ClaimVerdict.Holds, c.Verdict));
        Assert.True(result.Summary!.Low < 1, $"the summary's interval alone would not decide: low {result.Summary.Low}");
        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Contains("Holds in 4 of 4 cases; summary over 4 cases ×", result.Reason, StringComparison.Ordinal);
        Assert.Contains("every case holds on its own, so the statement holds whatever the summary's interval", result.Reason, StringComparison.Ordinal);
    }
}
