using System.Globalization;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;

namespace Dashboard.Web.Charts;

/// <summary>
/// The open sweep's chart (docs/statistics.md, "Closed and open workloads"): corrected p50, p99 and p99.9 (ms, from each
/// request's intended start) against the achieved rate (req/s), one line each per variant × client × payload, with the
/// scenario's p99 target as a dashed line.
/// </summary>
public static class OpenSweepCharts
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// <summary>The chart of <paramref name="levels"/>' open levels; (null, null) when the run has none.</summary>
    /// <param name="levels">The run's levels (closed ones are left out).</param>
    /// <param name="p99TargetMs">The scenario's p99 target in ms, or null.</param>
    public static (ChartSpec? Spec, string? Note) Curve(IReadOnlyList<LevelEntity> levels, double? p99TargetMs)
    {
        ArgumentNullException.ThrowIfNull(levels);
        var sweep = OpenSweep.Of(levels, p99TargetMs);
        if (sweep.Curves.Count == 0)
        {
            return (null, null);
        }

        var series = new List<ChartSeries>();
        foreach (var curve in sweep.Curves)
        {
            var points = curve.Points.Where(p => p.Repetitions > 0).ToList();
            var name = $"{curve.Variant} × {curve.Client} × {curve.Payload}";
            var text = points.Select(p => string.Create(Inv, $"{p.RateRps:N0} req/s asked, {p.AchievedRps:N0} achieved; late {p.LateStarts:N0}, dropped {p.DroppedRequests:N0}")).ToList();
            foreach (var (label, value, dash) in new (string, Func<OpenSweepPoint, double>, string)[] { ("p50", p => p.P50Ms, "dot"), ("p99", p => p.P99Ms, "solid"), ("p99.9", p => p.P999Ms, "dash") })
            {
                series.Add(new ChartSeries($"{name} {label}", [.. points.Select(p => p.AchievedRps)], [.. points.Select(p => (double?)value(p))], text, dash) { ColorKey = name });
            }
        }

        if (p99TargetMs is { } target)
        {
            var xs = sweep.Curves.SelectMany(c => c.Points).Where(p => p.Repetitions > 0).Select(p => p.AchievedRps).ToList();
            if (xs.Count > 0)
            {
                series.Add(new ChartSeries(string.Create(Inv, $"p99 target {target:0.###} ms"), [xs.Min(), xs.Max()], [target, target], Dash: "longdash"));
            }
        }

        var subtitle = "Open workload: response times from each request's intended start (coordinated omission corrected, as wrk2); x is the achieved rate (completed requests ÷ window), mean over repetitions."
            + (Highest(sweep) is { } highest ? $" {highest}." : "");
        return (new ChartSpec("Response time vs achieved rate (open workload)", "achieved rate (requests/s)", "time from intended start (ms)", series, LogY: true, Subtitle: subtitle), null);
    }

    /// <summary>
    /// "Highest rate with p99 ≤ 10 ms and nothing dropped — AspNetHttpJson × dotnet × Int: 2,000 req/s" (each cell, "none"
    /// for a cell no rate met it in); null without a p99 target or before any open level is stored.
    /// </summary>
    public static string? Highest(OpenSweep sweep)
    {
        ArgumentNullException.ThrowIfNull(sweep);
        if (sweep.P99TargetMs is not { } target || sweep.Curves.Count == 0)
        {
            return null;
        }

        var cells = string.Join("; ", sweep.Curves.Select(c => c.HighestRateMeetingTarget is { } r
            ? string.Create(Inv, $"{c.Variant} × {c.Client} × {c.Payload}: {r:N0} req/s")
            : $"{c.Variant} × {c.Client} × {c.Payload}: none"));
        return string.Create(Inv, $"Highest rate with p99 ≤ {target:0.###} ms and nothing dropped — {cells}");
    }
}
