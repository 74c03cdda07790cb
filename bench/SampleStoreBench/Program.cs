using System.Diagnostics;
using System.Globalization;
using Dashboard.Bench;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Data.Queries;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Dashboard.Data.Samples;

BenchOptions? options;
try
{
    options = BenchOptions.Parse(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    Console.Error.WriteLine(BenchOptions.Usage);
    return 2;
}

if (options is null)
{
    Console.WriteLine(BenchOptions.Usage);
    return 0;
}

var directory = options.Directory ?? Path.Combine(Path.GetTempPath(), "samplestore-bench-" + Guid.NewGuid().ToString("N"));
try
{
    // Warm-up on a throwaway file, so that JIT compilation is not measured.
    Run(options with { Samples = Math.Min(options.Samples, 200_000), Levels = 1 }, Path.Combine(directory, "warmup.db"));
    var (elapsed, cpu, bytes) = Run(options, Path.Combine(directory, "results.db"));

    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{options.Samples:N0} samples, {options.Levels} levels, batches of {options.Batch:N0}, " +
        $"{options.RowsPerStatement} rows/statement, index on LevelId: {(options.Index ? "yes" : "no")}"));
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{elapsed.TotalSeconds:F3} s (CPU {cpu.TotalSeconds:F3} s), {options.Samples / elapsed.TotalSeconds:N0} samples/s, " +
        $"{bytes / 1e6:F1} MB on disk ({(double)bytes / options.Samples:F1} B/sample)"));
    return 0;
}
finally
{
    SqliteConnection.ClearAllPools();
    if (options.Directory is null && Directory.Exists(directory))
    {
        Directory.Delete(directory, recursive: true);
    }
}

static (TimeSpan Elapsed, TimeSpan Cpu, long Bytes) Run(BenchOptions options, string path)
{
    var levelIds = CreateLevels(path, options.Levels, options.Index);
    var samples = MakeSamples(options.Samples);
    var perLevel = (options.Samples + options.Levels - 1) / options.Levels;

    var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
    var stopwatch = Stopwatch.StartNew();
    using (var store = new SampleStore(path, options.RowsPerStatement))
    {
        for (var level = 0; level < options.Levels; level++)
        {
            var levelSamples = samples.AsSpan(Math.Min(level * perLevel, samples.Length));
            levelSamples = levelSamples[..Math.Min(perLevel, levelSamples.Length)];
            for (var start = 0; start < levelSamples.Length; start += options.Batch)
            {
                store.Append(levelIds[level], levelSamples.Slice(start, Math.Min(options.Batch, levelSamples.Length - start)));
            }
        }
    }

    stopwatch.Stop();
    var cpu = Process.GetCurrentProcess().TotalProcessorTime - cpuBefore;
    Verify(path, options.Samples);
    var bytes = new DirectoryInfo(Path.GetDirectoryName(path)!).GetFiles(Path.GetFileName(path) + "*").Sum(f => f.Length);
    return (stopwatch.Elapsed, cpu, bytes);
}

static long[] CreateLevels(string path, int count, bool index)
{
    using var db = ResultsDatabase.Open(path);
    var run = new RunEntity { ScenarioName = "bench", ScenarioJson = "{}", CreatedUtc = DateTime.UtcNow, Status = RunStatus.Running };
    var levels = Enumerable.Range(1, count).Select(i => new LevelEntity
    {
        Run = run,
        Variant = "TcpNoSec",
        Client = "wcf",
        Payload = "Int",
        Clients = i,
        StartedUtc = DateTime.UtcNow,
        EndedUtc = DateTime.UtcNow,
    }).ToList();
    db.Levels.AddRange(levels);
    db.SaveChanges();
    if (index)
    {
        db.Database.ExecuteSqlRaw("""CREATE INDEX "IX_Samples_LevelId" ON "Samples" ("LevelId")""");
    }

    return levels.Select(l => l.Id).ToArray();
}

// Plausible values: 300 clients, latencies of 0.1–50 ms, a few errors, 1 % warm-up.
static Sample[] MakeSamples(int count)
{
    var random = new Random(42);
    var samples = new Sample[count];
    for (var i = 0; i < count; i++)
    {
        var outcome = random.Next(1000) == 0 ? (SampleOutcome)random.Next(1, 6) : SampleOutcome.Success;
        samples[i] = new Sample(i % 300, i * 40L, random.Next(100, 50_000), outcome, IsWarmup: i % 100 == 0);
    }

    return samples;
}

static void Verify(string path, int expected)
{
    using var db = new ResultsDbContext(ResultsDatabase.CreateOptions(path));
    var stored = db.CountSamplesAsync(db.Runs.Single().Id).GetAwaiter().GetResult().Total;
    if (stored != expected)
    {
        throw new InvalidOperationException($"Stored {stored} samples, expected {expected}.");
    }
}
