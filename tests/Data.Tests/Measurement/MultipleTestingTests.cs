using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

public sealed class MultipleTestingTests
{
    [Fact]
    public void HolmAdjusted_PublishedExample_MatchesRsPAdjust()
    {
        // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), method = "holm") = 0.03 0.06 0.06 0.02 (Holm 1979's step-down rule).
        var adjusted = MultipleTesting.HolmAdjusted([0.01, 0.04, 0.03, 0.005, null]);

        Assert.Equal([0.03, 0.06, 0.06, 0.02], adjusted.Take(4).Select(p => Math.Round(p!.Value, 10)));
        Assert.Null(adjusted[4]);
    }

    [Fact]
    public void HolmAdjusted_LargeRawPValues_CappedAtOne()
    {
        // R: p.adjust(c(0.5, 0.6, 0.02), method = "holm") = 1 1 0.06.
        var adjusted = MultipleTesting.HolmAdjusted([0.5, 0.6, 0.02]);

        Assert.Equal([1.0, 1.0, 0.06], adjusted.Select(p => Math.Round(p!.Value, 10)));
    }

    [Fact]
    public void HolmAdjusted_PValueOutsideZeroToOne_Refused()
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => MultipleTesting.HolmAdjusted([0.01, 1.5]));

        Assert.Equal("pValues", error.ParamName);
    }
}
