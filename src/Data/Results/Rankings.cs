using System.Text.Json.Serialization;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Results;

/// <summary>What a ranking table orders by. In JSON, the member's name.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<RankingMetric>))]
public enum RankingMetric
{
    /// <summary>Throughput in req/s; higher ranks better.</summary>
    Throughput,

    /// <summary>Mean response time in ms; lower ranks better.</summary>
    ResponseTime,
}

/// <summary>How <see cref="Rankings.Compute"/> builds its tables.</summary>
/// <param name="FromClients">Only levels with at least this many clients count (the thesis reads its results from 20 clients on).</param>
/// <param name="SplitBySecurity">True: separate tables for unsecure and secure variants (Tables 9.1–9.2 vs 9.3–9.4); false: one table with both (<see cref="RankingTable.Secure"/> null).</param>
/// <param name="Alpha">Significance level of the Welch t-test (<see cref="SampleTests.Difference"/>) that decides whether two neighbours differ beyond noise.</param>
public sealed record RankingOptions(int FromClients = 20, bool SplitBySecurity = true, double Alpha = 0.05);

/// <summary>One variant × client in a ranking table.</summary>
/// <param name="Rank">1 is best. Entries tied within noise share a rank; the next rank skips (1, 1, 3: competition ranking).</param>
/// <param name="Variant">Endpoint variant id.</param>
/// <param name="Client">Client technology id.</param>
/// <param name="Value">The summary value (<see cref="Estimate"/>'s mean) in <paramref name="Unit"/>.</param>
/// <param name="Unit"><c>req/s</c> or <c>ms</c>.</param>
/// <param name="Estimate">The summary with its 95 % confidence interval (see <see cref="Rankings"/> for how it is built).</param>
/// <param name="TiedWithinNoise">True when this entry shares its rank with another one.</param>
/// <param name="TieNote">"tied with X × c within noise …" naming the entries it shares its rank with; null when not tied.</param>
public sealed record RankingEntry(int Rank, string Variant, string Client, double Value, string Unit, Estimate Estimate, bool TiedWithinNoise, string? TieNote)
{
    /// <summary>
    /// The entry it was tested against (<see cref="Name"/>): the first entry of its own group when tied, else the first
    /// entry of the group before it; null for the table's first entry.
    /// </summary>
    public string? TestedAgainst { get; init; }

    /// <summary>
    /// The test that placed it (<see cref="SampleTests.Difference"/>: <see cref="TestedAgainst"/> as the baseline, this
    /// entry as the candidate, on their observations); null for the table's first entry.
    /// </summary>
    public DifferenceTest? Test { get; init; }

    /// <summary>Number of (payload, clients) levels the summary averages.</summary>
    public int Levels { get; init; }

    /// <summary>True when the variant's security mode is not <c>None</c>.</summary>
    public bool IsSecure { get; init; }

    /// <summary>The entry's name: variant × client.</summary>
    public string Name => $"{Variant} × {Client}";
}

/// <summary>One ranking table like the thesis's Tables 9.1–9.4: one metric, one payload scope, one security side.</summary>
/// <param name="Title">E.g. "Throughput (req/s), small datasets, unsecure variants, from 20 clients on".</param>
/// <param name="Scope">The payload class (<c>Small</c>, <c>Large</c>, <c>Whitepaper</c>, <c>Book</c>, <c>unknown</c>) or <c>overall</c>.</param>
/// <param name="Metric">What the table orders by.</param>
/// <param name="Secure">True: secure variants only; false: unsecure only; null: both (security not split).</param>
/// <param name="Entries">Best first.</param>
public sealed record RankingTable(string Title, string Scope, RankingMetric Metric, bool? Secure, IReadOnlyList<RankingEntry> Entries)
{
    /// <summary>True when every entry has a noise estimate (at least two repetitions), so ties were assessed.</summary>
    public bool HasNoiseEstimate { get; init; }

    /// <summary>
    /// What a reader must know about the table, or null: "one repetition: no noise estimate, ties not assessed",
    /// or that entries do not cover the same payloads and levels.
    /// </summary>
    public string? Note { get; init; }

    /// <summary>The smallest concurrency level counted (<see cref="RankingOptions.FromClients"/>).</summary>
    public int FromClients { get; init; }

    /// <summary>The payload ids the table covers.</summary>
    public IReadOnlyList<string> Payloads { get; init; } = [];

    /// <summary>The concurrency levels the table covers.</summary>
    public IReadOnlyList<int> ClientLevels { get; init; } = [];
}

