using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

public sealed class EstimateTests
{
    // NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.2 "Critical values of the Student's t distribution",
    // column 0.975 (two-sided 95 %): published to 3 decimals.
    [Theory]
    [InlineData(1, 12.706)]
    [InlineData(2, 4.303)]
    [InlineData(4, 2.776)]
    [InlineData(9, 2.262)]
    [InlineData(10, 2.228)]
    [InlineData(30, 2.042)]
    [InlineData(100, 1.984)]
    public void TwoSidedCriticalValue_NistTable_MatchesToThreeDecimals(double degrees, double published)
    {
        Assert.Equal(published, Estimate.TwoSidedCriticalValue(degrees), tolerance: 5e-4);
    }

    [Fact]
    public void TwoSidedCriticalValue_InfiniteDegrees_IsNormalQuantile()
    {
        // NIST table, row ∞: 1.960.
        Assert.Equal(1.960, Estimate.TwoSidedCriticalValue(double.PositiveInfinity), tolerance: 5e-4);
    }

    [Fact]
    public void Welch_WikipediaExample1_MatchesPublishedStatistic()
    {
        // Wikipedia, "Welch's t-test", Examples, example 1 (two samples of 15): Welch t = −2.46, ν ≈ 25.0, p = 0.021.
        double[] a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
        double[] b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];
        var ea = Estimate.Of(a);
        var eb = Estimate.Of(b);

        var r = Estimate.Welch(ea.Mean - eb.Mean, ea.StandardError, ea.DegreesOfFreedom, eb.StandardError, eb.DegreesOfFreedom);

