using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Data.Results;

/// <summary>
/// One level of one topology: a (variant, client, payload, clients) cell's means over its repetitions, with the server's
/// CPU and available memory over the level's resource readings. Shapes the on-machine vs cross-machine panels (thesis
/// ch. 9.1.1 and 9.2.1, Tables 9.1 and 9.3; docs/topologies.md).
/// </summary>
/// <param name="Topology">How the topology is shown: <c>on-machine</c>, <c>cross-machine (emulated LAN, 100 Mbit/s)</c>, <c>cross-machine (remote host)</c>.</param>
/// <param name="TopologyId">The run's recorded topology: <c>same-machine</c>, <c>emulated-lan</c>, <c>remote</c>.</param>
/// <param name="LinkRateMbps">The emulated link's rate (Mbit/s), or null.</param>
/// <param name="Variant">Endpoint variant id.</param>
/// <param name="Client">Client technology id.</param>
/// <param name="Payload">Payload id.</param>
/// <param name="Clients">Concurrent clients.</param>
/// <param name="IsSecure">True when the variant's security mode is not None.</param>
/// <param name="PayloadClass">Dataset class (<see cref="ResultsClassification.PayloadClass"/>).</param>
/// <param name="Repetitions">Stored repetitions of the level (over every run of this topology).</param>
/// <param name="ThroughputRps">Mean throughput over the repetitions, req/s.</param>
/// <param name="MeanMs">Mean of the repetitions' mean response times, ms.</param>
/// <param name="ServerCpuPercent">Mean CPU % of the host's cores during the level (all cores on-machine, its own when pinned), or null without readings.</param>
/// <param name="AvailableMemoryMb">Mean available memory of the host's machine during the level, MB, or null without readings.</param>
/// <param name="Errors">Failed requests over the repetitions.</param>
public sealed record TopologyLevel(
    string Topology, string TopologyId, int? LinkRateMbps, string Variant, string Client, string Payload, int Clients, bool IsSecure, string PayloadClass,
    int Repetitions, double ThroughputRps, double MeanMs, double? ServerCpuPercent, double? AvailableMemoryMb, long Errors)
{
    /// <summary>The scenario as the thesis's tables name it: topology and variant × client, e.g. <c>on-machine, AspNetUdsBinXml × dotnet</c>.</summary>
    public string Scenario => $"{Topology}, {Variant} × {Client}";
}

/// <summary>What a "best" cell orders by (the columns of Tables 9.1 and 9.3).</summary>
public enum TopologyMetric
{
    /// <summary>Mean response time, ms; lower is better.</summary>
    ResponseTime,

    /// <summary>Throughput, req/s; higher is better.</summary>
    Throughput,

    /// <summary>Server CPU %, of the host's cores; lower is better (the thesis's "processing").</summary>
    ServerCpu,

    /// <summary>Available memory of the host's machine, MB; higher is better (less memory used).</summary>
    AvailableMemory,
}

/// <summary>
/// One cell of the Tables 9.1/9.3 shape: for one metric, one security side and one dataset class, the scenario
/// (topology, variant × client) with the best mean over the (payload, clients) levels every scenario of the table has,
/// from <see cref="TopologyComparisonResult.FromClients"/> clients on.
/// </summary>
/// <param name="Metric">What it orders by.</param>
/// <param name="Secure">True: secure variants; false: unsecure.</param>
/// <param name="Scope">The dataset class (<see cref="ResultsClassification.PayloadClass"/>).</param>
/// <param name="Scenario">The best scenario, e.g. <c>cross-machine (emulated LAN, 100 Mbit/s), AspNetH2BinXml × dotnet</c>.</param>
/// <param name="Value">Its mean, in <paramref name="Unit"/>.</param>
/// <param name="Unit"><c>ms</c>, <c>req/s</c>, <c>%</c> or <c>MB</c>.</param>
/// <param name="Compared">How many scenarios were compared.</param>
/// <param name="Levels">How many (payload, clients) levels each mean covers.</param>
public sealed record TopologyBest(TopologyMetric Metric, bool Secure, string Scope, string Scenario, double Value, string Unit, int Compared, int Levels);

