using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Samples;

namespace Dashboard.Web.Tests.Support;

/// <summary>Writes runs, levels, samples and resource readings into a results database, as the runner would.</summary>
public static class Seed
{
    /// <summary>A run with <paramref name="levels"/> levels of <paramref name="samplesPerLevel"/> samples each (+1 warm-up each).</summary>
    public static int Run(string databasePath, RunStatus status, int levels, int samplesPerLevel, string? environmentJson = null)
    {
        using var db = ResultsDatabase.Open(databasePath);
        var start = DateTime.UtcNow.AddMinutes(-5);
        var run = new RunEntity
        {
            ScenarioName = "seeded",
            ScenarioJson = WebApp.Scenario("seeded"),
            Status = status,
            CreatedUtc = start,
            StartedUtc = status == RunStatus.Queued ? null : start,
            EndedUtc = status is RunStatus.Queued or RunStatus.Running ? null : start.AddMinutes(1),
            TotalLevels = levels,
            CompletedLevels = status == RunStatus.Queued ? 0 : levels,
            EnvironmentJson = environmentJson,
        };
        db.Runs.Add(run);
        db.SaveChanges();
        AddLevels(db, databasePath, run.Id, levels, samplesPerLevel, start);
        return run.Id;
    }

    /// <summary>Adds levels with samples and resource readings to run <paramref name="runId"/>.</summary>
    public static void AddLevels(ResultsDbContext db, string databasePath, int runId, int levels, int samplesPerLevel, DateTime start)
    {
        ArgumentNullException.ThrowIfNull(db);
        using var store = new SampleStore(databasePath);
        for (var i = 0; i < levels; i++)
        {
            var level = new LevelEntity
            {
                RunId = runId,
                Variant = "AspNetHttpJson",
                Client = "dotnet",
                Payload = "Int",
                Repetition = 1,
                Clients = (i + 1) * 10,
                StartedUtc = start.AddSeconds(i * 10),
                EndedUtc = start.AddSeconds((i * 10) + 9),
                Requests = samplesPerLevel,
                Errors = i == 1 ? 1 : 0,
                ThroughputRps = 1000 + (i * 100),
                MeanMs = 1 + i,
                P50Ms = 1 + i,
                P90Ms = 2 + i,
                P99Ms = 3 + i,
                P999Ms = 4 + i,
                MaxMs = 5 + i,
            };
            db.Levels.Add(level);
            db.SaveChanges();
            var samples = new Sample[samplesPerLevel + 1];
            samples[0] = new Sample(0, 0, 900, SampleOutcome.Success, true);
            for (var s = 1; s <= samplesPerLevel; s++)
            {
                samples[s] = new Sample(s % 10, s * 1000L, 800 + (s % 400), i == 1 && s == 1 ? SampleOutcome.Timeout : SampleOutcome.Success, false);
            }

            store.Append(level.Id, samples);
        }

        for (var t = 0; t < levels * 10; t++)
        {
            db.ResourceSamples.Add(new ResourceSampleEntity
            {
                RunId = runId, OffsetMs = t * 1000, MachineCpuPercent = 20 + (t % 50), AvailableMemoryMb = 20_000 - t,
                ProcessCpuPercent = 10 + (t % 30), WorkingSetMb = 120, GcHeapMb = 40, ThreadCount = 30, GeneratorCpuPercent = 15,
            });
        }

        db.SaveChanges();
    }

    /// <summary>
    /// A completed run shaped like a real one (four cells over the thesis sweep, a few errors at 300 clients, resource
    /// readings each second), for the run page's tests and screenshot. The figures are made up: they only look plausible.
    /// </summary>
    public static int RealisticRun(string databasePath)
    {
        using var db = ResultsDatabase.Open(databasePath);
        var cells = new (string Variant, string Client, double MaxRps, double K)[]
        {
            ("AspNetHttpJson", "dotnet", 31_000, 12),
            ("AspNetH2BinXml", "dotnet", 24_000, 10),
            ("MetroSoap11", "java", 9_000, 8),
            ("IceTcp", "java", 19_000, 6),
        };
        int[] sweep = [1, 10, 20, 30, 40, 50, 75, 100, 125, 150, 175, 200, 225, 250, 275, 300];
        var start = DateTime.UtcNow.AddHours(-1);
        var run = new RunEntity
        {
            ScenarioName = "thesis 8.1 quick: aspnet, metro and ice, Int",
            ScenarioJson = """
                {
                  "name": "thesis 8.1 quick: aspnet, metro and ice, Int",
                  "host": "http://localhost:5090",
                  "variants": ["AspNetHttpJson", "AspNetH2BinXml", "MetroSoap11", "IceTcp"],
                  "clients": ["dotnet", "java"],
                  "payloads": ["Int"],
                  "requestsPerClient": 200,
                  "warmup": 5,
                  "repetitions": 1
                }
                """,
            Status = RunStatus.Completed,
            CreatedUtc = start.AddMinutes(-1),
            StartedUtc = start,
            EndedUtc = start.AddSeconds(cells.Length * sweep.Length * 5),
            TotalLevels = cells.Length * sweep.Length,
            CompletedLevels = cells.Length * sweep.Length,
        };
        db.Runs.Add(run);
        db.SaveChanges();
        var random = new Random(42);
        using var store = new SampleStore(databasePath);
        var t = 0;
        foreach (var cell in cells)
        {
            foreach (var clients in sweep)
            {
                var rps = cell.MaxRps * clients / (clients + cell.K) * (0.97 + (random.NextDouble() * 0.06));
                var meanMs = clients / rps * 1000;
                var errors = clients == 300 && cell.Variant == "MetroSoap11" ? 3 : 0;
                var level = new LevelEntity
                {
                    RunId = run.Id, Variant = cell.Variant, Client = cell.Client, Payload = "Int", Repetition = 1, Clients = clients,
                    StartedUtc = start.AddSeconds(t * 5), EndedUtc = start.AddSeconds((t * 5) + 4.5),
                    Requests = 200L * clients, Errors = errors, TimeoutErrors = errors,
                    ThroughputRps = rps, MeanMs = meanMs, P50Ms = meanMs * 0.9, P90Ms = meanMs * 1.6, P99Ms = meanMs * 3.2, P999Ms = meanMs * 6, MaxMs = meanMs * 9,
                    GeneratorCpuPercent = 97.4,
                };
                db.Levels.Add(level);
                db.SaveChanges();
                var samples = new Sample[200];
                for (var i = 0; i < samples.Length; i++)
                {
                    var latencyUs = (long)(meanMs * 1000 * (0.5 + random.NextDouble()));
                    samples[i] = new Sample(i % clients, (long)(i * 4_500_000.0 / samples.Length), latencyUs, i < errors ? SampleOutcome.Timeout : SampleOutcome.Success, false);
                }

                store.Append(level.Id, samples);
                t++;
            }
        }

        for (var second = 0; second < t * 5; second++)
        {
            var busy = 35 + (30 * Math.Min(1, second % 80 / 40.0)) + (random.NextDouble() * 8);
            db.ResourceSamples.Add(new ResourceSampleEntity
            {
                RunId = run.Id, OffsetMs = second * 1000L, MachineCpuPercent = Math.Min(100, busy), AvailableMemoryMb = 21_500 - (second * 2) - (random.NextDouble() * 40),
                ProcessCpuPercent = busy * 0.55, WorkingSetMb = 180 + (second * 0.1), GcHeapMb = 60, ThreadCount = 40, GeneratorCpuPercent = busy * 0.35,
            });
        }

        db.SaveChanges();
        return run.Id;
    }
}
