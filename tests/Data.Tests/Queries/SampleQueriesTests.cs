using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Queries;

public sealed class SampleQueriesTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task CountSamplesAsync_SeveralLevelsAndRuns_CountsOnlyThisRunsMeasuredAndWarmup()
    {
        var (run, otherRun, levels, otherLevel) = await AddTwoRunsAsync();
        var batches = new[] { TestData.Samples(700, seed: 1), TestData.Samples(1_300, seed: 2) };
        using (var store = new SampleStore(_database.FilePath))
        {
            store.Append(levels[0].Id, batches[0]);
            store.Append(otherLevel.Id, TestData.Samples(333));
            store.Append(levels[1].Id, batches[1]);
        }

        using var db = _database.NewContext();
        var counts = await db.CountSamplesAsync(run.Id);

        Assert.Equal(batches.Sum(b => b.Count(s => !s.IsWarmup)), counts.Measured);
        Assert.Equal(batches.Sum(b => b.Count(s => s.IsWarmup)), counts.Warmup);
        Assert.Equal(2_000, counts.Total);
        Assert.Equal(333, (await db.CountSamplesAsync(otherRun.Id)).Total);
    }

    [Fact]
    public async Task CountSamplesAsync_RunWithoutSamples_ReturnsZeros()
    {
        var (run, _, _, _) = await AddTwoRunsAsync();
        using var db = _database.NewContext();

        Assert.Equal(new SampleCounts(0, 0), await db.CountSamplesAsync(run.Id));
        Assert.Equal(new SampleCounts(0, 0), await db.CountSamplesAsync(run.Id + 100));
    }

    [Fact]
    public async Task GetMeasuredSamplesAsync_LevelWithoutSamples_ReturnsEmpty()
    {
        var (_, _, levels, _) = await AddTwoRunsAsync();
        using var db = _database.NewContext();

        Assert.Empty(await db.GetMeasuredSamplesAsync(levels[0].Id));
    }

    [Fact]
    public async Task GetMeasuredSamplesAsync_UnknownLevel_ThrowsArgumentException()
    {
        using var db = _database.Open();

        await Assert.ThrowsAsync<ArgumentException>(() => db.GetMeasuredSamplesAsync(12345));
    }

    [Fact]
    public async Task GetMeasuredSamplesAsync_MixedSamples_ExcludesWarmupAndKeepsOrder()
    {
        var (_, _, levels, _) = await AddTwoRunsAsync();
        var samples = TestData.Samples(5_000);
        using (var store = new SampleStore(_database.FilePath))
        {
            store.Append(levels[0].Id, samples.AsSpan(0, 2_000));
            store.Append(levels[1].Id, TestData.Samples(100, seed: 9));
            store.Append(levels[0].Id, samples.AsSpan(2_000));
        }

        using var db = _database.NewContext();
        var measured = await db.GetMeasuredSamplesAsync(levels[0].Id);

        Assert.Equal(samples.Where(s => !s.IsWarmup), measured);
        Assert.DoesNotContain(measured, s => s.IsWarmup);
    }

    private async Task<(RunEntity Run, RunEntity OtherRun, LevelEntity[] Levels, LevelEntity OtherLevel)> AddTwoRunsAsync()
    {
        using var db = _database.Open();
        var run = TestData.Run();
        var otherRun = TestData.Run("other");
        var levels = new[] { TestData.Level(run, clients: 1), TestData.Level(run, clients: 2) };
        var otherLevel = TestData.Level(otherRun);
        db.Levels.AddRange(levels);
        db.Levels.Add(otherLevel);
        await db.SaveChangesAsync();
        return (run, otherRun, levels, otherLevel);
    }
}