/// <summary>
/// Ranking tables like the thesis's Tables 9.1–9.4 (ch. 9: best to worst by response time and by throughput, per
/// dataset class, unsecure and secure apart), computed from <see cref="LevelAggregate"/>s; side-effect free.
/// </summary>
/// <remarks>
/// <para>Entries are variant × client. Only levels with at least <see cref="RankingOptions.FromClients"/> clients
/// count. Scopes: each payload class present (<see cref="LevelAggregate.PayloadClass"/>), and <c>overall</c> when
/// more than one class is present (with one class, that class's table is the overall one).</para>
/// <para><b>Summary value.</b> Within a table, an entry's value is the mean of its per-level means (each level's mean
/// over repetitions), over the (payload, clients) levels that every entry of the table has, so all entries are compared
/// on the same payloads and levels; if the entries share no level, each is averaged over its own levels and the table
/// says so in <see cref="RankingTable.Note"/>. Response time leaves out levels where no request succeeded; throughput
/// keeps them (0 req/s is what was measured).</para>
/// <para><b>Observations.</b> The independent unit of a run is the repetition (each one runs every level of every cell,
/// interleaved) or, with 2 or more launches, the launch (<see cref="Estimate.Independent"/>); the levels of one entry in
/// one repetition are not independent of each other (same client and host processes, same machine state). So an entry
/// has one observation per repetition (or launch) that all its counted levels have: the mean over those levels of that
/// repetition's (or launch's) values. Its summary (<see cref="RankingEntry.Estimate"/>: mean, log-scale 95 % interval,
/// n = repetitions or launches, ν = n − 1) and its tests stand on these. When every level has the same repetitions the
/// mean is the mean of the per-level means; a repetition some level lacks (an extra precision round, a repetition with no
/// successful request for response time) is left out of the entry; an entry whose levels share no repetition has one
/// value, the mean of its per-level means, and no noise estimate. Treating the levels as independent measurements
/// (Welch–Satterthwaite over the levels' standard errors, before issue #34) counted each level as a replication and gave
/// more degrees of freedom than there are repetitions.</para>
/// <para><b>Ties.</b> Entries are sorted best first; an entry shares the rank of the first entry of the current group
/// when Welch's two-sided t-test on ln of the observations (<see cref="SampleTests.Difference"/>, Perfolizer 0.6.1,
/// level <see cref="RankingOptions.Alpha"/>) does not find them different; otherwise it opens a new group ranked by its
/// position (<see cref="RankingEntry.Test"/> keeps the test). A t-test rather than overlapping intervals, because two
/// 95 % intervals can overlap while the difference is significant. With one repetition there is no noise estimate: no
/// ties are invented, ranks follow the means, and the table's note says so.</para>
/// </remarks>
public static class Rankings
{
    /// <summary>
    /// The tables for <paramref name="levels"/>: unsecure before secure, scopes in catalogue order then overall,
    /// throughput before response time. Empty when no level reaches <see cref="RankingOptions.FromClients"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static IReadOnlyList<RankingTable> Compute(IReadOnlyList<LevelAggregate> levels, RankingOptions options)
    {
        ArgumentNullException.ThrowIfNull(levels);
        ArgumentNullException.ThrowIfNull(options);
        var counted = levels.Where(l => l.Clients >= options.FromClients).ToList();
        var sides = options.SplitBySecurity
            ? counted.GroupBy(l => (bool?)l.IsSecure).OrderBy(g => g.Key).ToList()
            : counted.GroupBy(_ => (bool?)null).ToList();
        var tables = new List<RankingTable>();
        foreach (var side in sides)
        {
            var classes = side.Select(l => l.PayloadClass).Distinct().OrderBy(ResultsClassification.ScopeOrder).ThenBy(c => c, StringComparer.Ordinal).ToList();
            var scopes = classes.Count > 1 ? [.. classes, ResultsClassification.Overall] : classes;
            foreach (var scope in scopes)
            {
                var inScope = side.Where(l => scope == ResultsClassification.Overall || l.PayloadClass == scope).ToList();
                foreach (var metric in (RankingMetric[])[RankingMetric.Throughput, RankingMetric.ResponseTime])
                {
                    if (Table(inScope, scope, metric, side.Key, options) is { } table)
                    {
                        tables.Add(table);
                    }
                }
            }
        }

        return tables;
    }

    /// <summary>The unit of a metric's values: <c>req/s</c> or <c>ms</c>.</summary>
    public static string UnitOf(RankingMetric metric) => metric == RankingMetric.Throughput ? "req/s" : "ms";

