using Dashboard.Data.Claims;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Claims;

public class ClaimEvaluatorTests
{
    private const string Security = "thesis-9.3-unsecure-beats-secure-throughput";
    private static readonly ClaimEvaluator Evaluator = ClaimEvaluator.Default;

    private static ClaimResult Decide(string claimId, params ClaimLevel[] levels) => Evaluator.Evaluate(ClaimLevels.Claim(claimId), levels);

    [Fact]
    public void Evaluate_UnsecureTwiceAsFastOverThreeRepetitions_Holds()
    {
        var result = Decide(Security,
            ClaimLevels.Of("MetroSoap11", "java", "Int", 20, [1000, 1010, 990]),
            ClaimLevels.Of("MetroSoap11Https", "java", "Int", 20, [500, 505, 495]));

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Equal(2.0, result.Ratio!.Value, 3);
        Assert.True(result.RatioLow < 2.0 && result.RatioHigh > 2.0, $"interval [{result.RatioLow}, {result.RatioHigh}] should hold 2.0");
        Assert.Equal(2, result.LevelsCounted);
        var contrast = Assert.Single(result.Contrasts, c => c.Covered);
        Assert.Equal("MetroSoap11 vs MetroSoap11Https", contrast.Name);
        Assert.Equal("java × Int × 20 clients × same-machine", contrast.Case);
        Assert.Contains("MetroSoap11 × java × Int × 20 clients", contrast.Levels[0], StringComparison.Ordinal);
        Assert.StartsWith("Holds in 1 of 1 case", result.Reason, StringComparison.Ordinal);
        Assert.Contains("Not measured in these runs", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_SecureFasterThanUnsecure_DoesNotHold()
    {
        var result = Decide(Security,
            ClaimLevels.Of("IceTcp", "java", "Int", 50, [800, 810, 790]),
            ClaimLevels.Of("IceSsl", "java", "Int", 50, [1200, 1210, 1190]));

        Assert.Equal(ClaimVerdict.DoesNotHold, result.Verdict);
        Assert.True(result.Ratio < 1);
        Assert.Contains("other way round", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_OneRepetition_InconclusiveAskingForRepetitions()
    {
        var result = Decide(Security,
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [30_000]),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [20_000]));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Equal(1.5, result.Ratio!.Value, 3);
        // 1 observation per side, 3 needed: the advice asks for what is missing, not for what the runs already had.
        Assert.Contains("only 1 vs 1 independent observations", result.Reason, StringComparison.Ordinal);
        Assert.Contains("2 more repetitions", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_NoiseLargerThanTheDifference_InconclusiveAskingForMoreRepetitions()
    {
        var result = Decide(Security,
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [1000, 600, 1400]),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [950, 550, 1350]));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("cannot tell", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_SidesEqualWithinTheMargin_DoesNotHold()
    {
        var result = Decide(Security,
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [1000, 1001, 999]),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [1000, 1002, 998]));

        Assert.Equal(ClaimVerdict.DoesNotHold, result.Verdict);
        Assert.Contains("no advantage", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_WindowsCredentialsClaim_NotMeasurableWithTheReason()
    {
        var result = Decide("thesis-9.2.1-windows-transport-best", ClaimLevels.Of("AspNetH2TlsBinXmlCert", "dotnet", "Int", 20, [1000, 1000, 1000]));

        Assert.Equal(ClaimVerdict.NotMeasurable, result.Verdict);
        Assert.Contains("Kerberos", result.Reason, StringComparison.Ordinal);
        Assert.Null(result.Ratio);
    }

    [Fact]
    public void Evaluate_ServerClaimOnGeneratorBoundLevels_Inconclusive()
    {
        var result = Decide(Security,
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [30_000, 30_100, 29_900], generatorCpu: 97),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [20_000, 20_100, 19_900], generatorCpu: 95));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("load generator", result.Reason, StringComparison.Ordinal);
        Assert.Equal(0, result.LevelsCounted);
        Assert.Equal(2, result.LevelsExcluded);
        Assert.Contains("generator-bound: WcfBasicHttps × dotnet × Int × 20 clients (same-machine) (run 1)", result.Contrasts.SelectMany(c => c.Exclusions));
    }

    [Fact]
    public void Evaluate_ResponseTimeClaimOnGeneratorBoundLevels_LeftOut()
    {
        // Response time at equal load: a generator-bound level shows the generator's queueing, not the server's (issue #34 item 3).
        var result = Decide("thesis-9.3-unsecure-beats-secure-response-time",
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [30_000, 30_100, 29_900], generatorCpu: 97),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [20_000, 20_100, 19_900], generatorCpu: 95));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Equal(2, result.LevelsExcluded);
        Assert.Contains("load generator", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_PartialLevelStored_LeftOutAndInconclusive()
    {
        var result = Decide(Security,
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [30_000, 30_100, 29_900], partial: true),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [20_000, 20_100, 19_900]));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("cut short", result.Reason, StringComparison.Ordinal);
        Assert.Equal(1, result.LevelsExcluded);
    }

