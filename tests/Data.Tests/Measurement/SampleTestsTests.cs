using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

/// <summary>
/// The library-backed tests (<see cref="SampleTests"/>, Perfolizer 0.6.1) against values published with their data; no
/// expectation is computed by our code.
/// </summary>
public sealed class SampleTestsTests
{
    // Cushny & Peebles (1905) as R ships it (datasets::sleep): extra hours of sleep, group 1 and group 2. R's own example
    // of ?t.test, `t.test(extra ~ group, data = sleep)`, prints for this "Welch Two Sample t-test":
    //   t = -1.8608, df = 17.776, p-value = 0.07939
    //   95 percent confidence interval: -3.3654832  0.2054832
    private static readonly double[] SleepGroup1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    private static readonly double[] SleepGroup2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

    [Fact]
    public void Welch_RSleepExample_MatchesPublishedStatisticDegreesAndP()
    {
        var result = SampleTests.Welch(SleepGroup1, SleepGroup2);

        Assert.Equal(-1.8608, result.T, tolerance: 5e-5);
        Assert.Equal(17.776, result.DegreesOfFreedom, tolerance: 5e-4);
        Assert.Equal(0.07939, result.PValue, tolerance: 5e-6);
    }

    [Fact]
    public void Welch_RSleepExample_MatchesPublishedInterval()
    {
        var result = SampleTests.Welch(SleepGroup1, SleepGroup2, alpha: 0.05);

        Assert.Equal(-3.3654832, result.Low, tolerance: 5e-7);
        Assert.Equal(0.2054832, result.High, tolerance: 5e-7);
    }

    [Fact]
    public void Welch_WikipediaExample1_MatchesPublishedStatistic()
    {
        // Wikipedia, "Welch's t-test", Examples, example 1 (two samples of 15): Welch t = −2.46, ν ≈ 25.0, p = 0.021.
        double[] a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
        double[] b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];

        var result = SampleTests.Welch(a, b);

