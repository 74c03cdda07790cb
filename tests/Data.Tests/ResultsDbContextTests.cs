using Dashboard.Data.Entities;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests;

public sealed class ResultsDbContextTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task SaveChanges_RunWithStatus_StoresStatusAsItsName()
    {
        using var db = _database.Open();
        var run = TestData.Run();
        run.Status = RunStatus.Interrupted;
        db.Runs.Add(run);
        await db.SaveChangesAsync();

        using var connection = _database.OpenConnection();
        Assert.Equal(["Interrupted"], Sql.Query<string>(connection, "SELECT Status FROM Runs"));
    }

    [Fact]
    public async Task SaveChanges_DateTimes_ReadBackAsUtcAndLocalTimesConvertedToUtc()
    {
        var local = new DateTime(2026, 11, 22, 12, 0, 0, DateTimeKind.Local);
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            run.StartedUtc = local;
            db.Runs.Add(run);
            await db.SaveChangesAsync();
        }

        using var reader = _database.NewContext();
        var stored = await reader.Runs.SingleAsync();

        Assert.Equal(DateTimeKind.Utc, stored.CreatedUtc.Kind);
        Assert.Equal(TestData.Start, stored.CreatedUtc);
        Assert.Equal(DateTimeKind.Utc, stored.StartedUtc!.Value.Kind);
        Assert.Equal(local.ToUniversalTime(), stored.StartedUtc);
        Assert.Null(stored.EndedUtc);
    }

    [Fact]
    public async Task SaveChanges_AddedSampleEntity_ThrowsInvalidOperationException()
    {
        using var db = _database.Open();
        db.Samples.Add(new SampleEntity { Id = 1, LevelId = 1 });

        Assert.Throws<InvalidOperationException>(() => db.SaveChanges());
        await Assert.ThrowsAsync<InvalidOperationException>(() => db.SaveChangesAsync());
    }

    [Fact]
    public async Task SaveChanges_DeletedRun_CascadesToLevelsResourcesAndSamples()
    {
        using var db = _database.Open();
        var doomed = TestData.Run("doomed");
        var kept = TestData.Run("kept");
        var doomedLevels = new[] { TestData.Level(doomed, clients: 1), TestData.Level(doomed, clients: 2) };
        var keptLevel = TestData.Level(kept);
        db.AddRange(doomedLevels);
        db.Add(keptLevel);
        db.ResourceSamples.AddRange(
            new ResourceSampleEntity { Run = doomed, OffsetMs = 0 },
            new ResourceSampleEntity { Run = kept, OffsetMs = 0 });
        await db.SaveChangesAsync();
        using (var store = new SampleStore(_database.FilePath))
        {
            store.Append(doomedLevels[0].Id, TestData.Samples(100));
            store.Append(keptLevel.Id, TestData.Samples(50));
            store.Append(doomedLevels[1].Id, TestData.Samples(70));
        }

        db.Runs.Remove(await db.Runs.SingleAsync(r => r.Id == doomed.Id));
        await db.SaveChangesAsync();

        Assert.Equal([kept.Id], await db.Levels.Select(l => l.RunId).ToListAsync());
        Assert.Equal([kept.Id], await db.ResourceSamples.Select(r => r.RunId).ToListAsync());
        Assert.Equal(Enumerable.Repeat(keptLevel.Id, 50), await db.Samples.Select(s => s.LevelId).ToListAsync());
    }

    [Fact]
    public async Task ExecuteDelete_Run_DatabaseCascadeAlsoDeletesSamples()
    {
        using var db = _database.Open();
        var run = TestData.Run();
        var level = TestData.Level(run);
        db.Add(level);
        await db.SaveChangesAsync();
        using (var store = new SampleStore(_database.FilePath))
        {
            store.Append(level.Id, TestData.Samples(1000));
        }

        await db.Runs.Where(r => r.Id == run.Id).ExecuteDeleteAsync();

        Assert.Equal(0, await db.Levels.CountAsync());
        Assert.Equal(0, await db.Samples.CountAsync());
    }
}
