using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Results;

/// <summary>
/// One level (variant × client × payload × clients) present in both runs, tested (<see cref="SampleTests.Difference"/>:
/// Welch's t-test on ln of each side's independent observations, from Perfolizer) for throughput, mean and median
/// response time, candidate against baseline.
/// </summary>
/// <param name="Variant">Endpoint variant id.</param>
/// <param name="Client">Client technology id.</param>
/// <param name="Payload">Payload case id.</param>
/// <param name="Clients">Concurrency level.</param>
/// <param name="Baseline">The baseline run's aggregate.</param>
/// <param name="Candidate">The candidate run's aggregate.</param>
/// <param name="Throughput">Throughput ratio candidate ÷ baseline (req/s), its interval and p-value; <see cref="DifferenceTest.Verdict"/> after the Holm correction over all levels.</param>
/// <param name="MeanMs">Mean response time ratio (ms), likewise.</param>
/// <param name="P50Ms">Median response time ratio (ms), likewise.</param>
public sealed record LevelDifference(
    string Variant, string Client, string Payload, int Clients,
    LevelAggregate Baseline, LevelAggregate Candidate,
    DifferenceTest Throughput, DifferenceTest MeanMs, DifferenceTest P50Ms)
{
    /// <summary>The level's name: variant × client × payload @ clients.</summary>
    public string Name => $"{Variant} × {Client} × {Payload} @ {Clients}";

    /// <summary>True when any of the three figures differs (after the correction).</summary>
    public bool Differs => Throughput.Verdict == DifferenceVerdict.Differs || MeanMs.Verdict == DifferenceVerdict.Differs || P50Ms.Verdict == DifferenceVerdict.Differs;
}

/// <summary>Two runs compared level by level (<see cref="RunComparison.Compare"/>).</summary>
/// <param name="BaselineRunId">The baseline run.</param>
/// <param name="CandidateRunId">The candidate run.</param>
/// <param name="Levels">The levels both runs have (complete ones unless partial levels were asked for), ordered by variant, client, payload, clients.</param>
/// <param name="Warnings">What makes the two runs hard to compare: different workload (requests vs duration, warm-up, steady state, repetitions), environment or topology; partial levels left out; levels without a test. Empty when none.</param>
/// <param name="OnlyInBaseline">Levels (names) only the baseline has.</param>
/// <param name="OnlyInCandidate">Levels (names) only the candidate has.</param>
public sealed record RunComparisonResult(
    int BaselineRunId, int CandidateRunId, IReadOnlyList<LevelDifference> Levels, IReadOnlyList<string> Warnings,
    IReadOnlyList<string> OnlyInBaseline, IReadOnlyList<string> OnlyInCandidate)
{
    /// <summary>The levels where a difference was called.</summary>
    public IEnumerable<LevelDifference> Differences => Levels.Where(l => l.Differs);
}

