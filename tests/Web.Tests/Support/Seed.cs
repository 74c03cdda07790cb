using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Samples;
using Dashboard.Service.Contracts.Outcomes;

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

    /// <summary>
    /// A completed run with what the results views need: unsecure and secure variants (two each), a small and a large
    /// payload (<c>Int</c>, <c>IntArray1000</c>), levels 1, 10, 20 and 50 clients, <paramref name="repetitions"/> repetitions (2: a noise
    /// estimate but no 95 % interval; 3 or more: intervals),
    /// wire bytes, 2 errors in <c>MetroSoap11Https × java × Int</c> at 50 clients (repetition 2), raw samples and resource
    /// readings each second. Made-up figures that only look plausible; <paramref name="throughputFactor"/> scales every
    /// throughput (for comparisons).
    /// </summary>
    public static int ResultsRun(string databasePath, double throughputFactor = 1.0, int samplesPerLevel = 40, int[]? clientLevels = null, int repetitions = 2)
    {
        using var db = ResultsDatabase.Open(databasePath);
        var cells = new (string Variant, string Client, double MaxRps, int RequestBytes, int ResponseBytes)[]
        {
            ("AspNetHttpJson", "dotnet", 30_000, 112, 175),
            ("MetroSoap11", "java", 9_000, 307, 370),
            ("AspNetHttpsJson", "dotnet", 21_000, 141, 204),
            ("MetroSoap11Https", "java", 5_000, 336, 399),
        };
        var payloads = new (string Id, double Slowdown, int ExtraBytes)[] { ("Int", 1, 0), ("IntArray1000", 4, 11_000) };
        var levels = clientLevels ?? [1, 10, 20, 50];
        var start = DateTime.UtcNow.AddHours(-2);
        var total = cells.Length * payloads.Length * levels.Length * repetitions;
        var run = new RunEntity
        {
            ScenarioName = "results views: unsecure and secure, Int and IntArray1000",
            ScenarioJson = $$"""
                {
                  "name": "results views: unsecure and secure, Int and IntArray1000",
                  "host": "http://localhost:5090",
                  "variants": ["AspNetHttpJson", "MetroSoap11", "AspNetHttpsJson", "MetroSoap11Https"],
                  "clients": ["dotnet", "java"],
                  "payloads": ["Int", "IntArray1000"],
                  "levels": [{{string.Join(", ", levels)}}],
                  "requestsPerClient": 40,
                  "warmup": 1,
                  "repetitions": {{repetitions}}
                }
                """,
            Status = RunStatus.Completed,
            CreatedUtc = start.AddMinutes(-1),
            StartedUtc = start,
            EndedUtc = start.AddSeconds(total * 3),
            TotalLevels = total,
            CompletedLevels = total,
        };
        db.Runs.Add(run);
        db.SaveChanges();
        var random = new Random(7);
        using var store = new SampleStore(databasePath);
        var t = 0;
        foreach (var cell in cells)
        {
            foreach (var payload in payloads)
            {
                for (var repetition = 1; repetition <= repetitions; repetition++)
                {
                    foreach (var clients in levels)
                    {
                        var rps = throughputFactor * cell.MaxRps / payload.Slowdown * clients / (clients + 8.0) * (0.96 + (random.NextDouble() * 0.08));
                        var meanMs = clients / rps * 1000;
                        var errors = cell.Variant == "MetroSoap11Https" && payload.Id == "Int" && clients == 50 && repetition == 2 ? 2 : 0;
                        var level = new LevelEntity
                        {
                            RunId = run.Id, Variant = cell.Variant, Client = cell.Client, Payload = payload.Id, Repetition = repetition, Clients = clients,
                            StartedUtc = start.AddSeconds(t * 3), EndedUtc = start.AddSeconds((t * 3) + 2.5),
                            Requests = samplesPerLevel, Errors = errors, TimeoutErrors = errors,
                            ThroughputRps = rps, MeanMs = meanMs, P50Ms = meanMs * 0.9, P90Ms = meanMs * 1.6, P99Ms = meanMs * 3.2, P999Ms = meanMs * 6, MaxMs = meanMs * 9,
                            MeanRequestBytes = cell.RequestBytes + payload.ExtraBytes, MeanResponseBytes = cell.ResponseBytes + payload.ExtraBytes,
                        };
                        db.Levels.Add(level);
                        db.SaveChanges();
                        var samples = new Sample[samplesPerLevel + 1];
                        samples[0] = new Sample(0, 0, (long)(meanMs * 1500), SampleOutcome.Success, true, cell.RequestBytes, cell.ResponseBytes);
                        for (var i = 1; i <= samplesPerLevel; i++)
                        {
                            var latencyUs = (long)(meanMs * 1000 * (0.5 + random.NextDouble()));
                            samples[i] = new Sample(i % clients, (long)(i * 2_500_000.0 / samplesPerLevel), latencyUs, i <= errors ? SampleOutcome.Timeout : SampleOutcome.Success, false,
                                cell.RequestBytes + payload.ExtraBytes, cell.ResponseBytes + payload.ExtraBytes);
                        }

                        store.Append(level.Id, samples);
                        t++;
                    }
                }
            }
        }

        for (var second = 0; second < t * 3; second++)
        {
            var busy = 30 + (35 * Math.Min(1, second % 24 / 12.0)) + (random.NextDouble() * 8);
            db.ResourceSamples.Add(new ResourceSampleEntity
            {
                RunId = run.Id, OffsetMs = second * 1000L, MachineCpuPercent = Math.Min(100, busy), AvailableMemoryMb = 21_000 - (second * 1.5) - (random.NextDouble() * 30),
                ProcessCpuPercent = busy * 0.5, WorkingSetMb = 180, GcHeapMb = 60, ThreadCount = 40, GeneratorCpuPercent = busy * 0.3, JvmCpuPercent = busy * 0.2,
            });
        }

        db.SaveChanges();
        return run.Id;
    }
}
