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

    [Fact]
    public void Independent_TwoLaunches_OneObservationPerLaunchKeyedByLaunch()
    {
        var observations = Estimate.Independent([(100, 0, 1), (110, 1, 1), (200, 2, 2), (210, 3, 2)]);

        Assert.Equal([new Observation(1, true, 105), new Observation(2, true, 205)], observations);
    }

    [Fact]
    public void Independent_OneLaunchOrALaunchNotRecorded_OnePerRepetitionKeyedByRepetition()
    {
        Assert.Equal([new Observation(0, false, 100), new Observation(1, false, 110)], Estimate.Independent([(110, 1, 1), (100, 0, 1)]));
        Assert.Equal([new Observation(0, false, 100), new Observation(1, false, 200)], Estimate.Independent([(100, 0, 1), (200, 1, null)]));
    }
}