        Assert.Equal(-2.46, result.T, tolerance: 0.005);
        Assert.Equal(25.0, result.DegreesOfFreedom, tolerance: 0.05);
        Assert.Equal(0.021, result.PValue, tolerance: 0.0005);
    }

    // Difference, the test of rankings and the compare page, works on ln of the observations. Observations e^x of the
    // sleep data have the sleep data as their logarithms, so it must print R's numbers for t.test(extra ~ group, data =
    // sleep): group 1 as the candidate, group 2 as the baseline (R's difference is group 1 − group 2), the ratio's
    // interval e^−3.3654832 .. e^0.2054832.
    [Fact]
    public void Difference_ObservationsWhoseLogsAreTheRSleepData_MatchesPublishedTDfPAndInterval()
    {
        var result = SampleTests.Difference([.. SleepGroup2.Select(Math.Exp)], [.. SleepGroup1.Select(Math.Exp)]);

        Assert.Equal(-1.8608, result.T!.Value, tolerance: 5e-5);
        Assert.Equal(17.776, result.DegreesOfFreedom!.Value, tolerance: 5e-4);
        Assert.Equal(0.07939, result.PValue!.Value, tolerance: 5e-6);
        Assert.Equal(-3.3654832, Math.Log(result.RatioLow95!.Value), tolerance: 5e-7);
        Assert.Equal(0.2054832, Math.Log(result.RatioHigh95!.Value), tolerance: 5e-7);
        // R's sample means: 0.75 and 2.33, so the ratio of the geometric means is e^(0.75 − 2.33).
        Assert.Equal(-1.58, Math.Log(result.Ratio!.Value), tolerance: 1e-9);
        Assert.Equal(DifferenceVerdict.NoDifference, result.Verdict);
        Assert.Equal((10, 10), (result.BaselineN, result.CandidateN));
        Assert.Equal(DifferenceVerdict.Differs, SampleTests.Difference([.. SleepGroup2.Select(Math.Exp)], [.. SleepGroup1.Select(Math.Exp)], alpha: 0.1).Verdict);
    }

    [Fact]
    public void Difference_FarApartTightSamples_DiffersWithTheRatioInsideItsInterval()
    {
        var result = SampleTests.Difference([100, 101, 102], [110, 111, 112]);

        Assert.Equal(DifferenceVerdict.Differs, result.Verdict);
        Assert.InRange(result.Ratio!.Value, 1.0979, 1.0999);
        Assert.True(result.RatioLow95 > 1);
        Assert.InRange(result.Ratio.Value, result.RatioLow95!.Value, result.RatioHigh95!.Value);
    }

    [Fact]
    public void Difference_OverlappingNoisySamples_NoDifference()
    {
        var result = SampleTests.Difference([100, 110, 120], [105, 115, 125]);

        Assert.Equal(DifferenceVerdict.NoDifference, result.Verdict);
        Assert.InRange(1.0, result.RatioLow95!.Value, result.RatioHigh95!.Value);
        Assert.True(result.PValue >= 0.05);
    }

    [Fact]
    public void Difference_OneObservationOnASide_NoTestWithTheRatioOfTheValues()
    {
        var result = SampleTests.Difference([100], [200, 201]);

        Assert.Equal(DifferenceVerdict.NoTest, result.Verdict);
        Assert.Null(result.PValue);
        Assert.Null(result.RatioLow95);
        Assert.StartsWith("n = 1 on a side:", result.Reason, StringComparison.Ordinal);
        Assert.Contains("no test is possible", result.Reason, StringComparison.Ordinal);
        Assert.Equal(100.5, result.EffectPercent!.Value, tolerance: 1e-9);
    }

    [Fact]
    public void Difference_NoSpreadOnEitherSide_ExactRatioDiffersAndNoInfiniteT()
    {
        // Two equal values a side: their logs' mean is exact, so both variances are exactly 0 and t would be infinite.
        var result = SampleTests.Difference([5, 5], [6, 6]);

        Assert.Equal(DifferenceVerdict.Differs, result.Verdict);
        Assert.Equal(0, result.PValue);
        Assert.Equal(1.2, result.Ratio!.Value, tolerance: 1e-12);
        Assert.Null(result.T);
    }

    [Fact]
    public void Difference_AValueOfZero_NoTestOnTheLogScale()
    {
        var result = SampleTests.Difference([0, 100, 100], [100, 100, 110]);

        Assert.Equal(DifferenceVerdict.NoTest, result.Verdict);
        Assert.Equal("a value of 0: no test on the log scale", result.Reason);
        Assert.Null(SampleTests.Difference([], [1, 2]).Ratio);
    }

    [Fact]
    public void Welch_NoSpreadDifferentMeans_ExactDifferencePZero()
    {
        var result = SampleTests.Welch([2, 2, 2], [1, 1, 1]);

        Assert.Equal(0, result.PValue);
        Assert.Equal(1, result.Difference);
        Assert.Equal(1, result.Low);
    }

    [Fact]
    public void Welch_OneObservation_Refused()
    {
        Assert.Throws<ArgumentException>(() => SampleTests.Welch([1], [1, 2]));
    }

    // R's example of ?wilcox.test (Hollander & Wolfe 1973, p. 69): permeability constants, "normal" x and "hydrops" y;
    // `wilcox.test(x, y, alternative = "g")` prints W = 35, p-value = 0.1272 (exact). The exact null distribution of U is
    // symmetric, so the two-sided p is twice the one-sided: 0.2544.
    [Fact]
    public void MannWhitney_RHollanderWolfeExample_MatchesPublishedUAndP()
    {
        double[] x = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
        double[] y = [1.15, 0.88, 0.90, 0.74, 1.21];

        var result = SampleTests.MannWhitney(x, y);

        Assert.Equal(35, result.U);
        Assert.Equal(2 * 0.1272, result.PValue, tolerance: 1e-4);
    }

    // TOST against the published Welch interval of the sleep example: at a bound equal to an end of the 95 % interval, the
    // one-sided Welch test against that bound has p = 0.025 exactly (the interval's ends are where the one-sided tests
    // reach α/2), so with both ends as bounds the TOST p-value is 0.025.
    [Fact]
    public void Equivalence_BoundsAtThePublishedIntervalEnds_PIsHalfAlpha()
    {
        var result = SampleTests.Equivalence(SleepGroup1, SleepGroup2, lower: -3.3654832, upper: 0.2054832);

        Assert.Equal(0.025, result.PLower, tolerance: 1e-6);
        Assert.Equal(0.025, result.PUpper, tolerance: 1e-6);
        Assert.Equal(0.025, result.PValue, tolerance: 1e-6);
    }

    [Fact]
    public void Equivalence_BoundsInsideTheInterval_NotEquivalent()
    {
        // ±1 hour: the published interval reaches -3.37, so the lower one-sided test cannot reject.
        var result = SampleTests.Equivalence(SleepGroup1, SleepGroup2, lower: -1, upper: 1);

        Assert.True(result.PValue > 0.05);
        Assert.True(result.PLower > 0.05);
    }

    [Fact]
    public void Equivalence_InfiniteUpperBound_OnlyTheLowerTestCounts()
    {
        var result = SampleTests.Equivalence(SleepGroup1, SleepGroup2, lower: -3.3654832, upper: double.PositiveInfinity);

        Assert.Equal(0, result.PUpper);
        Assert.Equal(0.025, result.PValue, tolerance: 1e-6);
    }

    [Fact]
    public void Equivalence_LowerNotBelowUpper_Refused()
    {
        Assert.Throws<ArgumentException>(() => SampleTests.Equivalence(SleepGroup1, SleepGroup2, 1, 1));
    }
}
