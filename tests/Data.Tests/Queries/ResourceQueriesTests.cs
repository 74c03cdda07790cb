using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Queries;

public sealed class ResourceQueriesTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task GetResourceSeriesAsync_ReadingsStoredOutOfOrder_ReturnsRunsReadingsInTimeOrder()
    {
        var run = TestData.Run();
        var other = TestData.Run("other");
        var readings = new[] { 500L, 0L, 250L }.Select(offset => new ResourceSampleEntity
        {
            Run = run,
            OffsetMs = offset,
            MachineCpuPercent = offset / 10.0,
            AvailableMemoryMb = 2048.5,
            ProcessCpuPercent = 12.5,
            WorkingSetMb = 150.25,
            GcHeapMb = 40.75,
            ThreadCount = 31,
            GeneratorCpuPercent = offset == 0 ? null : 60.5,
        }).ToList();
        using (var db = _database.Open())
        {
            db.ResourceSamples.AddRange(readings);
            db.ResourceSamples.Add(new ResourceSampleEntity { Run = other, OffsetMs = 100 });
            await db.SaveChangesAsync();
        }

        using var reader = _database.NewContext();
        var series = await reader.GetResourceSeriesAsync(run.Id);

        Assert.Equal([0L, 250L, 500L], series.Select(r => r.OffsetMs));
        foreach (var reading in readings)
        {
            reading.Run = null;
            Assert.Equivalent(reading, series.Single(r => r.Id == reading.Id), strict: true);
        }
    }

    [Fact]
    public async Task GetResourceSeriesAsync_UnknownRun_ReturnsEmpty()
    {
        using var db = _database.Open();

        Assert.Empty(await db.GetResourceSeriesAsync(42));
    }
}
