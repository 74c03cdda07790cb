using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Results;

public sealed class LevelSummariesTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    private static Sample[] Samples() =>
        [.. Enumerable.Range(0, 50).Select(i => new Sample(i % 2, i * 20_000L, 500 + i, i == 7 ? SampleOutcome.Timeout : SampleOutcome.Success, i < 4))];

    [Fact]
    public async Task AppendLevel_StoresWarmupCountAndTheSeriesOfTheSamples()
    {
        using var db = _database.Open();
        var run = TestData.Run();
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        var level = TestData.Level(run);
        level.Run = null;
        level.RunId = run.Id;
        level.EndedUtc = level.StartedUtc.AddSeconds(1);
        using (var store = new SampleStore(_database.FilePath))
        {
            store.AppendLevel(level, Samples());
        }

        var stored = await db.Levels.AsNoTracking().SingleAsync(l => l.Id == level.Id);

        Assert.Equal(4, stored.WarmupRequests);
        var series = LevelTimeSeries.FromJson(stored.TimeSeriesJson);
        Assert.NotNull(series);
        Assert.Equal(46, series.Buckets.Sum(b => b.Requests));
        Assert.Equal(1, series.Buckets.Sum(b => b.Errors));
        Assert.Equal(LevelTimeSeries.FromSamples(Samples(), TimeSpan.FromSeconds(1)).Buckets, series.Buckets);
    }

    [Fact]
    public async Task BackfillAsync_LevelStoredWithoutSummaries_FilledFromRawSamplesOnceAndKept()
    {
        using var db = _database.Open();
        var level = await LevelWithoutSummariesAsync(db);

        Assert.Equal(1, await LevelSummaries.BackfillAsync(db, CancellationToken.None));
        Assert.Equal(0, await LevelSummaries.BackfillAsync(db, CancellationToken.None));

        var stored = await db.Levels.AsNoTracking().SingleAsync(l => l.Id == level.Id);
        Assert.Equal(4, stored.WarmupRequests);
        Assert.Equal(LevelTimeSeries.FromSamples(Samples(), TimeSpan.FromSeconds(1)).Buckets, LevelTimeSeries.FromJson(stored.TimeSeriesJson)!.Buckets);
    }

    [Fact]
    public async Task FillMissingAsync_LevelStoredWithoutSummaries_FilledInMemoryAndNothingWritten()
    {
        using var db = _database.Open();
        var level = await LevelWithoutSummariesAsync(db);
        var levels = await db.Levels.AsNoTracking().Where(l => l.Id == level.Id).ToListAsync();

        Assert.Equal(1, await LevelSummaries.FillMissingAsync(db, levels, CancellationToken.None));

        Assert.Equal(4, levels[0].WarmupRequests);
        Assert.Equal(LevelTimeSeries.FromSamples(Samples(), TimeSpan.FromSeconds(1)).Buckets, LevelTimeSeries.FromJson(levels[0].TimeSeriesJson)!.Buckets);
        var stored = await db.Levels.AsNoTracking().SingleAsync(l => l.Id == level.Id);
        Assert.Null(stored.TimeSeriesJson);
        Assert.Null(stored.WarmupRequests);
    }

    private async Task<LevelEntity> LevelWithoutSummariesAsync(ResultsDbContext db)
    {
        var run = TestData.Run();
        db.Runs.Add(run);
        var level = TestData.Level(run);
        level.EndedUtc = level.StartedUtc.AddSeconds(1);
        db.Levels.Add(level);
        await db.SaveChangesAsync();
        using (var store = new SampleStore(_database.FilePath))
        {
            store.Append(level.Id, Samples()); // the samples only, as levels were stored before
        }

        Assert.Null((await db.Levels.AsNoTracking().SingleAsync(l => l.Id == level.Id)).TimeSeriesJson);
        return level;
    }
}