        Assert.Equal(-2.46, r.T, tolerance: 0.005);
        Assert.Equal(25.0, r.DegreesOfFreedom, tolerance: 0.05);
        Assert.Equal(0.021, r.PValue, tolerance: 0.0005);
    }

    [Fact]
    public void RelativeHalfWidth95_ThreeValues_UpperEndsDistanceOverTheMean()
    {
        var e = Estimate.Of([10, 12, 14]);

        // The log-scale interval's upper end is the farther: e^h − 1 with h = t(0.975, 2) · (2/√3) / 12 (above).
        Assert.Equal(Math.Exp(4.302653 * (2 / Math.Sqrt(3)) / 12) - 1, e.RelativeHalfWidth95!.Value, tolerance: 1e-4);
    }

    [Fact]
    public void RelativeHalfWidth95_TwoValues_Null()
    {
        Assert.Null(Estimate.Of([10, 12]).RelativeHalfWidth95);
    }

    [Fact]
    public void Of_ThreeValues_LogScaleIntervalAroundTheMean()
    {
        var e = Estimate.Of([10, 12, 14]);

        // s = 2, SE = 2/√3, t(0.975, 2) = 4.303 (NIST); h = 4.302653 · (2/√3) / 12 = 0.414029.
        var h = 4.302653 * (2 / Math.Sqrt(3)) / 12;
        Assert.Equal(12, e.Mean, tolerance: 1e-12);
        Assert.Equal(3, e.N);
        Assert.True(e.HasInterval);
        Assert.Equal(12 * Math.Exp(-h), e.Low95, tolerance: 1e-4);
        Assert.Equal(12 * Math.Exp(h), e.High95, tolerance: 1e-4);
        Assert.Equal(2.0 / 12, e.CoefficientOfVariation!.Value, tolerance: 1e-12);
    }

    [Fact]
    public void Of_FirstRunOfIssue24_IntervalStaysPositive()
    {
        // Measured 2026-11-25: three repetitions at 20,158 / 12,494 / 2,434 req/s gave a Student interval of
        // −10,385 .. 33,777 req/s. On the log scale the interval stays positive and contains the mean.
        var e = Estimate.Of([20158, 12494, 2434]);

        Assert.True(e.HasInterval);
        Assert.True(e.Low95 > 0, $"low {e.Low95}");
        Assert.InRange(e.Mean, e.Low95, e.High95);
        Assert.Equal(11695.33, e.Mean, tolerance: 0.01);
        Assert.True(e.CoefficientOfVariation > 0.7);
    }

    [Fact]
    public void Of_TwoValues_NoIntervalButCoVAndNoise()
    {
        var e = Estimate.Of([1, 3]);

        Assert.False(e.HasInterval);
        Assert.True(e.HasNoiseEstimate);
        Assert.Equal(2, e.Low95);
        Assert.Equal(2, e.High95);
        Assert.Equal("n = 2: at least 3 for an interval", e.IntervalNote);
        Assert.Equal(Math.Sqrt(2) / 2, e.CoefficientOfVariation!.Value, tolerance: 1e-12);
    }

    [Fact]
    public void Of_OneValue_NoIntervalNoNoise()
    {
        var e = Estimate.Of([7.5]);

        Assert.Equal(new Estimate(7.5, 7.5, 7.5, 1), e);
        Assert.False(e.HasNoiseEstimate);
        Assert.False(e.HasInterval);
        Assert.Null(e.CoefficientOfVariation);
        Assert.Equal(0, e.HalfWidth95);
    }

    [Fact]
    public void Of_Empty_AllZeroAndNaNFree()
    {
        var e = Estimate.Of([]);

        Assert.Equal(0, e.N);
        Assert.Equal(0, e.Mean);
        Assert.Equal(0, e.Low95);
        Assert.Equal(0, e.High95);
        Assert.False(e.HasNoiseEstimate);
        Assert.Equal("no observation", e.IntervalNote);
    }

    [Fact]
    public void Of_EqualValues_ZeroWidthInterval()
    {
        var e = Estimate.Of([5, 5, 5, 5]);

        Assert.Equal(5, e.Low95);
        Assert.Equal(5, e.High95);
        Assert.Equal(0, e.CoefficientOfVariation);
    }

    [Theory]
    [InlineData(double.NaN)]
    [InlineData(-1)]
    public void Of_NaNOrNegative_Throws(double bad)
    {
        Assert.Throws<ArgumentException>(() => Estimate.Of([1, bad]));
    }

    [Fact]
    public void MeanOf_TwoEstimates_MeanOfMeansWithSatterthwaiteDegrees()
    {
        var a = Estimate.Of([10, 12, 14]); // SE² = 4/3, ν = 2
        var b = Estimate.Of([20, 20, 26]); // mean 22, s² = 12, SE² = 4, ν = 2

        var m = Estimate.MeanOf([a, b]);

        // SE = √(4/3 + 4) / 2; ν = (16/3)² / ((16/9)/2 + 16/2) = (256/9) / (8/9 + 8) = 3.2 (Welch 1947).
        Assert.Equal(17, m.Mean, tolerance: 1e-12);
        Assert.Equal(Math.Sqrt((4.0 / 3) + 4) / 2, m.StandardError, tolerance: 1e-12);
        Assert.Equal(3.2, m.DegreesOfFreedom, tolerance: 1e-9);
        var h = Estimate.TwoSidedCriticalValue(3.2) * m.StandardError / 17;
        Assert.Equal(17 * Math.Exp(-h), m.Low95, tolerance: 1e-9);
        Assert.Equal(3, m.N);
    }

    [Fact]
    public void MeanOf_PartWithoutNoise_ResultWithoutNoise()
    {
        var m = Estimate.MeanOf([Estimate.Of([10, 12, 14]), Estimate.Of([4])]);

        Assert.Equal(8, m.Mean, tolerance: 1e-12);
        Assert.Equal(1, m.N);
        Assert.False(m.HasNoiseEstimate);
        Assert.Equal(m.Mean, m.Low95);
    }

    [Fact]
    public void Test_FarApartTightEstimates_Differs()
    {
        var t = Estimate.Test(Estimate.Of([100, 101, 102]), Estimate.Of([110, 111, 112]));

        Assert.Equal(DifferenceVerdict.Differs, t.Verdict);
        Assert.Equal(111.0 / 101, t.Ratio!.Value, tolerance: 1e-12);
        Assert.True(t.RatioLow95 > 1);
        Assert.True(t.PValue < 0.05);
    }

    [Fact]
    public void Test_OverlappingNoisyEstimates_NoDifference()
    {
        var t = Estimate.Test(Estimate.Of([100, 110, 120]), Estimate.Of([105, 115, 125]));

        Assert.Equal(DifferenceVerdict.NoDifference, t.Verdict);
        Assert.InRange(1.0, t.RatioLow95!.Value, t.RatioHigh95!.Value);
        Assert.True(t.PValue >= 0.05);
    }

    [Fact]
    public void Test_OneRepetitionPerSide_NoTestPossible()
    {
        var t = Estimate.Test(Estimate.Of([100]), Estimate.Of([200]));

        Assert.Equal(DifferenceVerdict.NoTest, t.Verdict);
        Assert.Null(t.PValue);
        Assert.Contains("no test is possible", t.Reason, StringComparison.Ordinal);
        Assert.Equal(100, t.EffectPercent!.Value, tolerance: 1e-12);
        Assert.Null(Estimate.DiffersFrom(Estimate.Of([100]), Estimate.Of([200, 201])));
    }

    [Fact]
    public void Test_LogScaleStatistic_MatchesHandComputation()
    {
        // Log scale (delta method): means 12 and 17, SE/mean = 1.1547/12 and 1.1547/17, ν = 2 each.
        var a = Estimate.Of([10, 12, 14]);
        var b = Estimate.Of([15, 17, 19]);
        var seA = (2 / Math.Sqrt(3)) / 12;
        var seB = (2 / Math.Sqrt(3)) / 17;
        var expectedT = Math.Log(17.0 / 12) / Math.Sqrt((seA * seA) + (seB * seB));
        var expectedNu = Math.Pow((seA * seA) + (seB * seB), 2) / ((Math.Pow(seA, 4) / 2) + (Math.Pow(seB, 4) / 2));

        var t = Estimate.Test(a, b);

        Assert.Equal(expectedT, t.T!.Value, tolerance: 1e-9);
        Assert.Equal(expectedNu, t.DegreesOfFreedom!.Value, tolerance: 1e-9);
        Assert.Equal(t.PValue < 0.05 ? DifferenceVerdict.Differs : DifferenceVerdict.NoDifference, t.Verdict);
    }

    [Fact]
    public void CoefficientOfVariationOf_KnownSeries_SampleDeviationOverMean()
    {
        // s of 2, 4, 4, 4, 5, 5, 7, 9 with divisor n − 1 = √(32/7); mean 5.
        Assert.Equal(Math.Sqrt(32.0 / 7) / 5, Estimate.CoefficientOfVariationOf([2, 4, 4, 4, 5, 5, 7, 9])!.Value, tolerance: 1e-12);
        Assert.Null(Estimate.CoefficientOfVariationOf([3]));
    }

    [Fact]
    public void OverLaunches_ThreeLaunchesOfTwoRepetitions_IntervalFromTheThreeLaunchMeans()
    {
        (double, int?)[] values = [(100, 1), (110, 1), (200, 2), (210, 2), (150, 3), (160, 3)];

        var estimate = Estimate.OverLaunches(values);
        var launchMeans = Estimate.Of([105, 205, 155]);

        Assert.Equal(3, estimate.N);
        Assert.Equal(launchMeans.Mean, estimate.Mean, 9);
        Assert.Equal(launchMeans.Low95, estimate.Low95, 9);
        Assert.Equal(launchMeans.High95, estimate.High95, 9);
        // Six repetitions taken as independent would claim a narrower interval than three launches give.
        Assert.True(Estimate.Of([100, 110, 200, 210, 150, 160]).HalfWidth95 < estimate.HalfWidth95);
    }

    [Fact]
    public void OverLaunches_OneLaunchOrNoneRecorded_TheRepetitionsThemselves()
    {
        Assert.Equal(3, Estimate.OverLaunches([(100, 1), (110, 1), (120, 1)]).N);
        Assert.Equal(3, Estimate.OverLaunches([(100, null), (110, null), (120, null)]).N);
        Assert.Equal(Estimate.Of([100, 110, 120]).High95, Estimate.OverLaunches([(100, null), (110, null), (120, null)]).High95, 9);
    }
}

