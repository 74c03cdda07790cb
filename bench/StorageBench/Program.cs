using System.Diagnostics;
using System.Globalization;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Data.Queries;
using Dashboard.Tests.RealProcesses;
using Microsoft.Data.Sqlite;

// Raw samples through SampleStore.AppendLevel (what the runner does once per level) into SQLite and PostgreSQL, rounds
// alternating between the two so a busy machine affects both alike. Usage: [samples per level] [levels] [rounds].
var perLevel = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 100_000;
var levels = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 5;
var rounds = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 3;
var samples = MakeSamples(perLevel);
var directory = Directory.CreateTempSubdirectory("storage-bench-").FullName;
// Durable like a production server (the test server's defaults turn fsync off); SQLite keeps its own settings (WAL,
// synchronous=NORMAL: no fsync per commit, only at checkpoints), so PostgreSQL gets synchronous_commit=off, its equivalent.
await using var postgres = await PostgresServer.StartAsync(settings: ["fsync=on", "full_page_writes=on", "synchronous_commit=off"]);
try
{
    // Warm-up (JIT, connection pools) on both, not measured.
    Measure(ResultsStore.Sqlite(Path.Combine(directory, "warmup.db")), samples.AsSpan(0, Math.Min(perLevel, 20_000)).ToArray(), 1);
    Measure(ResultsStore.PostgreSql(await postgres.CreateDatabaseAsync("warmup")), samples.AsSpan(0, Math.Min(perLevel, 20_000)).ToArray(), 1);
    var rates = new Dictionary<StorageProvider, List<double>> { [StorageProvider.Sqlite] = [], [StorageProvider.PostgreSql] = [] };
    for (var round = 1; round <= rounds; round++)
    {
        foreach (var store in new[] { ResultsStore.Sqlite(Path.Combine(directory, $"round{round}.db")), ResultsStore.PostgreSql(await postgres.CreateDatabaseAsync($"round{round}")) })
        {
            var rate = Measure(store, samples, levels);
            rates[store.Provider].Add(rate);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"round {round} {store.Provider,-10} {rate,12:N0} samples/s"));
        }
    }

    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{levels} levels × {perLevel:N0} samples per round, {rounds} rounds; median: SQLite {Median(rates[StorageProvider.Sqlite]):N0} samples/s, PostgreSQL {Median(rates[StorageProvider.PostgreSql]):N0} samples/s (PostgreSQL/SQLite {Median(rates[StorageProvider.PostgreSql]) / Median(rates[StorageProvider.Sqlite]):F2})"));
}
finally
{
    SqliteConnection.ClearAllPools();
    Directory.Delete(directory, recursive: true);
}

static double Measure(ResultsStore store, Sample[] samples, int levels)
{
    int runId;
    using (var db = store.Open())
    {
        var run = new RunEntity { ScenarioName = "bench", ScenarioJson = "{}", CreatedUtc = DateTime.UtcNow, Status = RunStatus.Running };
        db.Runs.Add(run);
        db.SaveChanges();
        runId = run.Id;
    }

    var stopwatch = Stopwatch.StartNew();
    using (var writer = store.OpenSampleStore())
    {
        for (var level = 1; level <= levels; level++)
        {
            // Summaries given, so the time is the store's, not LevelSummaries'.
            writer.AppendLevel(new LevelEntity
            {
                RunId = runId, Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Clients = level,
                StartedUtc = DateTime.UtcNow, EndedUtc = DateTime.UtcNow, TimeSeriesJson = "[]", WarmupRequests = 0,
            }, samples, onlyWhileRunning: true);
        }
    }

    stopwatch.Stop();
    using var check = new ResultsDbContext(store.CreateOptions());
    var stored = check.CountSamplesAsync(runId).GetAwaiter().GetResult().Total;
    if (stored != (long)samples.Length * levels)
    {
        throw new InvalidOperationException($"{store.Provider}: stored {stored} samples, expected {(long)samples.Length * levels}");
    }

    return samples.Length * (double)levels / stopwatch.Elapsed.TotalSeconds;
}

// Plausible values: 300 clients, latencies of 0.1–50 ms, a few errors, 1 % warm-up.
static Sample[] MakeSamples(int count)
{
    var random = new Random(42);
    var samples = new Sample[count];
    for (var i = 0; i < count; i++)
    {
        var outcome = random.Next(1000) == 0 ? (SampleOutcome)random.Next(1, 6) : SampleOutcome.Success;
        samples[i] = new Sample(i % 300, i * 40L, random.Next(100, 50_000), outcome, IsWarmup: i % 100 == 0, RequestBytes: 180, ResponseBytes: 210);
    }

    return samples;
}

static double Median(List<double> values)
{
    var sorted = values.Order().ToList();
    return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
}
