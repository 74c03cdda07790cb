using Dashboard.Data.Entities;

namespace Dashboard.Data.Results;

/// <summary>
/// One rate of an open sweep (docs/statistics.md, "Closed and open workloads"), over its complete repetitions: the rate
/// asked for, the rate achieved and the corrected response times (from each request's intended start).
/// </summary>
/// <param name="RateRps">The arrival rate of the level, req/s.</param>
/// <param name="AchievedRps">Mean throughput over the repetitions, req/s (completed requests ÷ measured window).</param>
/// <param name="P50Ms">Mean corrected median, ms.</param>
/// <param name="P99Ms">Mean corrected p99, ms.</param>
/// <param name="P999Ms">Mean corrected p99.9, ms.</param>
/// <param name="ServiceP99Ms">Mean p99 of the service time (from the actual start), ms; null when not kept.</param>
/// <param name="LateStarts">Late starts summed over the repetitions.</param>
/// <param name="DroppedRequests">Dropped requests summed over the repetitions.</param>
/// <param name="Repetitions">Complete repetitions counted.</param>
public sealed record OpenSweepPoint(int RateRps, double AchievedRps, double P50Ms, double P99Ms, double P999Ms, double? ServiceP99Ms, long LateStarts, long DroppedRequests, int Repetitions);

/// <summary>The open sweep of one cell: its points by rate, and the highest rate meeting the p99 target.</summary>
/// <param name="Variant">Endpoint variant.</param>
/// <param name="Client">Client technology.</param>
/// <param name="Payload">Payload case.</param>
/// <param name="Points">One per rate, by rate ascending.</param>
/// <param name="HighestRateMeetingTarget">The highest rate whose mean corrected p99 is at most the target with no request dropped; null without a target or when no rate met it.</param>
public sealed record OpenSweepCurve(string Variant, string Client, string Payload, IReadOnlyList<OpenSweepPoint> Points, int? HighestRateMeetingTarget);

/// <summary>The latency-vs-throughput curves of a run's open levels (<see cref="LevelEntity.TargetRateRps"/> set).</summary>
/// <param name="P99TargetMs">The scenario's p99 target in ms, or null.</param>
/// <param name="Curves">One per cell with open levels, in variant, client, payload order; empty for a closed run.</param>
public sealed record OpenSweep(double? P99TargetMs, IReadOnlyList<OpenSweepCurve> Curves)
{
    /// <summary>
    /// The sweep of <paramref name="levels"/>: complete open levels only (partial ones are left out), grouped by cell and
    /// rate, figures averaged over repetitions with at least one success.
    /// </summary>
    public static OpenSweep Of(IEnumerable<LevelEntity> levels, double? p99TargetMs)
    {
        ArgumentNullException.ThrowIfNull(levels);
        var curves = levels.Where(l => l.TargetRateRps is not null && l.Complete)
            .GroupBy(l => (l.Variant, l.Client, l.Payload))
            .OrderBy(g => g.Key.Variant, StringComparer.Ordinal).ThenBy(g => g.Key.Client, StringComparer.Ordinal).ThenBy(g => g.Key.Payload, StringComparer.Ordinal)
            .Select(cell =>
            {
                var points = cell.GroupBy(l => l.TargetRateRps!.Value).OrderBy(g => g.Key).Select(Point).ToList();
                var meeting = p99TargetMs is { } target
                    ? points.Where(p => p.Repetitions > 0 && p.P99Ms <= target && p.DroppedRequests == 0).Select(p => (int?)p.RateRps).Max()
                    : null;
                return new OpenSweepCurve(cell.Key.Variant, cell.Key.Client, cell.Key.Payload, points, meeting);
            })
            .ToList();
        return new OpenSweep(p99TargetMs, curves);
    }

    /// <summary>The <c>p99TargetMs</c> of a stored scenario, read from its JSON (a scenario stored by an older build need not validate now); null when absent or not JSON.</summary>
    public static double? P99TargetOf(string? scenarioJson)
    {
        if (string.IsNullOrEmpty(scenarioJson))
        {
            return null;
        }

        try
        {
            using var document = System.Text.Json.JsonDocument.Parse(scenarioJson);
            return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object
                && document.RootElement.TryGetProperty("p99TargetMs", out var target) && target.TryGetDouble(out var ms) ? ms : null;
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// True when the scenario document asks for an open workload (<c>"workload": "open"</c>; docs/statistics.md, "Closed and
    /// open workloads"); false for closed, a missing field, or a document that is not JSON.
    /// </summary>
    public static bool IsOpenWorkload(string? scenarioJson)
    {
        if (string.IsNullOrEmpty(scenarioJson))
        {
            return false;
        }

        try
        {
            using var document = System.Text.Json.JsonDocument.Parse(scenarioJson);
            return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object
                && document.RootElement.TryGetProperty("workload", out var workload) && workload.ValueKind == System.Text.Json.JsonValueKind.String
                && string.Equals(workload.GetString(), "open", StringComparison.OrdinalIgnoreCase);
        }
        catch (System.Text.Json.JsonException)
        {
            return false;
        }
    }

    private static OpenSweepPoint Point(IGrouping<int, LevelEntity> rate)
    {
        var timed = rate.Where(l => l.Requests > l.Errors).ToList();
        double Mean(Func<LevelEntity, double> value) => timed.Count == 0 ? double.NaN : timed.Average(value);
        var service = timed.Where(l => l.ServiceP99Ms is not null).Select(l => l.ServiceP99Ms!.Value).ToList();
        return new OpenSweepPoint(rate.Key, Mean(l => l.ThroughputRps), Mean(l => l.P50Ms), Mean(l => l.P99Ms), Mean(l => l.P999Ms),
            service.Count == 0 ? null : service.Average(), rate.Sum(l => l.LateStarts ?? 0), rate.Sum(l => l.DroppedRequests ?? 0), timed.Count);
    }
}