    private static RankingTable? Table(List<LevelAggregate> levels, string scope, RankingMetric metric, bool? secure, RankingOptions options)
    {
        // Per entry (variant × client): its levels' observations by (payload, clients).
        var entries = levels
            .Select(l => (Level: l, Observations: metric == RankingMetric.Throughput ? l.ThroughputObservations : l.MeanMsObservations))
            .Where(x => x.Observations.Count > 0)
            .GroupBy(x => (x.Level.Variant, x.Level.Client))
            .Select(g => (g.Key.Variant, g.Key.Client, IsSecure: g.First().Level.IsSecure,
                Cells: g.ToDictionary(x => (x.Level.Payload, x.Level.Clients), x => x.Observations)))
            .ToList();
        if (entries.Count == 0)
        {
            return null;
        }

        var common = entries.Skip(1).Aggregate(
            new HashSet<(string Payload, int Clients)>(entries[0].Cells.Keys),
            (set, e) => { set.IntersectWith(e.Cells.Keys); return set; });
        var likeForLike = common.Count > 0;
        var unit = UnitOf(metric);
        var summaries = entries
            .Select(e =>
            {
                var keys = (likeForLike ? common : e.Cells.Keys.ToHashSet())
                    .OrderBy(k => k.Payload, StringComparer.Ordinal).ThenBy(k => k.Clients).ToList();
                var observations = Observations([.. keys.Select(k => e.Cells[k])]);
                return (e.Variant, e.Client, e.IsSecure, Keys: keys, Observations: observations, Summary: Estimate.Of(observations));
            })
            .ToList();
        var ordered = (metric == RankingMetric.Throughput
                ? summaries.OrderByDescending(s => s.Summary.Mean)
                : summaries.OrderBy(s => s.Summary.Mean))
            .ThenBy(s => s.Variant, StringComparer.Ordinal).ThenBy(s => s.Client, StringComparer.Ordinal)
            .ToList();

        // Group neighbours whose difference the noise explains; each group shares the rank of its first entry.
        var groups = new List<List<int>>();
        var tests = new DifferenceTest?[ordered.Count];
        var against = new int?[ordered.Count];
        for (var i = 0; i < ordered.Count; i++)
        {
            if (groups.Count > 0)
            {
                against[i] = groups[^1][0];
                tests[i] = SampleTests.Difference(ordered[groups[^1][0]].Observations, ordered[i].Observations, options.Alpha);
                if (tests[i]!.Verdict == DifferenceVerdict.NoDifference)
                {
                    groups[^1].Add(i);
                    continue;
                }
            }

            groups.Add([i]);
        }

        var ranked = new List<RankingEntry>(ordered.Count);
        foreach (var group in groups)
        {
            var rank = group[0] + 1;
            foreach (var i in group)
            {
                var s = ordered[i];
                var others = group.Where(j => j != i).Select(j => $"{ordered[j].Variant} × {ordered[j].Client}").ToList();
                var note = others.Count == 0
                    ? null
                    : $"tied with {string.Join(", ", others)} within noise (Welch's t-test on the log scale, p ≥ {options.Alpha:0.###})";
                ranked.Add(new RankingEntry(rank, s.Variant, s.Client, s.Summary.Mean, unit, s.Summary, others.Count > 0, note)
                {
                    Levels = s.Keys.Count,
                    IsSecure = s.IsSecure,
                    TestedAgainst = against[i] is { } a ? $"{ordered[a].Variant} × {ordered[a].Client}" : null,
                    Test = tests[i],
                });
            }
        }

        var withNoise = summaries.Count(s => s.Summary.HasNoiseEstimate);
        var notes = new List<string>();
        if (withNoise == 0)
        {
            notes.Add("one repetition: no noise estimate, so ties are not assessed; ranks follow the means");
        }
        else if (withNoise < summaries.Count)
        {
            notes.Add("some entries have one repetition (or no repetition all their levels share): ties are assessed only between entries with repetitions");
        }

        if (!likeForLike)
        {
            notes.Add("the entries share no payload and level: each is averaged over its own, so values are not like for like");
        }

        var usedKeys = summaries.SelectMany(s => s.Keys).Distinct().ToList();
        return new RankingTable(Title(metric, scope, secure, options.FromClients), scope, metric, secure, ranked)
        {
            HasNoiseEstimate = withNoise == summaries.Count,
            Note = notes.Count == 0 ? null : string.Join("; ", notes),
            FromClients = options.FromClients,
            Payloads = [.. usedKeys.Select(k => k.Payload).Distinct().Order(StringComparer.Ordinal)],
            ClientLevels = [.. usedKeys.Select(k => k.Clients).Distinct().Order()],
        };
    }

    /// <summary>
    /// An entry's observations over its <paramref name="levels"/> (each level's <see cref="Estimate.Independent"/>
    /// observations): per repetition (or launch) that every level has, the mean over the levels of its values; when the
    /// levels share none, the one value of the mean of their means (class remarks, "Observations").
    /// </summary>
    private static double[] Observations(IReadOnlyList<IReadOnlyList<Observation>> levels)
    {
        var shared = levels.Skip(1).Aggregate(
            new HashSet<(bool, int)>(levels[0].Select(o => (o.IsLaunch, o.Replicate))),
            (set, level) => { set.IntersectWith(level.Select(o => (o.IsLaunch, o.Replicate))); return set; });
        if (shared.Count == 0)
        {
            return [levels.Average(level => level.Average(o => o.Value))];
        }

        var byReplicate = levels.Select(level => level.GroupBy(o => (o.IsLaunch, o.Replicate)).ToDictionary(g => g.Key, g => g.Average(o => o.Value))).ToList();
        return [.. shared.Order().Select(r => byReplicate.Average(level => level[r]))];
    }

    private static string Title(RankingMetric metric, string scope, bool? secure, int fromClients)
    {
        var what = metric == RankingMetric.Throughput ? "Throughput (req/s, higher is better)" : "Mean response time (ms, lower is better)";
        var side = secure switch { true => ", secure variants", false => ", unsecure variants", null => "" };
        return $"{what}, {ResultsClassification.DescribeScope(scope)}{side}, {(fromClients <= 1 ? "all levels" : $"from {fromClients} clients on")}";
    }
}