/// <summary>
/// Compares two runs level by level with the one test of the statistics home (<see cref="SampleTests.Difference"/>:
/// Welch's two-sided t-test on ln of the observations, from Perfolizer 0.6.1; docs/statistics.md). A level's observations
/// are its repetitions' values, or its launches' means when its run had 2 or more launches
/// (<see cref="LevelAggregate.ThroughputObservations"/> and its siblings, <see cref="Estimate.Independent"/>): the same
/// observations its interval stands on. Correcting for the number of levels compared by Holm's step-down procedure
/// (Holm 1979, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of Statistics 6:65–70),
/// so comparing many levels of two runs of the same scenario does not call 5 % of them different by chance.
/// Partial levels are left out unless asked for; the result warns when the runs differ in workload, environment or
/// topology. Side-effect free except <see cref="CompareAsync"/>, which reads the database.
/// </summary>
public static class RunComparison
{
    /// <summary>Reads both runs and their levels and compares them (<see cref="Compare"/>).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    /// <exception cref="KeyNotFoundException">A run does not exist.</exception>
    public static async Task<RunComparisonResult> CompareAsync(ResultsDbContext db, int baselineRunId, int candidateRunId, CancellationToken ct, bool includePartial = false, double alpha = 0.05)
    {
        ArgumentNullException.ThrowIfNull(db);
        var baseline = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == baselineRunId, ct) ?? throw new KeyNotFoundException($"no run has id {baselineRunId}");
        var candidate = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == candidateRunId, ct) ?? throw new KeyNotFoundException($"no run has id {candidateRunId}");
        var a = await db.Levels.AsNoTracking().Where(l => l.RunId == baselineRunId).ToListAsync(ct);
        var b = await db.Levels.AsNoTracking().Where(l => l.RunId == candidateRunId).ToListAsync(ct);
        return Compare(baseline, a, candidate, b, includePartial, alpha);
    }

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="baseline"/>: every level both have, tested at family-wise
    /// level <paramref name="alpha"/> per figure (Holm). With 1 repetition on a side no test is possible and the level says so.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alpha"/> is not in (0, 1).</exception>
    public static RunComparisonResult Compare(RunEntity baseline, IEnumerable<LevelEntity> baselineLevels, RunEntity candidate, IEnumerable<LevelEntity> candidateLevels, bool includePartial = false, double alpha = 0.05)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        ArgumentNullException.ThrowIfNull(baselineLevels);
        ArgumentNullException.ThrowIfNull(candidateLevels);
        if (!(alpha is > 0 and < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(alpha), alpha, "The significance level must be between 0 and 1.");
        }

        var aLevels = baselineLevels.ToList();
        var bLevels = candidateLevels.ToList();
        var warnings = new List<string>(WorkloadWarnings(baseline, candidate));
        warnings.AddRange(EnvironmentWarnings(baseline, candidate));
        var partial = aLevels.Count(l => !l.Complete) + bLevels.Count(l => !l.Complete);
        if (partial > 0)
        {
            warnings.Add(includePartial
                ? $"{partial} partial level(s) (cut by a cancel, crash or failed driver) are included as asked"
                : $"{partial} partial level(s) (cut by a cancel, crash or failed driver) are left out");
        }

        var a = LevelAggregation.Aggregate(aLevels, includePartial).ToDictionary(Key);
        var b = LevelAggregation.Aggregate(bLevels, includePartial).ToDictionary(Key);
        var both = a.Keys.Where(b.ContainsKey).OrderBy(k => k.Variant, StringComparer.Ordinal).ThenBy(k => k.Client, StringComparer.Ordinal)
            .ThenBy(k => k.Payload, StringComparer.Ordinal).ThenBy(k => k.Clients).ToList();
        var throughput = Holm([.. both.Select(k => Test(a[k].ThroughputObservations, b[k].ThroughputObservations, alpha))], alpha);
        var mean = Holm([.. both.Select(k => Test(a[k].MeanMsObservations, b[k].MeanMsObservations, alpha))], alpha);
        var p50 = Holm([.. both.Select(k => Test(a[k].P50Observations, b[k].P50Observations, alpha))], alpha);
        var levels = both.Select((k, i) => new LevelDifference(k.Variant, k.Client, k.Payload, k.Clients, a[k], b[k], throughput[i], mean[i], p50[i])).ToList();
        var untested = levels.Count(l => l.Throughput.Verdict == DifferenceVerdict.NoTest);
        if (untested > 0)
        {
            warnings.Add($"{untested} of {levels.Count} level(s) have fewer than 2 repetitions (or launches) on a side, or a throughput of 0: no test is possible, no difference is called there");
        }

        return new RunComparisonResult(baseline.Id, candidate.Id, levels, warnings,
            [.. a.Keys.Where(k => !b.ContainsKey(k)).Select(Name).Order(StringComparer.Ordinal)],
            [.. b.Keys.Where(k => !a.ContainsKey(k)).Select(Name).Order(StringComparer.Ordinal)]);
    }

    /// <summary>
    /// What differs between the two runs' workloads, from their scenario snapshots: requests per client vs duration,
    /// warm-up, steady state, repetitions, levels. Empty when they agree.
    /// </summary>
    public static IReadOnlyList<string> WorkloadWarnings(RunEntity baseline, RunEntity candidate)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var warnings = new List<string>();
        var a = Fields(baseline.ScenarioJson);
        var b = Fields(candidate.ScenarioJson);
        string Shown(Dictionary<string, string> f, string key) => f.GetValueOrDefault(key) ?? "absent";
        if (a.ContainsKey("requestsPerClient") != b.ContainsKey("requestsPerClient"))
        {
            warnings.Add($"workload: run {baseline.Id} is bounded by {(a.ContainsKey("duration") ? $"duration {Shown(a, "duration")}" : $"{Shown(a, "requestsPerClient")} requests per client")}, run {candidate.Id} by {(b.ContainsKey("duration") ? $"duration {Shown(b, "duration")}" : $"{Shown(b, "requestsPerClient")} requests per client")}");
        }
        else
        {
            Differ("requests per client", "requestsPerClient");
            Differ("duration", "duration");
        }

        Differ("warm-up requests per client", "warmup");
        Differ("steady state", "steadyState");
        Differ("repetitions", "repetitions");
        Differ("fresh client per repetition", "freshClientPerRepetition");
        return warnings;

        void Differ(string what, string key)
        {
            if (Shown(a, key) != Shown(b, key))
            {
                warnings.Add($"workload: {what} differ ({Shown(a, key)} in run {baseline.Id}, {Shown(b, key)} in run {candidate.Id})");
            }
        }
    }

    /// <summary>
    /// What differs between the two runs' recorded environments: CPU model, cores each side, memory, OS, kernel,
    /// runtimes, commit, topology. A run without a recorded environment is said so.
    /// </summary>
    public static IReadOnlyList<string> EnvironmentWarnings(RunEntity baseline, RunEntity candidate)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var a = Fields(baseline.EnvironmentJson);
        var b = Fields(candidate.EnvironmentJson);
        if (a.Count == 0 || b.Count == 0)
        {
            return [$"environment: not recorded for run {(a.Count == 0 ? baseline.Id : candidate.Id)}; the runs may have run on different machines"];
        }

        string[] keys = ["cpuModel", "machineCores", "generatorCores", "serverCores", "machineMemoryMb", "osDescription", "kernel", "runtime", "javaVersion", "nodeVersion", "commit", "topology"];
        return [.. keys.Where(k => a.GetValueOrDefault(k) != b.GetValueOrDefault(k))
            .Select(k => $"{(k == "topology" ? "topology" : "environment")}: {k} differs ({a.GetValueOrDefault(k) ?? "absent"} in run {baseline.Id}, {b.GetValueOrDefault(k) ?? "absent"} in run {candidate.Id})")];
    }

    /// <summary>
    /// <paramref name="tests"/> with their verdicts after Holm's correction (<see cref="MultipleTesting.HolmAdjusted"/>):
    /// a test differs when its adjusted p is below <paramref name="alpha"/>. Tests without a p-value are left as they are.
    /// </summary>
    internal static DifferenceTest[] Holm(DifferenceTest[] tests, double alpha)
    {
        var adjusted = MultipleTesting.HolmAdjusted([.. tests.Select(t => t.PValue)]);
        return [.. tests.Select((t, i) => adjusted[i] is { } p ? t with { Verdict = p < alpha ? DifferenceVerdict.Differs : DifferenceVerdict.NoDifference } : t)];
    }

    private static DifferenceTest Test(IReadOnlyList<Observation> baseline, IReadOnlyList<Observation> candidate, double alpha) =>
        SampleTests.Difference([.. baseline.Select(o => o.Value)], [.. candidate.Select(o => o.Value)], alpha);

    private static (string Variant, string Client, string Payload, int Clients) Key(LevelAggregate a) => (a.Variant, a.Client, a.Payload, a.Clients);

    private static string Name((string Variant, string Client, string Payload, int Clients) k) => $"{k.Variant} × {k.Client} × {k.Payload} @ {k.Clients}";

    // Top-level fields of a JSON object as raw text (absent when the text is not a JSON object).
    private static Dictionary<string, string> Fields(string? json)
    {
        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        if (string.IsNullOrWhiteSpace(json))
        {
            return fields;
        }

        try
        {
            using var document = JsonDocument.Parse(json);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                return fields;
            }

            foreach (var property in document.RootElement.EnumerateObject())
            {
                fields[property.Name] = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString()! : property.Value.GetRawText();
            }
        }
        catch (JsonException)
        {
            fields.Clear();
        }

        return fields;
    }
}
