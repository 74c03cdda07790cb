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
