using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

public sealed class SteadyStateDetectorTests
{
    [Fact]
    public void Add_RisingThenFlatThroughput_SteadyOnlyOnceTheLastKWindowsAreFlat()
    {
        // JIT warm-up shape: 2,000 → 9,000 req/s, then flat within ±1 %. k = 5, threshold 2 % (Georges et al. 2007, §4.1).
        var detector = new SteadyStateDetector(5, 0.02);
        double[] rising = [2000, 5000, 8000, 9000];
        Assert.All(rising, r => Assert.False(detector.Add(r)));

        Assert.False(detector.Add(9050)); // last 5: 2000 … 9050, CoV far above 2 %
        Assert.False(detector.Add(8950));
        Assert.False(detector.Add(9020));
        Assert.True(detector.Add(8990)); // last 5: 9000, 9050, 8950, 9020, 8990: CoV 0.4 %

        Assert.InRange(detector.CoefficientOfVariation!.Value, 0, 0.02);
    }

    [Fact]
    public void Add_FewerThanKWindows_NeverSteady()
    {
        var detector = new SteadyStateDetector(5, 0.02);
        for (var i = 0; i < 4; i++)
        {
            Assert.False(detector.Add(1000));
        }
    }

    [Fact]
    public void Add_NoThroughput_NeverSteady()
    {
        var detector = new SteadyStateDetector(2, 0.02);
        Assert.False(detector.Add(0));
        Assert.False(detector.Add(0));
        Assert.Null(detector.CoefficientOfVariation);
    }

    [Fact]
    public void Constructor_OneWindow_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new SteadyStateDetector(1, 0.02));
    }
}
