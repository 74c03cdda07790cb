using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Queries;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Samples;

public sealed class SampleStoreTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task Append_100000Samples_RoundTripsEveryField()
    {
        var levelId = (await AddLevelsAsync(1))[0].Id;
        var samples = TestData.Samples(100_000);
        Assert.Equal(Enum.GetValues<SampleOutcome>().ToHashSet(), samples.Select(s => s.Outcome).ToHashSet());
        Assert.Contains(samples, s => s.IsWarmup);

        using (var store = new SampleStore(_database.FilePath))
        {
            Assert.Equal(100_000, store.Append(levelId, samples));
        }

        Assert.Equal(samples, await ReadAllAsync(levelId));
        using var db = _database.NewContext();
        Assert.Equal(samples.Where(s => !s.IsWarmup), await db.GetMeasuredSamplesAsync(levelId));
    }

    [Fact]
    public async Task AppendFromAgent_Sqlite_ThrowsNamingPostgreSqlAndStoresNothing()
    {
        var levelId = (await AddLevelsAsync(1))[0].Id;
        using (var store = new SampleStore(_database.FilePath))
        {
            var error = Assert.Throws<NotSupportedException>(() => store.AppendFromAgent(levelId, TestData.Samples(10), "agent-1"));
            Assert.Contains("PostgreSQL", error.Message, StringComparison.Ordinal);
            store.Append(levelId, TestData.Samples(3));
        }

        using var db = _database.NewContext();
        Assert.Equal(3, await db.Samples.CountAsync());
        Assert.All(await db.Samples.ToListAsync(), s => Assert.Null(s.Agent));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(SampleStore.DefaultRowsPerStatement)]
    [InlineData(500)]
    public async Task Append_AnyRowsPerStatement_StoresSameRowsAndRange(int rowsPerStatement)
    {
        var levelId = (await AddLevelsAsync(1))[0].Id;
        var samples = TestData.Samples(1_003, seed: rowsPerStatement);

        using (var store = new SampleStore(_database.FilePath, rowsPerStatement))
        {
            store.Append(levelId, samples);
        }

        Assert.Equal(samples, await ReadAllAsync(levelId));
        using var db = _database.NewContext();
        var level = await db.Levels.SingleAsync();
        Assert.Equal(1, level.FirstSampleId);
        Assert.Equal(1_003, level.LastSampleId);
    }

    [Fact]
    public async Task Append_InterleavedBatchesIntoSeveralLevels_KeepsEachLevelsSamplesApart()
    {
        var levels = await AddLevelsAsync(3);
        var expected = levels.ToDictionary(l => l.Id, _ => new List<Sample>());

        using (var store = new SampleStore(_database.FilePath))
        {
            for (var batch = 0; batch < 4; batch++)
            {
                foreach (var level in levels)
                {
                    var samples = TestData.Samples(250 + (int)level.Id, seed: (batch * 10) + (int)level.Id);
                    store.Append(level.Id, samples);
                    expected[level.Id].AddRange(samples);
                }
            }
        }

        using var db = _database.NewContext();
        foreach (var level in levels)
        {
            Assert.Equal(expected[level.Id], await ReadAllAsync(level.Id));
            Assert.Equal(expected[level.Id].Where(s => !s.IsWarmup), await db.GetMeasuredSamplesAsync(level.Id));
        }

        var ranges = await db.Levels.OrderBy(l => l.Id).Select(l => new { l.FirstSampleId, l.LastSampleId }).ToListAsync();
        Assert.Equal(1, ranges[0].FirstSampleId);
        Assert.Equal(expected.Values.Sum(s => s.Count), ranges[^1].LastSampleId);
    }

    [Fact]
    public async Task Append_UnknownLevel_ThrowsArgumentExceptionAndStoresNothing()
    {
        var levelId = (await AddLevelsAsync(1))[0].Id;
        using var store = new SampleStore(_database.FilePath);

        Assert.Throws<ArgumentException>(() => store.Append(levelId + 1, TestData.Samples(10)));

        using var db = _database.NewContext();
        Assert.Equal(0, await db.Samples.CountAsync());
        Assert.Equal(5, store.Append(levelId, TestData.Samples(5)));
    }

    [Fact]
    public async Task Append_Empty_ReturnsZeroAndLeavesRangeUnset()
    {
        var levelId = (await AddLevelsAsync(1))[0].Id;
        using var store = new SampleStore(_database.FilePath);

        Assert.Equal(0, store.Append(levelId, []));

        using var db = _database.NewContext();
        Assert.Null(await db.Levels.Select(l => l.FirstSampleId).SingleAsync());
    }

    [Fact]
    public async Task Append_AfterDispose_ThrowsObjectDisposedException()
    {
        var levelId = (await AddLevelsAsync(1))[0].Id;
        var store = new SampleStore(_database.FilePath);
        store.Dispose();
        store.Dispose();

        Assert.Throws<ObjectDisposedException>(() => store.Append(levelId, TestData.Samples(1)));
    }

    [Fact]
    public void Constructor_DatabaseNotMigrated_ThrowsSqliteException()
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_database.FilePath)!);
        using (_database.OpenConnection())
        {
            // Creates an empty database without tables.
        }

        var error = Assert.Throws<SqliteException>(() => new SampleStore(_database.FilePath));
        Assert.Contains("no such table", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Constructor_NoDatabaseFile_ThrowsSqliteExceptionAndCreatesNothing()
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_database.FilePath)!);

        Assert.Throws<SqliteException>(() => new SampleStore(_database.FilePath));
        Assert.False(File.Exists(_database.FilePath));
    }

    [Fact]
    public async Task AppendLevel_NewLevel_StoresTheRowItsSamplesAndRangeTogether()
    {
        var level = await NewLevelAsync();
        var samples = TestData.Samples(1_003);

        using (var store = new SampleStore(_database.FilePath))
        {
            Assert.Equal(1_003, store.AppendLevel(level, samples));
        }

        Assert.True(level.Id > 0);
        Assert.Equal(samples, await ReadAllAsync(level.Id));
        using var db = _database.NewContext();
        var stored = await db.Levels.SingleAsync();
        Assert.Equal((1L, 1_003L), (stored.FirstSampleId!.Value, stored.LastSampleId!.Value));
        Assert.Equal((level.FirstSampleId, level.LastSampleId), (stored.FirstSampleId, stored.LastSampleId));
    }

    [Fact]
    public async Task AppendLevel_SqliteFailsHalfwayThroughTheSamples_StoresNeitherTheLevelNorAnySample()
    {
        var level = await NewLevelAsync();
        var samples = TestData.Samples(1_000);
        // A real failure inside the transaction, after the level row and 700 samples were written (as a kill or a full disk would strike).
        samples[700] = samples[700] with { StartOffsetUs = 424_242 };
        using (var connection = _database.OpenConnection())
        using (var trigger = connection.CreateCommand())
        {
            trigger.CommandText = "CREATE TRIGGER \"TR_Test_Fail\" BEFORE INSERT ON \"Samples\" WHEN NEW.\"StartOffsetUs\" = 424242 BEGIN SELECT RAISE(ABORT, 'injected failure'); END";
            trigger.ExecuteNonQuery();
        }

        using (var store = new SampleStore(_database.FilePath))
        {
            var error = Assert.Throws<SqliteException>(() => store.AppendLevel(level, samples));
            Assert.Contains("injected failure", error.Message, StringComparison.Ordinal);
        }

        using var db = _database.NewContext();
        Assert.Equal(0, await db.Levels.CountAsync());
        Assert.Equal(0, await db.Samples.CountAsync());
    }

    [Fact]
    public async Task AppendLevel_NoSamples_StoresTheLevelWithoutRange()
    {
        var level = await NewLevelAsync();
        using (var store = new SampleStore(_database.FilePath))
        {
            Assert.Equal(0, store.AppendLevel(level, []));
        }

        using var db = _database.NewContext();
        Assert.Null((await db.Levels.SingleAsync()).FirstSampleId);
    }

    /// <summary>A stored run and a new, unsaved level of it (RunId set, no navigation), as the runner builds one.</summary>
    private async Task<LevelEntity> NewLevelAsync()
    {
        using var db = _database.Open();
        var run = TestData.Run();
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        var level = TestData.Level(run);
        level.Run = null;
        level.RunId = run.Id;
        return level;
    }

    private async Task<List<LevelEntity>> AddLevelsAsync(int count)
    {
        using var db = _database.Open();
        var run = TestData.Run();
        var levels = Enumerable.Range(1, count).Select(i => TestData.Level(run, clients: i)).ToList();
        db.Levels.AddRange(levels);
        await db.SaveChangesAsync();
        return levels;
    }

    /// <summary>Every stored row of a level, warm-up included, in rowid order.</summary>
    private async Task<Sample[]> ReadAllAsync(long levelId)
    {
        using var db = _database.NewContext();
        return await db.Samples
            .Where(s => s.LevelId == levelId)
            .OrderBy(s => s.Id)
            .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup))
            .ToArrayAsync();
    }
}
