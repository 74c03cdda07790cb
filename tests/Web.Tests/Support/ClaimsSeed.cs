using Dashboard.Data;
using Dashboard.Data.Entities;

namespace Dashboard.Web.Tests.Support;

/// <summary>Runs whose claims have known verdicts (docs/claims.md), written as the runner would store them.</summary>
public static class ClaimsSeed
{
    /// <summary>The environment the seeded runs record.</summary>
    public const string EnvironmentJson = """{"machineName":"bench-1","osDescription":"Debian GNU/Linux 12","processorCount":2,"cpuClockMHz":2600}""";

    /// <summary>
    /// A completed run of <paramref name="cells"/>: each (variant, client, payload, clients) with one repetition per
    /// throughput (req/s), a 2-second level each, mean response time 1000 × clients ÷ throughput ms.
    /// </summary>
    public static int Run(string databasePath, string name, params (string Variant, string Client, string Payload, int Clients, double[] Throughputs)[] cells)
    {
        using var db = ResultsDatabase.Open(databasePath);
        var start = DateTime.UtcNow.AddMinutes(-10);
        var run = new RunEntity
        {
            ScenarioName = name,
            ScenarioJson = WebApp.Scenario(name),
            Status = RunStatus.Completed,
            CreatedUtc = start,
            StartedUtc = start,
            EndedUtc = start.AddMinutes(5),
            EnvironmentJson = EnvironmentJson,
            TotalLevels = cells.Sum(c => c.Throughputs.Length),
            CompletedLevels = cells.Sum(c => c.Throughputs.Length),
        };
        db.Runs.Add(run);
        var t = 0;
        foreach (var (variant, client, payload, clients, throughputs) in cells)
        {
            for (var r = 0; r < throughputs.Length; r++, t++)
            {
                var ms = 1000.0 * clients / throughputs[r];
                db.Levels.Add(new LevelEntity
                {
                    Run = run, Variant = variant, Client = client, Payload = payload, Clients = clients, Repetition = r,
                    StartedUtc = start.AddSeconds(t * 2), EndedUtc = start.AddSeconds((t * 2) + 2),
                    Requests = (long)(throughputs[r] * 2), ThroughputRps = throughputs[r],
                    MeanMs = ms, P50Ms = ms, P90Ms = ms * 2, P99Ms = ms * 3, P999Ms = ms * 4, MaxMs = ms * 5,
                    GeneratorCpuPercent = 40,
                });
            }
        }

        db.SaveChanges();
        return run.Id;
    }

    /// <summary>
    /// A security run: SOAP 1.1 twice as fast as over HTTPS (thesis 9.3 holds for that pair), Ice over TLS faster than
    /// over TCP (it does not hold for that pair), × java × Int × 20 clients, 3 repetitions each.
    /// </summary>
    public static int SecurityRun(string databasePath) => Run(databasePath, "claims: security",
        ("MetroSoap11", "java", "Int", 20, [1000, 1010, 990]),
        ("MetroSoap11Https", "java", "Int", 20, [500, 505, 495]),
        ("IceTcp", "java", "Int", 20, [800, 810, 790]),
        ("IceSsl", "java", "Int", 20, [1200, 1210, 1190]));
}
