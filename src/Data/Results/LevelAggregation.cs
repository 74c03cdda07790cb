using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Results;

/// <summary>Results of a run over its repetitions, from its stored levels (warm-up already excluded there, docs/statistics.md); side-effect free (the queries are in <c>src/Data/Queries</c>).</summary>
public static class LevelAggregation
{
    /// <summary>
    /// Groups stored levels (one row per repetition) into <see cref="LevelAggregate"/>s; side-effect free.
    /// Classification comes from <see cref="ResultsClassification"/>. Ordered by variant, client, payload (ordinal), clients.
    /// Partial levels are left out unless <paramref name="includePartial"/> (then the aggregate says how many it holds).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="levels"/> is null.</exception>
    public static IReadOnlyList<LevelAggregate> Aggregate(IEnumerable<LevelEntity> levels, bool includePartial = false)
    {
        ArgumentNullException.ThrowIfNull(levels);
        return [.. levels
            .Where(l => includePartial || l.Complete)
            .GroupBy(l => (l.Variant, l.Client, l.Payload, l.Clients))
            .Select(g => Aggregate(g.Key.Variant, g.Key.Client, g.Key.Payload, g.Key.Clients, [.. g.OrderBy(l => l.Repetition).ThenBy(l => l.Id)]))
            .OrderBy(a => a.Variant, StringComparer.Ordinal)
            .ThenBy(a => a.Client, StringComparer.Ordinal)
            .ThenBy(a => a.Payload, StringComparer.Ordinal)
            .ThenBy(a => a.Clients)];
    }

    private static LevelAggregate Aggregate(string variant, string client, string payload, int clients, List<LevelEntity> repetitions)
    {
        // A repetition where every request failed has no response time (stored as 0): leave it out of those figures.
        var answered = repetitions.Where(l => l.Requests > l.Errors).ToList();
        // Launches are the top level when a run had several (docs/statistics.md, "Launches"): every estimate and test of
        // the level stands on these observations.
        var throughput = Estimate.Independent([.. repetitions.Select(l => (l.ThroughputRps, l.Repetition, l.Launch))]);
        var meanMs = Estimate.Independent([.. answered.Select(l => (l.MeanMs, l.Repetition, l.Launch))]);
        var p50 = Estimate.Independent([.. answered.Select(l => (l.P50Ms, l.Repetition, l.Launch))]);
        return new LevelAggregate
        {
            Variant = variant,
            Client = client,
            Payload = payload,
            Clients = clients,
            IsOpen = repetitions.Any(l => l.TargetRateRps is not null),
            Repetitions = repetitions.Count,
            ThroughputRps = Estimate.Of([.. throughput.Select(o => o.Value)]),
            MeanMs = Estimate.Of([.. meanMs.Select(o => o.Value)]),
            P50Ms = MeanOrZero(answered, l => l.P50Ms),
            P90Ms = MeanOrZero(answered, l => l.P90Ms),
            P99Ms = MeanOrZero(answered, l => l.P99Ms),
            P999Ms = MeanOrZero(answered, l => l.P999Ms),
            MaxMs = MeanOrZero(answered, l => l.MaxMs),
            Requests = repetitions.Sum(l => l.Requests),
            Errors = repetitions.Sum(l => l.Errors),
            TimeoutErrors = repetitions.Sum(l => l.TimeoutErrors),
            FaultErrors = repetitions.Sum(l => l.FaultErrors),
            ConnectionErrors = repetitions.Sum(l => l.ConnectionErrors),
            AuthenticationErrors = repetitions.Sum(l => l.AuthenticationErrors),
            WrongReplyErrors = repetitions.Sum(l => l.WrongReplyErrors),
            OtherErrors = repetitions.Sum(l => l.OtherErrors),
            MeanRequestBytes = MeanOrNull(repetitions.Select(l => l.MeanRequestBytes)),
            MeanResponseBytes = MeanOrNull(repetitions.Select(l => l.MeanResponseBytes)),
            GeneratorCpuPercent = MeanOrNull(repetitions.Select(l => l.GeneratorCpuPercent)),
            P50 = Estimate.Of([.. p50.Select(o => o.Value)]),
            ThroughputObservations = throughput,
            MeanMsObservations = meanMs,
            P50Observations = p50,
            PartialRepetitions = repetitions.Count(l => !l.Complete),
            SteadyStateReached = repetitions.All(l => l.SteadyStateReached is null) ? null : repetitions.All(l => l.SteadyStateReached != false),
            SteadyStateWarmupSeconds = MeanOrNull(repetitions.Select(l => l.SteadyStateWarmupSeconds)),
            ServerCpuPercent = MeanOrNull(repetitions.Select(l => l.ServerCpuPercent)),
            Bound = BoundOf(repetitions),
            GeneratorCpuMicrosPerRequest = MeanOrNull(repetitions.Select(l => l.GeneratorCpuMicrosPerRequest)),
            ServerCpuPerRequest = EstimateOrNull(repetitions.Select(l => l.ServerCpuMicrosPerRequest)),
            GeneratorCpuPerRequest = EstimateOrNull(repetitions.Select(l => l.GeneratorCpuMicrosPerRequest)),
            DisturbedRepetitions = repetitions.Count(l => l.Disturbed == true),
            CheckedRepetitions = repetitions.Count(l => l.Disturbed is not null),
            OthersCpuCores = MeanOrNull(repetitions.Select(l => l.OthersCpuCores)),
            StealPercent = MeanOrNull(repetitions.Select(l => l.StealPercent)),
            MachineBusyPercent = MeanOrNull(repetitions.Select(l => l.MachineBusyPercent)),
            SecurityMode = ResultsClassification.SecurityMode(variant),
            IsSecure = ResultsClassification.IsSecure(variant),
            PayloadClass = ResultsClassification.PayloadClass(payload),
            Agents = AgentShareSummary.Of(repetitions),
            StartSkewBoundMs = repetitions.Max(l => l.StartSkewBoundMs),
            Levels = repetitions,
        };
    }

    private static LevelBound? BoundOf(List<LevelEntity> repetitions) =>
        repetitions.Any(l => l.Bound == LevelBound.Generator) ? LevelBound.Generator
        : repetitions.Any(l => l.Bound == LevelBound.Machine) ? LevelBound.Machine
        : repetitions.Any(l => l.Bound == LevelBound.Server) ? LevelBound.Server
        : repetitions.Any(l => l.Bound == LevelBound.Neither) ? LevelBound.Neither
        : null;

    private static double MeanOrZero(List<LevelEntity> levels, Func<LevelEntity, double> value) =>
        levels.Count == 0 ? 0 : levels.Average(value);

    private static double? MeanOrNull(IEnumerable<double?> values)
    {
        var present = values.Where(v => v is not null).Select(v => v!.Value).ToList();
        return present.Count == 0 ? null : present.Average();
    }

    private static Estimate? EstimateOrNull(IEnumerable<double?> values)
    {
        var present = values.Where(v => v is not null).Select(v => v!.Value).ToList();
        return present.Count == 0 ? null : Estimate.Of(present);
    }
}
