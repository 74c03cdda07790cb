using System.IO.Compression;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Measurement;
using Dashboard.Data.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Export;

/// <summary>A run's result bundle (docs/web.md, "Result bundles"): exported from one SQLite file, imported into another.</summary>
public sealed class RunBundleTests : IDisposable
{
    private readonly TempDatabase _from = new();
    private readonly TempDatabase _to = new();

    public void Dispose()
    {
        _from.Dispose();
        _to.Dispose();
    }

    private async Task<RunEntity> StoredRunAsync()
    {
        using var db = _from.Open();
        var run = TestData.Run("bundle");
        run.Status = RunStatus.Completed;
        run.EnvironmentJson = """{"machineName":"lab-1","processorCount":2}""";
        run.OrderSeed = 42;
        run.TotalLevels = run.CompletedLevels = 2;
        db.Runs.Add(run);
        db.ResourceSamples.Add(new ResourceSampleEntity { Run = run, OffsetMs = 1000, MachineCpuPercent = 55.5, AvailableMemoryMb = 1234 });
        await db.SaveChangesAsync();
        using var samples = ResultsStore.Sqlite(_from.FilePath).OpenSampleStore();
        var first = TestData.Level(run, clients: 1);
        (first.Run, first.RunId, first.ThroughputRps, first.ServerCpuMicrosPerRequest, first.Repetition) = (null, run.Id, 812.5, 38.25, 1);
        samples.AppendLevel(first, TestData.Samples(500, seed: 1));
        var second = TestData.Level(run, clients: 10);
        (second.Run, second.RunId, second.Repetition) = (null, run.Id, 1);
        samples.AppendLevel(second, TestData.Samples(300, seed: 2));
        return run;
    }

    [Fact]
    public async Task ImportAsync_ExportedRun_SameRecordLevelsSamplesAndReadingsMarkedImported()
    {
        var original = await StoredRunAsync();
        using var bundle = new MemoryStream();
        using (var db = _from.Open())
        {
            await RunBundle.WriteAsync(db, original.Id, bundle, "Dashboard.Runner run --scenario scenario.json", CancellationToken.None);
        }

        bundle.Position = 0;
        _ = _to.Open(); // an existing run there, so the ids differ
        using (var db = _to.Open())
        {
            db.Runs.Add(TestData.Run("other"));
            await db.SaveChangesAsync();
        }

        var imported = await RunBundle.ImportAsync(ResultsStore.Sqlite(_to.FilePath), bundle, CancellationToken.None);

        using var to = _to.Open();
        using var from = _from.Open();
        var run = await to.Runs.AsNoTracking().SingleAsync(r => r.Id == imported.Id);
        Assert.NotEqual(original.Id, run.Id);
        Assert.Equal((RunStatus.Completed, "bundle", 42, original.ScenarioJson, original.EnvironmentJson), (run.Status, run.ScenarioName, run.OrderSeed, run.ScenarioJson, run.EnvironmentJson));
        Assert.Contains($"\"originalRunId\": {original.Id}", run.ImportedJson, StringComparison.Ordinal);
        Assert.Contains("Dashboard.Runner run --scenario scenario.json", run.ImportedJson, StringComparison.Ordinal);
        var levels = await to.Levels.AsNoTracking().Where(l => l.RunId == run.Id).OrderBy(l => l.Clients).ToListAsync();
        Assert.Equal([1, 10], levels.Select(l => l.Clients));
        Assert.Equal((812.5, 38.25), (levels[0].ThroughputRps, levels[0].ServerCpuMicrosPerRequest));
        foreach (var (level, clients) in levels.Zip(new[] { 1, 10 }))
        {
            var originalLevel = await from.Levels.AsNoTracking().SingleAsync(l => l.RunId == original.Id && l.Clients == clients);
            var want = await from.Samples.AsNoTracking().Where(s => s.LevelId == originalLevel.Id).OrderBy(s => s.Id)
                .Select(s => new { s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes, s.Agent }).ToListAsync();
            var got = await to.Samples.AsNoTracking().Where(s => s.LevelId == level.Id).OrderBy(s => s.Id)
                .Select(s => new { s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes, s.Agent }).ToListAsync();
            Assert.Equal(want, got);
        }

        Assert.Equal(300, await to.Samples.CountAsync(s => s.LevelId == levels[1].Id));
        var reading = await to.ResourceSamples.AsNoTracking().SingleAsync(r => r.RunId == run.Id);
        Assert.Equal((1000L, 55.5), (reading.OffsetMs, reading.MachineCpuPercent));
    }

    [Fact]
    public async Task WriteAsync_Run_ManifestNamesTheFormatProductAndReproduceCommand()
    {
        var original = await StoredRunAsync();
        using var bundle = new MemoryStream();
        using (var db = _from.Open())
        {
            await RunBundle.WriteAsync(db, original.Id, bundle, "the command", CancellationToken.None);
        }

        bundle.Position = 0;
        using var zip = new ZipArchive(bundle, ZipArchiveMode.Read);
        Assert.Equal(["environment.json", "levels.csv", "levels.json", "manifest.json", "resources.json", "samples.jsonl", "scenario.json"], zip.Entries.Select(e => e.Name).Order(StringComparer.Ordinal));
        using var manifest = new StreamReader(zip.GetEntry("manifest.json")!.Open());
        var text = await manifest.ReadToEndAsync();
        Assert.Contains($"\"format\": \"{RunBundle.Format}\"", text, StringComparison.Ordinal);
        Assert.Contains("\"reproduce\": \"the command\"", text, StringComparison.Ordinal);
        Assert.Contains("\"version\":", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ImportAsync_NotAZip_RefusedAndNothingStored()
    {
        using var junk = new MemoryStream("not a bundle"u8.ToArray());

        var error = await Assert.ThrowsAsync<InvalidDataException>(() => RunBundle.ImportAsync(ResultsStore.Sqlite(_to.FilePath), junk, CancellationToken.None));

        Assert.StartsWith("not a result bundle", error.Message, StringComparison.Ordinal);
        using var db = _to.Open();
        Assert.Equal(0, await db.Runs.CountAsync());
    }

    [Fact]
    public async Task ImportAsync_SampleOfAnUnknownLevel_RefusedNamingTheLineAndNothingStored()
    {
        var original = await StoredRunAsync();
        using var bundle = new MemoryStream();
        using (var exporting = _from.Open())
        {
            await RunBundle.WriteAsync(exporting, original.Id, bundle, "c", CancellationToken.None);
        }

        using var broken = new MemoryStream();
        bundle.Position = 0;
        using (var source = new ZipArchive(bundle, ZipArchiveMode.Read, leaveOpen: true))
        using (var target = new ZipArchive(broken, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var entry in source.Entries)
            {
                using var input = new StreamReader(entry.Open());
                var text = await input.ReadToEndAsync();
                await using var output = new StreamWriter(target.CreateEntry(entry.Name).Open());
                await output.WriteAsync(entry.Name == "samples.jsonl" ? "[999999,0,0,1,0,0,-1,-1,null]\n" : text);
            }
        }

        broken.Position = 0;
        var error = await Assert.ThrowsAsync<InvalidDataException>(() => RunBundle.ImportAsync(ResultsStore.Sqlite(_to.FilePath), broken, CancellationToken.None));

        Assert.Equal("samples.jsonl line 1: level 999999 is not in levels.json", error.Message);
        using var db = _to.Open();
        Assert.Equal(0, await db.Runs.CountAsync());
    }
}
