using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Tests.Measurement;

public sealed class LevelBoundsTests
{
    [Theory]
    [InlineData(97.0, 97.0, 40.0, LevelBound.Generator)] // issue #24: runner pinned to one core at 97 %
    [InlineData(95.0, 95.0, 95.0, LevelBound.Generator)] // a saturated generator caps what the server sees
    [InlineData(38.0, 99.0, 23.0, LevelBound.Generator)] // shared machine: the generator's core busy with others
    [InlineData(50.0, 60.0, 92.0, LevelBound.Server)]
    [InlineData(55.0, 70.0, 45.0, LevelBound.Neither)]
    public void Classify_CpuShares_NamesTheSideAtNinetyPercent(double generator, double generatorCoresBusy, double server, LevelBound expected)
    {
        Assert.Equal(expected, LevelBounds.Classify(generator, generatorCoresBusy, server));
    }

    [Fact]
    public void Classify_NothingMeasured_Null()
    {
        Assert.Null(LevelBounds.Classify(null, null, null));
        Assert.Equal(LevelBound.Generator, LevelBounds.Classify(99, null, null));
    }
}
