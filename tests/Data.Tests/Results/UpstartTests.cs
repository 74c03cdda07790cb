using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Data.Queries;

namespace Dashboard.Data.Tests.Results;

public sealed class UpstartTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public void Compute_300Calls_PrefixMeansUpTo250()
    {
        // Call i (from 1) takes i ms: the mean of the first n calls is (n + 1) / 2 ms.
        var samples = Enumerable.Range(1, 300).Select(i => new Sample(0, i * 10_000L, i * 1_000L, SampleOutcome.Success, i <= 3)).ToList();

        var points = Upstart.Compute(samples);

        Assert.Equal([1, 5, 10, 25, 50, 100, 250], points.Select(p => p.Calls));
        Assert.All(points, p => Assert.Equal((p.Calls + 1) / 2.0, p.MeanMs!.Value, 9));
    }

    [Fact]
    public void Compute_FailedCallsCountedNotAveraged()
    {
        Sample[] samples = [new(0, 0, 5_000, SampleOutcome.Connection, false), .. Enumerable.Range(1, 4).Select(i => new Sample(0, i, 2_000, SampleOutcome.Success, false))];

        var points = Upstart.Compute(samples);

        Assert.Equal(new UpstartPoint(1, null, 1), points[0]);
        Assert.Equal(new UpstartPoint(5, 2.0, 1), points[1]);
    }

    [Fact]
    public async Task LinesAsync_StoredOneClientLevels_FirstCallsInStartOrderMeanOverRepetitions()
    {
        using var db = _database.Open();
        var run = TestData.Run();
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        using var store = new SampleStore(_database.FilePath);
        foreach (var (repetition, factor) in new[] { (1, 1L), (2, 3L) })
        {
            var level = new LevelEntity
            {
                RunId = run.Id, Variant = "IceTcp", Client = "java", Payload = "Int", Repetition = repetition, Clients = 1,
                StartedUtc = TestData.Start, EndedUtc = TestData.Start.AddSeconds(1), Requests = 1000,
            };
            // The first call is slow (10 ms × factor), the others 1 ms × factor.
            store.AppendLevel(level, [.. Enumerable.Range(0, 1000).Select(i => new Sample(0, i * 100L, (i == 0 ? 10_000 : 1_000) * factor, SampleOutcome.Success, i < 3))]);
        }

        var twenty = new LevelEntity { RunId = run.Id, Variant = "IceTcp", Client = "java", Payload = "Int", Repetition = 1, Clients = 20, StartedUtc = TestData.Start, EndedUtc = TestData.Start.AddSeconds(1) };
        store.AppendLevel(twenty, [new Sample(0, 0, 1, SampleOutcome.Success, false)]);
        var levels = db.Levels.Where(l => l.RunId == run.Id).ToList();

        var lines = await ResultsQueries.UpstartLinesAsync(db, levels, CancellationToken.None);

        var line = Assert.Single(lines);
        Assert.Equal(("IceTcp", "java", "Int"), (line.Variant, line.Client, line.Payload));
        Assert.Equal(Upstart.Clusters, line.Points.Select(p => p.Calls));
        Assert.Equal(20.0, line.Points[0].MeanMs!.Value, 9); // (10 + 30) / 2
        Assert.Equal(((10 + 9) / 10.0 + (30 + 27) / 10.0) / 2, line.Points[2].MeanMs!.Value, 9);
        Assert.Equal(2.0 + (18.0 / 1000), line.Points[^1].MeanMs!.Value, 9);
    }
}
