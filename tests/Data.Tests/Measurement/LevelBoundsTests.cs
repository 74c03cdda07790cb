using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

public sealed class LevelBoundsTests
{
    [Theory]
    [InlineData(97.0, 40.0, LevelBound.Generator)] // issue #24: runner pinned to one core at 97 %
    [InlineData(95.0, 95.0, LevelBound.Generator)] // a saturated generator caps what the server sees
    [InlineData(50.0, 92.0, LevelBound.Server)]
    [InlineData(55.0, 45.0, LevelBound.Neither)]
    public void Classify_CpuShares_NamesTheSideAtNinetyPercent(double generator, double server, LevelBound expected)
    {
        Assert.Equal(expected, LevelBounds.Classify(generator, server));
    }

    [Fact]
    public void Classify_NothingMeasured_Null()
    {
        Assert.Null(LevelBounds.Classify(null, null));
        Assert.Equal(LevelBound.Generator, LevelBounds.Classify(99, null));
    }
}
