using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Queries;
using Dashboard.Data.Runs;
using Dashboard.Data.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Samples;

/// <summary><see cref="Data.Samples.SampleStore"/> on a real PostgreSQL 15: binary COPY, id blocks from the sequence.</summary>
[Collection(PostgresTests.Name)]
public sealed class PostgreSqlSampleWriterTests(PostgresFixture postgres)
{
    [Fact]
    public async Task AppendLevel_100000Samples_RoundTripsEveryFieldWithConsecutiveIds()
    {
        var (store, run) = await NewRunAsync();
        var samples = TestData.Samples(100_000);
        var level = ResultsStoreTests.NewLevel(run);

        using (var writer = store.OpenSampleStore())
        {
            Assert.Equal(100_000, writer.AppendLevel(level, samples));
        }

        using var db = store.Open();
        var stored = await db.Levels.SingleAsync();
        Assert.Equal(stored.FirstSampleId + 99_999, stored.LastSampleId);
        var rows = await db.Samples.OrderBy(s => s.Id)
            .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes)).ToListAsync();
        Assert.Equal(samples, rows);
        Assert.Equal(samples.Where(s => !s.IsWarmup), await db.GetMeasuredSamplesAsync(level.Id));
        Assert.NotNull(stored.TimeSeriesJson);
    }

    [Fact]
    public async Task Append_InterleavedBatchesIntoTwoLevels_KeepsEachLevelsSamplesApart()
    {
        var (store, run) = await NewRunAsync();
        var levels = new[] { ResultsStoreTests.NewLevel(run), ResultsStoreTests.NewLevel(run) };
        var expected = new List<Sample>[] { [], [] };
        using (var writer = store.OpenSampleStore())
        {
            writer.AppendLevel(levels[0], []);
            writer.AppendLevel(levels[1], []);
            for (var batch = 0; batch < 3; batch++)
            {
                for (var i = 0; i < 2; i++)
                {
                    var samples = TestData.Samples(100 + i, seed: batch + i);
                    writer.Append(levels[i].Id, samples);
                    expected[i].AddRange(samples);
                }
            }
        }

        using var db = store.Open();
        Assert.Equal(expected[0].Where(s => !s.IsWarmup), await db.GetMeasuredSamplesAsync(levels[0].Id));
        Assert.Equal(expected[1].Where(s => !s.IsWarmup), await db.GetMeasuredSamplesAsync(levels[1].Id));
    }

    [Fact]
    public async Task AppendFromAgent_ThreeAgentsAtOnce_EachSampleStoredOnceTaggedWithItsAgent()
    {
        var (store, run) = await NewRunAsync();
        var level = ResultsStoreTests.NewLevel(run);
        using (var writer = store.OpenSampleStore())
        {
            writer.AppendLevel(level, TestData.Samples(7));
        }

        string[] agents = ["agent-1", "agent-2", "agent-3"];
        await Task.WhenAll(agents.Select((agent, i) => Task.Run(() =>
        {
            using var writer = store.OpenSampleStore();
            writer.AppendFromAgent(level.Id, TestData.Samples(1000 * (i + 1), seed: i), agent);
        })));

        using var db = store.Open();
        var counts = await db.Samples.Where(s => s.LevelId == level.Id).GroupBy(s => s.Agent).Select(g => new { g.Key, Count = g.Count() }).ToListAsync();
        Assert.Equal(
            new Dictionary<string, int> { ["(runner)"] = 7, ["agent-1"] = 1000, ["agent-2"] = 2000, ["agent-3"] = 3000 },
            counts.ToDictionary(c => c.Key ?? "(runner)", c => c.Count));
        var stored = await db.Levels.SingleAsync(l => l.Id == level.Id);
        Assert.Equal(6007, stored.LastSampleId - stored.FirstSampleId + 1);
        Assert.Equal(TestData.Samples(2000, seed: 1),
            await db.Samples.Where(s => s.Agent == "agent-2").OrderBy(s => s.Id)
                .Select(s => new Sample(s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes)).ToListAsync());
    }

    [Fact]
    public async Task Append_TwoWritersAtOnce_TakeDisjointIdBlocks()
    {
        var (store, run) = await NewRunAsync();
        var levels = new[] { ResultsStoreTests.NewLevel(run), ResultsStoreTests.NewLevel(run) };
        using (var writer = store.OpenSampleStore())
        {
            writer.AppendLevel(levels[0], []);
            writer.AppendLevel(levels[1], []);
        }

        // Two writers (two agents' runners) append to their own levels at the same time, 20 batches each.
        await Task.WhenAll(levels.Select(level => Task.Run(() =>
        {
            using var writer = store.OpenSampleStore();
            for (var batch = 0; batch < 20; batch++)
            {
                writer.Append(level.Id, TestData.Samples(500, seed: batch));
            }
        })));

        using var db = store.Open();
        Assert.Equal(20_000, await db.Samples.CountAsync());
        Assert.Equal(20_000, await db.Samples.Select(s => s.Id).Distinct().CountAsync());
        foreach (var level in levels)
        {
            var stored = await db.Levels.SingleAsync(l => l.Id == level.Id);
            Assert.Equal(10_000, await db.Samples.CountAsync(s => s.Id >= stored.FirstSampleId && s.Id <= stored.LastSampleId && s.LevelId == level.Id));
        }
    }

    [Fact]
    public async Task Append_UnknownLevel_ThrowsArgumentExceptionAndStoresNothing()
    {
        var (store, run) = await NewRunAsync();
        var level = ResultsStoreTests.NewLevel(run);
        using var writer = store.OpenSampleStore();
        writer.AppendLevel(level, []);

        Assert.Throws<ArgumentException>(() => writer.Append(level.Id + 1, TestData.Samples(10)));

        using var db = store.Open();
        Assert.Equal(0, await db.Samples.CountAsync());
        Assert.Equal(5, writer.Append(level.Id, TestData.Samples(5)));
    }

    [Fact]
    public async Task AppendLevel_RunNoLongerRunning_ThrowsAndStoresNothing()
    {
        var (store, run) = await NewRunAsync();
        using (var db = store.Open())
        {
            await db.Runs.Where(r => r.Id == run.Id).ExecuteUpdateAsync(s => s.SetProperty(r => r.Status, RunStatus.Interrupted));
        }

        using var writer = store.OpenSampleStore();
        var error = Assert.Throws<RunNotRunningException>(() => writer.AppendLevel(ResultsStoreTests.NewLevel(run), TestData.Samples(10), onlyWhileRunning: true));

        Assert.Contains("Interrupted", error.Message, StringComparison.Ordinal);
        using var check = store.Open();
        Assert.Equal(0, await check.Levels.CountAsync());
        Assert.Equal(0, await check.Samples.CountAsync());
    }

    private async Task<(ResultsStore Store, RunEntity Run)> NewRunAsync()
    {
        var store = await postgres.NewStoreAsync();
        using var db = store.Open();
        var run = TestData.Run();
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return (store, run);
    }
}
