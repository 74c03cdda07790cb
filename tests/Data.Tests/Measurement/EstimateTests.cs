using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

public sealed class EstimateTests
{
    [Fact]
    public void Of_ThreeValues_MeanAndStudentInterval()
    {
        var e = Estimate.Of([10, 12, 14]);

        // s = 2, n = 3, t(0.975, 2) = 4.302653: half-width 4.302653 · 2 / √3 = 4.968275.
        Assert.Equal(12, e.Mean, tolerance: 1e-12);
        Assert.Equal(3, e.N);
        Assert.Equal(4.302653 * 2 / Math.Sqrt(3), e.HalfWidth95, tolerance: 1e-5);
        Assert.Equal(12 - 4.968275, e.Low95, tolerance: 1e-5);
        Assert.Equal(12 + 4.968275, e.High95, tolerance: 1e-5);
        Assert.Equal(2 / Math.Sqrt(3), e.StandardError, tolerance: 1e-12);
        Assert.Equal(2, e.DegreesOfFreedom);
        Assert.True(e.HasNoiseEstimate);
    }

    [Fact]
    public void Of_TwoValues_UsesOneDegreeOfFreedom()
    {
        var e = Estimate.Of([1, 3]);

        // s = √2, SE = 1, t(0.975, 1) = 12.706205.
        Assert.Equal(2, e.Mean, tolerance: 1e-12);
        Assert.Equal(2 - 12.706205, e.Low95, tolerance: 1e-5);
        Assert.Equal(2 + 12.706205, e.High95, tolerance: 1e-5);
    }

    [Fact]
    public void Of_OneValue_IntervalIsTheMeanWithoutNoise()
    {
        var e = Estimate.Of([7.5]);

        Assert.Equal(new Estimate(7.5, 7.5, 7.5, 1), e);
        Assert.False(e.HasNoiseEstimate);
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
    }

    [Fact]
    public void Of_EqualValues_ZeroWidthInterval()
    {
        var e = Estimate.Of([5, 5, 5, 5]);

        Assert.Equal(5, e.Low95);
        Assert.Equal(5, e.High95);
        Assert.True(e.HasNoiseEstimate);
    }

    [Fact]
    public void Of_NaN_Throws()
    {
        Assert.Throws<ArgumentException>(() => Estimate.Of([1, double.NaN]));
    }

    [Theory]
    [InlineData(1, 12.706205)]
    [InlineData(2, 4.302653)]
    [InlineData(4, 2.776445)]
    [InlineData(9, 2.262157)]
    [InlineData(10, 2.228139)]
    [InlineData(30, 2.042272)]
    [InlineData(1000, 1.962339)]
    public void TwoSidedCriticalValue_KnownDegreesOfFreedom_MatchesTables(double degrees, double expected)
    {
        Assert.Equal(expected, StudentT.TwoSidedCriticalValue(degrees), tolerance: 1e-5);
    }

    [Fact]
    public void TwoSidedTailProbability_AtCriticalValue_IsAlpha()
    {
        Assert.Equal(0.05, StudentT.TwoSidedTailProbability(2.228139, 10), tolerance: 1e-6);
        Assert.Equal(0.01, StudentT.TwoSidedTailProbability(StudentT.TwoSidedCriticalValue(7.3, 0.01), 7.3), tolerance: 1e-9);
    }

    [Fact]
    public void MeanOf_TwoEstimates_MeanOfMeansWithSatterthwaiteDegrees()
    {
        var a = Estimate.Of([10, 12, 14]); // SE² = 4/3, ν = 2
        var b = Estimate.Of([20, 20, 26]); // mean 22, s² = 12, SE² = 4, ν = 2

        var m = Estimate.MeanOf([a, b]);

        // SE = √(4/3 + 4) / 2; ν = (16/3)² / ((16/9)/2 + 16/2) = (256/9) / (8/9 + 8) = 3.2.
        Assert.Equal(17, m.Mean, tolerance: 1e-12);
        Assert.Equal(Math.Sqrt((4.0 / 3) + 4) / 2, m.StandardError, tolerance: 1e-12);
        Assert.Equal(3.2, m.DegreesOfFreedom, tolerance: 1e-9);
        Assert.Equal(StudentT.TwoSidedCriticalValue(3.2) * m.StandardError, m.HalfWidth95, tolerance: 1e-9);
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
    public void DiffersFrom_FarApartTightEstimates_True()
    {
        Assert.True(Estimate.DiffersFrom(Estimate.Of([100, 101, 102]), Estimate.Of([110, 111, 112])));
    }

    [Fact]
    public void DiffersFrom_OverlappingNoisyEstimates_False()
    {
        Assert.False(Estimate.DiffersFrom(Estimate.Of([100, 110, 120]), Estimate.Of([105, 115, 125])));
    }

    [Fact]
    public void DiffersFrom_OneRepetition_Null()
    {
        Assert.Null(Estimate.DiffersFrom(Estimate.Of([100]), Estimate.Of([200, 201])));
    }

    [Fact]
    public void DiffersFrom_WelchStatistic_MatchesHandComputation()
    {
        // Means 12 and 17, SE² = 4/3 each, ν = 4 (Satterthwaite): t = 5 / √(8/3) = 3.0619 > t(0.975, 4) = 2.7764.
        Assert.True(Estimate.DiffersFrom(Estimate.Of([10, 12, 14]), Estimate.Of([15, 17, 19])));

        // Means 12 and 16: t = 4 / 1.633 = 2.449 < 2.7764: within noise.
        Assert.False(Estimate.DiffersFrom(Estimate.Of([10, 12, 14]), Estimate.Of([14, 16, 18])));
    }
}
