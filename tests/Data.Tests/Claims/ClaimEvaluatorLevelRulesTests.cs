using Dashboard.Data.Claims;

namespace Dashboard.Data.Tests.Claims;

/// <summary>Which levels decide a claim, by metric kind (issue #34 item 3; docs/claims.md, "Levels by metric kind").</summary>
public class ClaimEvaluatorLevelRulesTests
{
    private static readonly ClaimEvaluator Evaluator = ClaimEvaluator.Default;

    private static Claim Throughput(bool atCapacity) => new(
        "test-ice-capacity", "IceTcp has higher throughput than IceSsl.",
        new ClaimSource(ClaimCatalogue.Thesis, "The thesis", "ch. 9.3", "Quote."), [1], ClaimMetric.Throughput, ClaimComparison.Better,
        [new Contrast("IceTcp vs IceSsl", new LevelFilter(Variants: ["IceTcp"]), new LevelFilter(Variants: ["IceSsl"]), MatchOn.AllButVariant)])
    {
        AtCapacity = atCapacity,
    };

    [Fact]
    public void LevelRuleOf_MetricKinds_CostCapacityOrEqualLoad()
    {
        Assert.Equal(LevelRule.Cost, ClaimMetrics.LevelRuleOf(ClaimLevels.Claim("book-binary-cheaper-per-operation")));
        Assert.Equal(LevelRule.Cost, ClaimMetrics.LevelRuleOf(ClaimLevels.Claim("ice-paper-xml-twice-binary-bytes")));
        Assert.Equal(LevelRule.Capacity, ClaimMetrics.LevelRuleOf(ClaimLevels.Claim("whitepaper-message-credentials-beat-ws-security")));
        Assert.Equal(LevelRule.EqualLoad, ClaimMetrics.LevelRuleOf(ClaimLevels.Claim("thesis-9.3-unsecure-beats-secure-throughput")));
    }

    [Fact]
    public void Evaluate_CapacityClaimWithoutServerBoundLevel_InconclusiveSayingHowBusyTheServerWas()
    {
        var result = Evaluator.Evaluate(Throughput(atCapacity: true),
        [
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [2000, 2010, 1990], generatorCpu: 50, serverCpu: 95),
            ClaimLevels.Of("IceSsl", "java", "Int", 20, [1000, 1010, 990], generatorCpu: 50, serverCpu: 62),
        ]);

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("server-bound levels only", result.Reason, StringComparison.Ordinal);
        Assert.Contains("at most 95 %", result.Reason, StringComparison.Ordinal);
        Assert.Contains("not server-bound: IceSsl", Assert.Single(Assert.Single(result.Contrasts).Exclusions), StringComparison.Ordinal);
        // The lean generator calls no Ice variant: the advice does not send the reader to it, and says why.
        Assert.Contains("the lean generator cannot call IceSsl: not HTTP (the Ice protocol); IceTcp: not HTTP", result.Reason, StringComparison.Ordinal);
        Assert.DoesNotContain("or the lean generator", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_CapacityClaimOnVariantsTheLeanGeneratorCalls_AdviceNamesIt()
    {
        var claim = new Claim(
            "test-tls-capacity", "AspNetHttpJson has higher throughput than AspNetHttpsJson at capacity.",
            new ClaimSource(ClaimCatalogue.Thesis, "The thesis", "ch. 9.3", "Quote."), [1], ClaimMetric.Throughput, ClaimComparison.Better,
            [new Contrast("http vs https", new LevelFilter(Variants: ["AspNetHttpJson"]), new LevelFilter(Variants: ["AspNetHttpsJson"]), MatchOn.AllButVariant)])
        {
            AtCapacity = true,
        };

        var result = Evaluator.Evaluate(claim,
        [
            ClaimLevels.Of("AspNetHttpJson", "dotnet", "Int", 20, [2000, 2010, 1990], generatorCpu: 50, serverCpu: 60),
            ClaimLevels.Of("AspNetHttpsJson", "dotnet", "Int", 20, [1000, 1010, 990], generatorCpu: 50, serverCpu: 62),
        ]);

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("What would help: more clients, or the lean generator (client lean), so that the server saturates.", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_CapacityClaimOnServerBoundLevels_Decided()
    {
        var result = Evaluator.Evaluate(Throughput(atCapacity: true),
        [
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [2000, 2010, 1990], generatorCpu: 50, serverCpu: 95),
            ClaimLevels.Of("IceSsl", "java", "Int", 20, [1000, 1010, 990], generatorCpu: 50, serverCpu: 96),
        ]);

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Equal("server 2", result.BoundSummary);
    }

    [Fact]
    public void Evaluate_EveryLevelOfASideBeforeSteadyState_SaysSoNotThatNothingWasMeasured()
    {
        // The claims table of 2026-11-28 05:40 UTC: levels left out for warm-ups that ended at their cap were reported as
        // "No level of a side has a value of …", as if nothing had been measured.
        var result = Evaluator.Evaluate(Throughput(atCapacity: false),
        [
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [2000, 2010, 1990]),
            ClaimLevels.Of("IceSsl", "java", "Int", 20, [1000, 1010, 990], unsteady: true),
        ]);

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.StartsWith("before steady state: IceSsl", Assert.Single(Assert.Single(result.Contrasts).Exclusions), StringComparison.Ordinal);
        Assert.Contains("none having a clean repetition: 1 measured before steady state", result.Reason, StringComparison.Ordinal);
        Assert.DoesNotContain("has a value of", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_LevelWithARepetitionLeftOut_CountedAndTheReasonNamesTheRepetition()
    {
        var result = Evaluator.Evaluate(Throughput(atCapacity: false),
        [
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [2000, 2010, 1990]),
            ClaimLevels.Of("IceSsl", "java", "Int", 20, [1000, 1010, 990]) with { RepetitionsLeftOut = ["launch 3: disturbed"] },
        ]);

        var contrast = Assert.Single(result.Contrasts);
        Assert.Equal(2, contrast.LevelsCounted);
        Assert.Empty(contrast.Exclusions);
        Assert.Contains("Repetitions left out of counted levels: IceSsl × java × Int × 20 clients (same-machine) (run 1): launch 3: disturbed.", contrast.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_EqualLoadClaimOnADisturbedLevel_LeftOutAndNamed()
    {
        var result = Evaluator.Evaluate(Throughput(atCapacity: false),
        [
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [2000, 2010, 1990]),
            ClaimLevels.Of("IceSsl", "java", "Int", 20, [1000, 1010, 990], disturbed: true),
        ]);

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.StartsWith("disturbed (3 of 3 repetitions): IceSsl", Assert.Single(Assert.Single(result.Contrasts).Exclusions), StringComparison.Ordinal);
        Assert.Contains("quiet machine", result.Reason, StringComparison.Ordinal);
        // The advice counts what was disturbed: the side's 3 repetitions, not the undisturbed side's.
        Assert.Contains("3 of 3 repetitions were disturbed", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_CostClaimOnGeneratorBoundLevels_StillCounted()
    {
        // Counted bytes per message do not depend on what bound the level.
        var result = Evaluator.Evaluate(ClaimLevels.Claim("ice-paper-binary-halves-xml-overhead"),
        [
            ClaimLevels.Of("MetroSoap11FastInfoset", "java", "String1", 1, [2000], requestBytes: 147, responseBytes: 157, generatorCpu: 99),
            ClaimLevels.Of("MetroSoap11", "java", "String1", 1, [2000], requestBytes: 304, responseBytes: 354, generatorCpu: 99),
        ]);

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Equal(2, result.LevelsCounted);
        Assert.Equal("generator 2", result.BoundSummary);
    }
}