/// <summary>The levels of several runs grouped by topology, and the best scenario per metric (the shape of Tables 9.1 and 9.3).</summary>
/// <param name="Topologies">The topologies present, on-machine first, then cross-machine by link rate.</param>
/// <param name="Levels">Every level of every topology, ordered by variant, client, payload, clients, topology.</param>
/// <param name="Best">The best scenario per metric, security side and dataset class.</param>
/// <param name="FromClients">The smallest level the best cells count (the thesis reads from 20 clients on).</param>
public sealed record TopologyComparisonResult(IReadOnlyList<string> Topologies, IReadOnlyList<TopologyLevel> Levels, IReadOnlyList<TopologyBest> Best, int FromClients)
{
    /// <summary>Rows for a side-by-side table: one per (variant, client, payload, clients), each topology's level or null.</summary>
    public IReadOnlyList<(string Variant, string Client, string Payload, int Clients, IReadOnlyList<TopologyLevel?> ByTopology)> Rows() =>
        [.. Levels.GroupBy(l => (l.Variant, l.Client, l.Payload, l.Clients))
            .Select(g => (g.Key.Variant, g.Key.Client, g.Key.Payload, g.Key.Clients,
                (IReadOnlyList<TopologyLevel?>)[.. Topologies.Select(t => g.FirstOrDefault(l => l.Topology == t))]))];
}

/// <summary>The stored levels, resource readings and topology of one run.</summary>
/// <param name="Run">The run (its <see cref="RunEntity.Topology"/>, <see cref="RunEntity.LinkRateMbps"/> and start).</param>
/// <param name="Levels">Its stored levels (one row per repetition).</param>
/// <param name="Resources">Its resource readings.</param>
public sealed record RunResults(RunEntity Run, IReadOnlyList<LevelEntity> Levels, IReadOnlyList<ResourceSampleEntity> Resources);

