using System.Globalization;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Resources;
using Microsoft.EntityFrameworkCore;

using Dashboard.Data.Claims;

namespace Dashboard.Data.Queries;

/// <summary>Reads the claims engine's input from the results database (docs/claims.md).</summary>
public static class ClaimQueries
{
    /// <summary>How many of a 1-client level's first calls make its upstart (seed 002 Fig. 7's first cluster sizes): 5.</summary>
    public const int FirstCalls = 5;

    /// <summary>
    /// The levels of <paramref name="runIds"/> (taken together: a preset's parts, or one run in both topologies) as
    /// <see cref="ClaimLevel"/>s: aggregates over repetitions (<see cref="LevelAggregation.Aggregate"/>), each run's
    /// topology, server resources over each level's windows (<see cref="LevelResources"/>) and, for 1-client levels,
    /// the mean response time of the first <see cref="FirstCalls"/> successful calls, warm-up included.
    /// The server's cores and clock come from the run's environment (<c>topology.hostCores</c> for a host pinned to some
    /// cores, as in emulated-lan, else <c>processorCount</c>; <c>cpuClockMHz</c>); where it lacks them, from this machine (<see cref="Environment.ProcessorCount"/>,
    /// <c>/proc/cpuinfo</c>), and <see cref="RunFacts"/> says so.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static async Task<ClaimInputs> LoadAsync(ResultsDbContext db, IReadOnlyCollection<int> runIds, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(runIds);
        var ids = runIds.ToArray();
        var runs = await db.Runs.AsNoTracking().Where(r => ids.Contains(r.Id)).ToListAsync(ct);
        var stored = await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId)).ToListAsync(ct);
        var facts = runs.Select(Facts).ToDictionary(f => f.RunId);
        var readings = new Dictionary<int, (IReadOnlyList<ResourceSampleEntity>, DateTime)?>();
        foreach (var run in runs)
        {
            var series = await db.ResourceSamples.AsNoTracking().Where(r => r.RunId == run.Id).OrderBy(r => r.OffsetMs).ToListAsync(ct);
            var origin = run.StartedUtc ?? (stored.Where(l => l.RunId == run.Id).Select(l => (DateTime?)l.StartedUtc).Min() ?? run.CreatedUtc);
            readings[run.Id] = series.Count == 0 ? null : (series, origin);
        }

        var levels = new List<ClaimLevel>();
        foreach (var group in stored.GroupBy(l => (l.RunId, l.Variant, l.Client, l.Payload, l.Clients)).OrderBy(g => g.Key.RunId))
        {
            var all = group.OrderBy(l => l.Repetition).ThenBy(l => l.Id).ToList();
            // A disturbed repetition, or one measured before steady state, is left out on its own while the level has clean
            // ones (each a launch or repetition of its own, so the rest stay independent observations); when none is clean
            // the level keeps them all and its flags, and the verdict leaves the whole level out, saying why.
            var clean = all.Where(l => l.Disturbed != true && l.SteadyStateReached != false).ToList();
            var repetitions = clean.Count > 0 ? clean : all;
            List<string> leftOutRepetitions = clean.Count > 0
                ? [.. all.Except(clean).Select(l => $"{(l.Launch is { } launch ? $"launch {launch}" : $"repetition {l.Repetition}")}: {(l.Disturbed == true ? "disturbed" : "before steady state")}")]
                : [];
            var run = facts[group.Key.RunId];
            // Null when the statistics home leaves every repetition out (e.g. partial levels).
            if (LevelAggregation.Aggregate(repetitions).SingleOrDefault() is not { } aggregate)
            {
                continue;
            }

            var resources = LevelResources.Of(repetitions, id => readings.GetValueOrDefault(id), run.Cores, run.Clock?.MHz);
            Estimate? firstCalls = null;
            List<double> firstCallMeans = [];
            if (group.Key.Clients == 1)
            {
                var means = new List<double>();
                foreach (var level in repetitions)
                {
                    var first = await db.SamplesOf(level)
                        .Where(s => s.Outcome == SampleOutcome.Success)
                        .OrderBy(s => s.StartOffsetUs).ThenBy(s => s.Id)
                        .Take(FirstCalls).Select(s => s.LatencyUs).ToListAsync(ct);
                    if (first.Count > 0)
                    {
                        means.Add(first.Average() / 1000.0);
                    }
                }

                firstCalls = means.Count > 0 ? Estimate.Of(means) : null;
                firstCallMeans = means;
            }

            levels.Add(new ClaimLevel(aggregate, run.Topology, run.RunId)
            {
                Resources = resources, FirstCallsMs = firstCalls, FirstCallsValues = firstCallMeans, RepetitionsLeftOut = leftOutRepetitions,
            });
        }

        return new ClaimInputs(levels, [.. facts.Values.OrderBy(f => f.RunId)]);
    }

    /// <summary>The topology a scenario document names (<c>topology</c>, a string), or <see cref="ClaimCatalogue.SameMachine"/>.</summary>
    public static string TopologyOf(string? scenarioJson)
    {
        try
        {
            using var doc = JsonDocument.Parse(scenarioJson ?? "{}");
            return doc.RootElement.ValueKind == JsonValueKind.Object
                && doc.RootElement.TryGetProperty("topology", out var t) && t.ValueKind == JsonValueKind.String && t.GetString() is { Length: > 0 } name
                ? name : ClaimCatalogue.SameMachine;
        }
        catch (JsonException)
        {
            return ClaimCatalogue.SameMachine;
        }
    }

    private static RunFacts Facts(RunEntity run)
    {
        int? cores = null;
        int? hostCores = null;
        double? clock = null;
        try
        {
            using var doc = JsonDocument.Parse(run.EnvironmentJson ?? "{}");
            if (doc.RootElement.ValueKind == JsonValueKind.Object)
            {
                if (doc.RootElement.TryGetProperty("processorCount", out var p) && p.TryGetInt32(out var c) && c > 0)
                {
                    cores = c;
                }

                // An emulated-lan host is pinned to some cores, and its CPU % is of those cores (docs/topologies.md).
                if (doc.RootElement.TryGetProperty("topology", out var t) && t.ValueKind == JsonValueKind.Object
                    && t.TryGetProperty("hostCores", out var h) && h.ValueKind == JsonValueKind.Array && h.GetArrayLength() > 0)
                {
                    hostCores = h.GetArrayLength();
                }

                if (doc.RootElement.TryGetProperty(CpuClock.EnvironmentProperty, out var m) && m.TryGetDouble(out var mhz) && mhz > 0)
                {
                    clock = mhz;
                }
            }
        }
        catch (JsonException)
        {
            // An unreadable environment: fall back to this machine below.
        }

        var cpuClock = clock is { } recorded
            ? new CpuClock(recorded, "recorded with the run (its environment's cpuClockMHz, from /proc/cpuinfo)")
            : CpuClock.ReadProcCpuinfo() is { } now ? now with { Source = now.Source + ", read now: the run recorded none" } : null;
        var (serverCores, coresSource) = hostCores is { } pinned
            ? (pinned, "the cores the host was pinned to (its environment's topology.hostCores)")
            : cores is { } recordedCores
                ? (recordedCores, "recorded with the run (processorCount)")
                : (Environment.ProcessorCount, $"this machine ({Environment.ProcessorCount.ToString(CultureInfo.InvariantCulture)}): the run recorded none");
        return new RunFacts(run.Id, TopologyOf(run.ScenarioJson), serverCores, coresSource, cpuClock);
    }
}
