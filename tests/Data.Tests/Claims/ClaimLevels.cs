using Dashboard.Data.Claims;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Data.Statistics;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Claims;

/// <summary>Claim levels with chosen figures: one stored repetition per value, as the runner would store them.</summary>
internal static class ClaimLevels
{
    /// <summary>A level of <paramref name="variant"/> × <paramref name="client"/> × <paramref name="payload"/> × <paramref name="clients"/> with one repetition per throughput (mean response time 1000 / throughput ms); the bound stored as the runner classifies <paramref name="generatorCpu"/> and <paramref name="serverCpu"/>; every repetition flagged disturbed when <paramref name="disturbed"/>, measured before steady state when <paramref name="unsteady"/>.</summary>
    public static ClaimLevel Of(string variant, string client, string payload, int clients, double[] throughputs,
        string topology = ClaimCatalogue.SameMachine, double? generatorCpu = null, double? requestBytes = null, double? responseBytes = null,
        bool partial = false, double? serverCpu = null, bool disturbed = false, bool unsteady = false)
    {
        var stored = throughputs.Select((t, r) =>
        {
            var level = Levels.Stored(variant, client, payload, clients, r, t, 1000 / t);
            level.GeneratorCpuPercent = generatorCpu;
            level.ServerCpuPercent = serverCpu;
            level.Bound = LevelBounds.Classify(generatorCpu, null, serverCpu); // as the runner stores it
            level.Disturbed = disturbed ? true : null;
            level.SteadyStateReached = unsteady ? false : null;
            level.Complete = !(partial && r == 0); // partial: the first repetition was cut
            level.MeanRequestBytes = requestBytes;
            level.MeanResponseBytes = responseBytes;
            return level;
        });
        return new ClaimLevel(LevelAggregation.Aggregate(stored, includePartial: partial).Single(), topology, 1);
    }

    /// <summary>As <see cref="Of"/> with response times (ms) chosen instead: throughput = clients × 1000 / ms.</summary>
    public static ClaimLevel WithResponseTimes(string variant, string client, string payload, int clients, double[] meanMs, string topology = ClaimCatalogue.SameMachine)
    {
        var stored = meanMs.Select((ms, r) => Levels.Stored(variant, client, payload, clients, r, clients * 1000 / ms, ms));
        return new ClaimLevel(LevelAggregation.Aggregate(stored).Single(), topology, 1);
    }

    /// <summary>The catalogue's claim <paramref name="id"/>.</summary>
    public static Claim Claim(string id) => ClaimCatalogue.TryGet(id, out var claim) ? claim : throw new InvalidOperationException($"no claim {id}");

    /// <summary>A stored level row for query tests.</summary>
    public static LevelEntity Stored(RunEntity run, string variant, string client, string payload, int clients, int repetition, DateTime start, double seconds, long requests)
    {
        var level = Levels.Stored(variant, client, payload, clients, repetition, requests / seconds, 1);
        level.Run = run;
        level.StartedUtc = start;
        level.EndedUtc = start.AddSeconds(seconds);
        level.Requests = requests;
        return level;
    }
}