/// <summary>
/// Groups the results of runs by topology (docs/topologies.md): the on-machine vs cross-machine comparison of thesis
/// ch. 9.1.1 (unsecure, Table 9.1) and 9.2.1 (secure, Table 9.3). Side-effect free (its query is <c>ResultsQueries.TopologyComparisonAsync</c>).
/// </summary>
public static class TopologyComparison
{
    /// <summary>Builds the comparison from loaded runs.</summary>
    /// <param name="runs">The runs; several runs of one topology (a preset's parts) merge.</param>
    /// <param name="fromClients">The smallest level the best cells count (20 as in the thesis).</param>
    /// <exception cref="ArgumentNullException"><paramref name="runs"/> is null.</exception>
    public static TopologyComparisonResult Build(IReadOnlyList<RunResults> runs, int fromClients = 20)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var rows = runs.SelectMany(r => r.Levels.Select(l => (r, l, Readings: Within(r, l)))).ToList();
        var levels = rows
            .GroupBy(x => (Label: Topology.Describe(x.r.Run.Topology, x.r.Run.LinkRateMbps), x.r.Run.Topology, x.r.Run.LinkRateMbps, x.l.Variant, x.l.Client, x.l.Payload, x.l.Clients))
            .Select(g =>
            {
                var readings = g.SelectMany(x => x.Readings).ToArray();
                return new TopologyLevel(g.Key.Label, g.Key.Topology, g.Key.LinkRateMbps, g.Key.Variant, g.Key.Client, g.Key.Payload, g.Key.Clients,
                    ResultsClassification.IsSecure(g.Key.Variant), ResultsClassification.PayloadClass(g.Key.Payload), g.Count(),
                    g.Average(x => x.l.ThroughputRps), g.Average(x => x.l.MeanMs),
                    readings.Length == 0 ? null : readings.Average(r => r.MachineCpuPercent),
                    readings.Length == 0 ? null : readings.Average(r => r.AvailableMemoryMb),
                    g.Sum(x => x.l.Errors));
            })
            .ToList();
        var topologies = levels.Select(l => (l.Topology, l.TopologyId, l.LinkRateMbps)).Distinct()
            .OrderBy(t => t.TopologyId == Topology.SameMachine ? 0 : 1).ThenBy(t => t.LinkRateMbps ?? int.MaxValue).ThenBy(t => t.Topology, StringComparer.Ordinal)
            .Select(t => t.Topology).ToArray();
        var ordered = levels.OrderBy(l => l.Variant, StringComparer.Ordinal).ThenBy(l => l.Client, StringComparer.Ordinal)
            .ThenBy(l => l.Payload, StringComparer.Ordinal).ThenBy(l => l.Clients).ThenBy(l => Array.IndexOf(topologies, l.Topology)).ToArray();
        return new TopologyComparisonResult(topologies, ordered, BestOf(ordered, fromClients), fromClients);
    }

    private static IEnumerable<ResourceSampleEntity> Within(RunResults run, LevelEntity level)
    {
        if (run.Run.StartedUtc is not { } start)
        {
            return [];
        }

        var from = (level.StartedUtc - start).TotalMilliseconds;
        var to = (level.EndedUtc - start).TotalMilliseconds;
        return run.Resources.Where(r => r.OffsetMs >= from && r.OffsetMs <= to);
    }

    private static List<TopologyBest> BestOf(IReadOnlyList<TopologyLevel> levels, int fromClients)
    {
        var best = new List<TopologyBest>();
        // Only successful levels compare: a level with errors says how a scenario fails, not how fast it is.
        var counted = levels.Where(l => l.Clients >= fromClients && l.Errors == 0).ToList();
        foreach (var side in counted.GroupBy(l => l.IsSecure).OrderBy(g => g.Key))
        {
            foreach (var scope in side.GroupBy(l => l.PayloadClass).OrderBy(g => g.Key, StringComparer.Ordinal))
            {
                var scenarios = scope.GroupBy(l => l.Scenario).ToList();
                if (scenarios.Count < 2)
                {
                    continue;
                }

                // The (payload, clients) levels every scenario has: all means cover the same work.
                var common = scenarios.Select(s => s.Select(l => (l.Payload, l.Clients)).ToHashSet())
                    .Aggregate((a, b) => { a.IntersectWith(b); return a; });
                if (common.Count == 0)
                {
                    continue;
                }

                foreach (var metric in Enum.GetValues<TopologyMetric>())
                {
                    var means = scenarios
                        .Select(s => (Scenario: s.Key, Values: s.Where(l => common.Contains((l.Payload, l.Clients))).Select(l => Value(l, metric)).ToArray()))
                        .Where(s => s.Values.All(v => v.HasValue))
                        .Select(s => (s.Scenario, Mean: s.Values.Average(v => v!.Value)))
                        .ToList();
                    if (means.Count < 2)
                    {
                        continue;
                    }

                    var winner = metric is TopologyMetric.Throughput or TopologyMetric.AvailableMemory
                        ? means.MaxBy(m => m.Mean)
                        : means.MinBy(m => m.Mean);
                    best.Add(new TopologyBest(metric, side.Key, scope.Key, winner.Scenario, winner.Mean, Unit(metric), means.Count, common.Count));
                }
            }
        }

        return best;
    }

    private static double? Value(TopologyLevel level, TopologyMetric metric) => metric switch
    {
        TopologyMetric.ResponseTime => level.MeanMs,
        TopologyMetric.Throughput => level.ThroughputRps,
        TopologyMetric.ServerCpu => level.ServerCpuPercent,
        _ => level.AvailableMemoryMb,
    };

    /// <summary>The unit of a metric's values: <c>ms</c>, <c>req/s</c>, <c>%</c>, <c>MB</c>.</summary>
    public static string Unit(TopologyMetric metric) => metric switch
    {
        TopologyMetric.ResponseTime => "ms",
        TopologyMetric.Throughput => "req/s",
        TopologyMetric.ServerCpu => "%",
        _ => "MB",
    };
}
