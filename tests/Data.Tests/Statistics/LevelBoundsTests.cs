using Dashboard.Data.Entities;
using Dashboard.Data.Statistics;

namespace Dashboard.Data.Tests.Statistics;

public sealed class LevelBoundsTests
{
    [Theory]
    [InlineData(97.0, 97.0, 40.0, false, LevelBound.Generator)] // issue #24: runner pinned to one core at 97 %
    [InlineData(95.0, 95.0, 95.0, false, LevelBound.Generator)] // a saturated generator caps what the server sees
    [InlineData(38.0, 99.0, 23.0, false, LevelBound.Generator)] // pinned apart: the generator's core busy with other processes
    [InlineData(50.0, 60.0, 92.0, false, LevelBound.Server)]
    [InlineData(50.0, 95.0, 92.0, false, LevelBound.Server)] // the server saturated its own cores: its capacity, whoever else was busy
    [InlineData(55.0, 70.0, 45.0, false, LevelBound.Neither)]
    [InlineData(92.0, 99.0, 5.0, true, LevelBound.Generator)] // same machine, the generator alone took the cores
    [InlineData(5.0, 99.0, 93.0, true, LevelBound.Server)] // same machine: the server's own use keeps the shared cores busy
    [InlineData(38.0, 99.0, 55.0, true, LevelBound.Machine)] // same machine, shared cores saturated by both: neither alone
    [InlineData(30.0, 70.0, 35.0, true, LevelBound.Neither)]
    public void Classify_CpuShares_NamesTheSideAtNinetyPercent(double generator, double generatorCoresBusy, double server, bool shared, LevelBound expected)
    {
        Assert.Equal(expected, LevelBounds.Classify(generator, generatorCoresBusy, server, shared));
    }

    [Fact]
    public void Classify_NothingMeasured_Null()
    {
        Assert.Null(LevelBounds.Classify(null, null, null));
        Assert.Equal(LevelBound.Generator, LevelBounds.Classify(99, null, null));
    }

    [Theory]
    [InlineData(false, new[] { 0 }, new[] { 1 }, false)] // pinned apart (taskset)
    [InlineData(false, new[] { 0 }, new[] { 0, 1 }, true)]
    [InlineData(false, new[] { 0, 1 }, new int[0], true)] // the host may use every core
    [InlineData(true, new[] { 0, 1 }, new int[0], false)] // another machine
    public void SharesCores_Affinities_OverlapOnOneMachineOnly(bool otherMachine, int[] generator, int[] server, bool expected)
    {
        Assert.Equal(expected, LevelBounds.SharesCores(otherMachine, generator.ToHashSet(), server));
        Assert.Equal(!otherMachine, LevelBounds.SharesCores(otherMachine, generator.ToHashSet(), null));
    }
}
