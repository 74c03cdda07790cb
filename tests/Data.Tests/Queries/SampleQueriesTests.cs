using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Microsoft.EntityFrameworkCore;

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

    [Fact]
    public async Task SamplesOf_LevelBetweenOthers_ItsRowsOnlyBySearchingThePrimaryKey()
    {
        var (_, _, levels, otherLevel) = await AddTwoRunsAsync();
        using (var store = new SampleStore(_database.FilePath))
        {
            store.Append(otherLevel.Id, TestData.Samples(300, seed: 3));
            store.Append(levels[0].Id, TestData.Samples(200, seed: 4));
            store.Append(levels[1].Id, TestData.Samples(100, seed: 5));
        }

        using var db = _database.NewContext();
        var level = await db.Levels.SingleAsync(l => l.Id == levels[0].Id);
        var rows = await db.SamplesOf(level).ToListAsync();
        var unstored = await db.Levels.AsNoTracking().SingleAsync(l => l.Id == levels[0].Id);
        unstored.FirstSampleId = null;

        Assert.Equal(200, rows.Count);
        Assert.All(rows, r => Assert.Equal(level.Id, r.LevelId));
        Assert.Empty(await db.SamplesOf(unstored).ToListAsync());
        // SQLite's plan: a search of the rowid range ("SEARCH Samples USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"),
        // not "SCAN Samples", which a filter on LevelId alone gives (the table has no index on it).
        var plan = await PlanAsync(db, db.SamplesOf(level).ToQueryString());
        Assert.Contains("USING INTEGER PRIMARY KEY", plan, StringComparison.Ordinal);
        Assert.DoesNotContain("SCAN", plan, StringComparison.Ordinal);
        Assert.Contains("SCAN", await PlanAsync(db, db.Samples.Where(s => s.LevelId == level.Id).ToQueryString()), StringComparison.Ordinal);
    }

    // EXPLAIN QUERY PLAN of EF Core's SQL for a query (its parameters declared by ToQueryString as .param set lines).
    private static async Task<string> PlanAsync(ResultsDbContext db, string sql)
    {
        var lines = sql.Split('\n');
        var parameters = lines.TakeWhile(l => l.StartsWith(".param set ", StringComparison.Ordinal))
            .Select(l => l[".param set ".Length..].Split(' ', 2)).ToList();
        var select = string.Join('\n', lines.Skip(parameters.Count)).Trim();
        var connection = db.Database.GetDbConnection();
        await connection.OpenAsync();
        using var command = connection.CreateCommand();
        command.CommandText = "EXPLAIN QUERY PLAN " + select;
        foreach (var p in parameters)
        {
            var parameter = command.CreateParameter();
            parameter.ParameterName = p[0];
            parameter.Value = long.Parse(p[1], System.Globalization.CultureInfo.InvariantCulture);
            command.Parameters.Add(parameter);
        }

        using var reader = await command.ExecuteReaderAsync();
        var plan = new List<string>();
        while (await reader.ReadAsync())
        {
            plan.Add(reader.GetString(3));
        }

        return string.Join("; ", plan);
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
