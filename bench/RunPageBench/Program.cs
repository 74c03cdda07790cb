using System.Diagnostics;
using System.Globalization;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Data.Samples;
using Dashboard.Web.Results;
using Microsoft.Data.Sqlite;
using Dashboard.Bench;

// Measures (does not assert) how long the dashboard's server takes to build the run page's data for one run with many
// stored samples, side by side in one process: "before" (Before.cs: the load of commit 417954c, which grouped every raw
// sample in SQL on every load) and "after" (RunPageQueries.LoadAsync: the levels' kept summaries, docs/web.md "Results
// read model"), alternating, on the same file. The run is seeded as the runner stores it (SampleStore.AppendLevel).
// Usage: RunPageBench [--samples N] [--levels N] [--iterations N] [--db FILE]
var samples = Option("--samples", 1_000_000);
var levels = Option("--levels", 64);
var iterations = Option("--iterations", 7);
var dbArgument = Array.IndexOf(args, "--db") is var i and >= 0 && i + 1 < args.Length ? args[i + 1] : null;
var directory = Path.Combine(Path.GetTempPath(), "runpage-bench-" + Guid.NewGuid().ToString("N"));
var path = dbArgument ?? Path.Combine(directory, "results.db");

try
{
    var seed = Stopwatch.StartNew();
    var runId = SeedRun(path, samples, levels);
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"seeded run {runId}: {samples:N0} samples over {levels} levels in {seed.Elapsed.TotalSeconds:0.0} s ({new FileInfo(path).Length / 1e6:0} MB)"));

    var times = new Dictionary<string, List<double>> { ["before"] = [], ["after"] = [] };
    RunPageData? before = null;
    RunPageData? after = null;
    for (var n = 0; n < iterations; n++)
    {
        foreach (var which in new[] { "before", "after" })
        {
            var stopwatch = Stopwatch.StartNew();
            await using var db = new ResultsDbContext(ResultsDatabase.CreateOptions(path));
            var data = which == "before"
                ? await Before.LoadAsync(db, runId, [runId], CancellationToken.None)
                : await RunPageQueries.LoadAsync(db, runId, [runId], CancellationToken.None);
            stopwatch.Stop();
            if (which == "before")
            {
                before = data;
            }
            else
            {
                after = data;
            }

            times[which].Add(stopwatch.Elapsed.TotalMilliseconds);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  iteration {n + 1} {which}: {stopwatch.Elapsed.TotalMilliseconds:0.0} ms{(n == 0 ? " (cold: JIT, first connection)" : "")}"));
        }
    }

    foreach (var (which, list) in times)
    {
        var warm = list.Skip(1).Order().ToList();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{which}: median {warm[warm.Count / 2]:0.0} ms, min {warm[0]:0.0} ms, max {warm[^1]:0.0} ms over {warm.Count} warm iterations; cold {list[0]:0.0} ms"));
    }

    var ratio = Median(times["after"]) / Median(times["before"]);
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"after ÷ before (warm medians): {ratio:0.000}"));
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"sent to the browser: {after!.Aggregates.Count} aggregate rows, {after.Latency.Count} response-time points (before: {before!.Latency.Count}), {after.Resources.Count} resource points " +
        $"(from {after.SampleCounts.Total:N0} samples; before counted {before.SampleCounts.Total:N0})"));
    return 0;
}
finally
{
    SqliteConnection.ClearAllPools();
    if (dbArgument is null && Directory.Exists(directory))
    {
        Directory.Delete(directory, recursive: true);
    }
}

static double Median(List<double> values)
{
    var warm = values.Skip(1).Order().ToList();
    return warm[warm.Count / 2];
}

int Option(string name, int fallback)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? int.Parse(args[index + 1], CultureInfo.InvariantCulture) : fallback;
}

static int SeedRun(string path, int samples, int levels)
{
    using var db = ResultsDatabase.Open(path);
    var start = DateTime.UtcNow.AddHours(-2);
    var run = new RunEntity
    {
        ScenarioName = "run page bench",
        ScenarioJson = "{}",
        Status = RunStatus.Completed,
        CreatedUtc = start,
        StartedUtc = start,
        EndedUtc = start.AddSeconds(levels * 30),
        TotalLevels = levels,
        CompletedLevels = levels,
    };
    db.Runs.Add(run);
    db.SaveChanges();

    var random = new Random(1);
    var perLevel = samples / levels;
    using var store = new SampleStore(path);
    var buffer = new Sample[perLevel];
    string[] variants = ["AspNetHttpJson", "AspNetH2BinXml", "MetroSoap11", "IceTcp"];
    for (var l = 0; l < levels; l++)
    {
        var clients = 1 + (l % 16 * 20);
        var level = new LevelEntity
        {
            RunId = run.Id, Variant = variants[l / 16 % variants.Length], Client = "dotnet", Payload = "Int", Repetition = 1, Clients = clients,
            StartedUtc = start.AddSeconds(l * 30), EndedUtc = start.AddSeconds((l * 30) + 29),
            Requests = perLevel - Math.Min(clients, perLevel), ThroughputRps = perLevel / 29.0, MeanMs = 1, P50Ms = 1, P90Ms = 2, P99Ms = 3, P999Ms = 4, MaxMs = 5,
        };
        for (var s = 0; s < perLevel; s++)
        {
            buffer[s] = new Sample(s % clients, (long)(s * (29_000_000.0 / perLevel)), 500 + random.Next(2_000), SampleOutcome.Success, s < clients);
        }

        // As the runner stores a level: the row, its samples and its summaries in one transaction.
        store.AppendLevel(level, buffer);
    }

    for (var second = 0; second < levels * 30; second++)
    {
        db.ResourceSamples.Add(new ResourceSampleEntity
        {
            RunId = run.Id, OffsetMs = second * 1000L, MachineCpuPercent = random.Next(100), AvailableMemoryMb = 20_000,
            ProcessCpuPercent = random.Next(50), WorkingSetMb = 100, GcHeapMb = 50, ThreadCount = 30,
        });
    }

    db.SaveChanges();
    return run.Id;
}
