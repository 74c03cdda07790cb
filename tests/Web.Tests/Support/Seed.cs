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
}