    [Fact]
    public void Evaluate_TwoRepetitionsPerSide_NoTestBelowThreeObservations()
    {
        var result = Decide(Security,
            ClaimLevels.Of("MetroSoap11", "java", "Int", 20, [1000, 1020]),
            ClaimLevels.Of("MetroSoap11Https", "java", "Int", 20, [500, 510]));

        // Issue #34 item 4: at least 3 independent observations per side; 2 give no test, whatever the ratio.
        var contrast = Assert.Single(result.Contrasts, c => c.Covered);
        Assert.Equal(2.0, contrast.Ratio!.Value, 2);
        Assert.Null(contrast.PValue);
        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("2 vs 2 independent observations", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_TwoRunsOfTwoRepetitions_PooledToFourObservationsAndTested()
    {
        var result = Decide(Security,
            ClaimLevels.Of("MetroSoap11", "java", "Int", 20, [1000, 1020]),
            ClaimLevels.Of("MetroSoap11Https", "java", "Int", 20, [500, 510]),
            ClaimLevels.Of("MetroSoap11", "java", "Int", 20, [1010, 990]) with { RunId = 2 },
            ClaimLevels.Of("MetroSoap11Https", "java", "Int", 20, [505, 495]) with { RunId = 2 });

        var contrast = Assert.Single(result.Contrasts, c => c.Covered);
        Assert.NotNull(contrast.PValue);
        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Contains("Welch's t-test on the log scale finds the difference", result.Reason, StringComparison.Ordinal);
        Assert.Contains("Perfolizer 0.6.1", result.Method, StringComparison.Ordinal);
        // Both runs pooled: 4 observations per side, and the case names its exact test.
        Assert.StartsWith("Welch's two-sided t-test on ln values (Perfolizer 0.6.1), n = 4 vs 4", contrast.Method, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_OnlyOneSideMeasured_NotMeasuredInTheseRunsNamingTheMissingSide()
    {
        var result = Decide(Security, ClaimLevels.Of("MetroSoap11", "java", "Int", 20, [1000, 1000, 1000]));

        Assert.Equal(ClaimVerdict.NotMeasuredInTheseRuns, result.Verdict);
        Assert.Contains("none of B", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_CrossMachineClaimOnASameMachineRun_NotMeasuredInTheseRunsAskingForBothTopologies()
    {
        var result = Decide("thesis-9.1.1-cross-machine-throughput", ClaimLevels.Of("IceTcp", "java", "Int", 20, [1000, 1000, 1000]));

        // Not "inconclusive, levels counted 0": the emulated-lan side was never run.
        Assert.Equal(ClaimVerdict.NotMeasuredInTheseRuns, result.Verdict);
        Assert.Equal(0, result.LevelsCounted);
        Assert.Contains("both topologies", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_CrossMachineFasterInBothTopologies_Holds()
    {
        var result = Decide("thesis-9.1.1-cross-machine-throughput",
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [1500, 1510, 1490], topology: ClaimCatalogue.EmulatedLan),
            ClaimLevels.Of("IceTcp", "java", "Int", 20, [1000, 1010, 990]));

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Equal(1.5, result.Ratio!.Value, 3);
    }

    [Fact]
    public void Evaluate_BinaryOverheadLessThanHalfOfXml_HoldsOnCountedBytes()
    {
        // String1 (Table I sent strings only): own bytes 1 each way. SOAP 1.1: (304 − 1 + 354 − 1) / 2 = 328; FastInfoset: (147 − 1 + 157 − 1) / 2 = 151.
        var result = Decide("ice-paper-binary-halves-xml-overhead",
            ClaimLevels.Of("MetroSoap11FastInfoset", "java", "String1", 1, [2000], requestBytes: 147, responseBytes: 157),
            ClaimLevels.Of("MetroSoap11", "java", "String1", 1, [2000], requestBytes: 304, responseBytes: 354));

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        Assert.Equal(151.0 / 328, result.Ratio!.Value, 6);
        // The WCF bindings' pair (WcfBinaryHttp vs WcfBasicHttp) has no level here: named, not counted.
        var contrast = Assert.Single(result.Contrasts, c => c.Covered);
        Assert.Contains("Not measured in these runs: WcfBinaryHttp vs WcfBasicHttp.", result.Reason, StringComparison.Ordinal);
        Assert.Equal(151, contrast.A!.Value, 6);
        Assert.Equal(328, contrast.B!.Value, 6);
    }

    [Fact]
    public void Figures_OverheadClaim_ShowsEachSidesBytesPerMessage()
    {
        var result = Decide("ice-paper-binary-halves-xml-overhead",
            ClaimLevels.Of("MetroSoap11FastInfoset", "java", "String1", 1, [2000], requestBytes: 147, responseBytes: 157),
            ClaimLevels.Of("MetroSoap11", "java", "String1", 1, [2000], requestBytes: 304, responseBytes: 354));

        Assert.Equal("A 151 vs B 328 bytes per message beyond the payload's own", result.Figures);
    }

    [Fact]
    public void Figures_CostPerOperationClaim_ShowsMicrosecondsAndMCyclesOfEachSide()
    {
        // Seed 004's cost: 90 µs of CPU per call at 3,000 MHz = 0.27 MCycles; 270 µs = 0.81 MCycles.
        var binary = WithCost(ClaimLevels.Of("AspNetH2BinXml", "dotnet", "Get256Bytes", 1, [5000, 5010, 4990]), [89, 90, 91], 3000);
        var soap = WithCost(ClaimLevels.Of("MetroSoap11", "dotnet", "Get256Bytes", 1, [2000, 2010, 1990]), [269, 270, 271], 3000);

        var result = Evaluator.Evaluate(ClaimLevels.Claim("book-binary-cheaper-per-operation"), [binary, soap]);

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        var measured = Assert.Single(result.Contrasts, c => c.LevelsCounted > 0);
        Assert.Equal(0.27, measured.AMCycles!.Value, 6);
        Assert.Equal(0.81, measured.BMCycles!.Value, 6);
        Assert.Equal("A 90 µs (0.27 MCycles) vs B 270 µs (0.81 MCycles) of server CPU per operation", result.Figures);
        Assert.Equal("/runs/1?levels=all&payload=Get256Bytes#chart-cpu", Dashboard.Data.Export.ClaimsExport.EvidenceLink(result, 9));
    }

    private static ClaimLevel WithCost(ClaimLevel level, double[] microseconds, double clockMHz)
    {
        var cpu = Estimate.Of([10, 10, 10]);
        return level with
        {
            Resources = new LevelResources(cpu, cpu, Estimate.Of([2048, 2048, 2048]), Estimate.Of(microseconds),
                Estimate.Of([.. microseconds.Select(us => us * clockMHz / 1e6)]), 9) { StackCpuPercentOfOneCore = cpu, CpuUsPerOperationValues = microseconds },
        };
    }

    [Fact]
    public void Evaluate_BinaryOverheadAsLargeAsXml_DoesNotHold()
    {
        var result = Decide("ice-paper-binary-halves-xml-overhead",
            ClaimLevels.Of("MetroSoap11FastInfoset", "java", "String1", 1, [2000], requestBytes: 297, responseBytes: 337),
            ClaimLevels.Of("MetroSoap11", "java", "String1", 1, [2000], requestBytes: 304, responseBytes: 354));

        Assert.Equal(ClaimVerdict.DoesNotHold, result.Verdict);
        Assert.Contains("outside [0.3, 0.6]", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_BytesNotCounted_Inconclusive()
    {
        var result = Decide("ice-paper-xml-twice-binary-bytes",
            ClaimLevels.Of("MetroSoap11", "java", "Int", 1, [2000]),
            ClaimLevels.Of("MetroSoap11FastInfoset", "java", "Int", 1, [2000]));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("did not count wire bytes", result.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(3.0, ClaimVerdict.Holds)]
    [InlineData(10.0, ClaimVerdict.DoesNotHold)]
    [InlineData(1.2, ClaimVerdict.DoesNotHold)]
    public void Evaluate_MessageCredentialsOverWsSecurityRatio_InRangeHoldsOutsideDoesNot(double ratio, ClaimVerdict expected)
    {
        var result = Decide("whitepaper-message-credentials-beat-ws-security",
            ClaimLevels.Of("MetroSoap12WsaUserNameHttps", "java", "Orders10", 20, [100 * ratio, 101 * ratio, 99 * ratio], serverCpu: 97), // server-bound: a capacity claim (whitepaper, at CPU saturation)
            ClaimLevels.Of("MetroSoap12WsaX509", "java", "Orders10", 20, [100, 101, 99], serverCpu: 97));

        Assert.Equal(expected, result.Verdict);
        Assert.Equal(ratio, result.Ratio!.Value, 3);
    }

    [Fact]
    public void Evaluate_RatioIntervalStraddlesTheRange_Inconclusive()
    {
        var result = Decide("whitepaper-message-credentials-beat-ws-security",
            ClaimLevels.Of("MetroSoap12WsaUserNameHttps", "java", "Orders10", 20, [250, 300, 350], serverCpu: 97),
            ClaimLevels.Of("MetroSoap12WsaX509", "java", "Orders10", 20, [100, 101, 99], serverCpu: 97));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("TOST cannot place it inside", result.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1.00, ClaimVerdict.Holds)]
    [InlineData(1.50, ClaimVerdict.DoesNotHold)]
    public void Evaluate_Soap11AndSoap12Latency_SimilarWithinTenPercent(double factor, ClaimVerdict expected)
    {
        var result = Decide("latency-harness-soap11-equals-soap12",
            ClaimLevels.WithResponseTimes("MetroSoap11", "dotnet", "String1000", 1, [2.0 * factor, 2.01 * factor, 1.99 * factor]),
            ClaimLevels.WithResponseTimes("MetroSoap12Wsa", "dotnet", "String1000", 1, [2.0, 2.01, 1.99]));

        Assert.Equal(expected, result.Verdict);
    }

    [Fact]
    public void Evaluate_OneContrastHoldsOneFails_DoesNotHold()
    {
        var result = Decide("ice-paper-ice-faster-round-trip",
            ClaimLevels.WithResponseTimes("IceTcp", "java", "Int", 1, [0.2, 0.21, 0.19]),
            ClaimLevels.WithResponseTimes("MetroSoap11", "java", "Int", 1, [0.5, 0.51, 0.49]),
            ClaimLevels.WithResponseTimes("MetroSoap11FastInfoset", "java", "Int", 1, [0.1, 0.11, 0.09]));

        Assert.Equal(ClaimVerdict.DoesNotHold, result.Verdict);
        Assert.Equal([ClaimVerdict.Holds, ClaimVerdict.DoesNotHold], result.Contrasts.Where(c => c.Covered).Select(c => c.Verdict));
        Assert.Null(result.Ratio);
        Assert.Contains("IceTcp vs MetroSoap11 · java × Int × 1 client × same-machine: ×0.4", result.Effect, StringComparison.Ordinal);
    }

    [Fact]
    public void EvaluateAll_BasicHttpSecurityRun_ListsOnlyTheClaimsItConcerns()
    {
        var results = Evaluator.EvaluateAll(
        [
            ClaimLevels.Of("WcfBasicHttp", "dotnet", "Int", 20, [1000, 1000, 1000]),
            ClaimLevels.Of("WcfBasicHttps", "dotnet", "Int", 20, [900, 900, 900]),
        ]);

        var ids = results.Select(r => r.Claim.Id).ToList();
        Assert.Contains(Security, ids);
        Assert.DoesNotContain("ice-paper-ice-faster-upstart", ids);
        Assert.DoesNotContain("book-binary-cheaper-per-operation", ids);
        Assert.Equal(ClaimCatalogue.All.Count, Evaluator.EvaluateAll([], all: true).Count);
    }

    [Fact]
    public void Evaluate_NoLevelOfTheClaim_NotMeasuredInTheseRunsNamingThePreset()
    {
        var result = Evaluator.Evaluate(ClaimLevels.Claim("book-operations-per-second-order"), []);

        Assert.Equal(ClaimVerdict.NotMeasuredInTheseRuns, result.Verdict);
        Assert.Contains("Measured by preset 6.", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_NoLevelWithPresetTitles_NamesThePresetByTitle()
    {
        var evaluator = Evaluator.WithPresetTitles(new Dictionary<int, string> { [6] = "Book: operations per second" });

        var result = evaluator.Evaluate(ClaimLevels.Claim("book-operations-per-second-order"), []);

        Assert.Equal(ClaimVerdict.NotMeasuredInTheseRuns, result.Verdict);
        Assert.Contains("Measured by preset 6 (Book: operations per second).", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_TwoRepetitionsPerSide_AsksForOneMoreRepetition()
    {
        var result = Decide(Security,
            ClaimLevels.Of("MetroSoap11", "java", "Int", 20, [1000, 1010]),
            ClaimLevels.Of("MetroSoap11Https", "java", "Int", 20, [500, 505]));

        Assert.Equal(ClaimVerdict.Inconclusive, result.Verdict);
        Assert.Contains("only 2 vs 2 independent observations", result.Reason, StringComparison.Ordinal);
        Assert.Contains("1 more repetition (or launch)", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Evaluate_SameCellInTwoRunsWithin1Percent_EquivalentWithin5PercentByTost()
    {
        // A claim "A ≈ B within 5 %" whose two sides are the same cell, measured in two runs (run 1 as A, run 2 as B).
        var claim = new Claim("test-same-cell-equivalent", "the same cell in two runs is equivalent within 5 %",
            new ClaimSource("test", "test", "—", "—"), [1], ClaimMetric.Throughput, ClaimComparison.Similar,
            [new Contrast("run 1 vs run 2", new LevelFilter(Topology: ClaimCatalogue.SameMachine), new LevelFilter(Topology: "emulated-lan"), MatchOn.AllButTopology)])
        { Tolerance = 0.05 };
        var run1 = ClaimLevels.Of("AspNetHttpJson", "dotnet", "Int", 20, [1000, 1010, 990, 1005, 995]);
        var run2 = ClaimLevels.Of("AspNetHttpJson", "dotnet", "Int", 20, [1002, 1008, 992, 1000, 998], topology: "emulated-lan") with { RunId = 2 };

        var result = Evaluator.Evaluate(claim, [run1, run2]);

        Assert.Equal(ClaimVerdict.Holds, result.Verdict);
        var contrast = Assert.Single(result.Contrasts);
        Assert.StartsWith("TOST equivalence, two one-sided Welch tests on ln values", contrast.Method, StringComparison.Ordinal);
        Assert.Contains("n = 5 vs 5", contrast.Method, StringComparison.Ordinal);
        Assert.True(contrast.PValue < 0.05, $"TOST p {contrast.PValue}");
        Assert.NotNull(contrast.MannWhitneyPValue);
    }

    [Fact]
    public void Evaluate_SameCellTenPercentApart_NotEquivalentWithin5Percent()
    {
        var claim = new Claim("test-same-cell-apart", "the same cell in two runs is equivalent within 5 %",
            new ClaimSource("test", "test", "—", "—"), [1], ClaimMetric.Throughput, ClaimComparison.Similar,
            [new Contrast("run 1 vs run 2", new LevelFilter(Topology: ClaimCatalogue.SameMachine), new LevelFilter(Topology: "emulated-lan"), MatchOn.AllButTopology)])
        { Tolerance = 0.05 };
        var run1 = ClaimLevels.Of("AspNetHttpJson", "dotnet", "Int", 20, [1100, 1110, 1090]);
        var run2 = ClaimLevels.Of("AspNetHttpJson", "dotnet", "Int", 20, [1000, 1010, 990], topology: "emulated-lan") with { RunId = 2 };

        var result = Evaluator.Evaluate(claim, [run1, run2]);

        Assert.Equal(ClaimVerdict.DoesNotHold, result.Verdict);
    }
}
