using System.Globalization;
using Dashboard.Data.Measurement;
using Dashboard.Data.Statistics;

namespace Dashboard.Web.Charts;

/// <summary>How the pages print measured values (invariant culture).</summary>
public static class Format
{
    /// <summary>
    /// The mean of <paramref name="estimate"/> in <paramref name="format"/>, followed by its 95 % confidence interval
    /// when it has one (<see cref="Estimate.HasInterval"/>: at least 3 repetitions; e.g. <c>812.4 [790.1, 834.7]</c>);
    /// the mean alone otherwise (the level's flags say why: "n = 2: at least 3 for an interval").
    /// </summary>
    public static string WithCi(Estimate estimate, string format) => LevelStatistics.WithInterval(estimate, format);

    /// <summary>A relative difference in percent with its sign, e.g. <c>+12.5 %</c>; <c>—</c> when undefined.</summary>
    public static string Delta(double? percent) =>
        percent is { } p && double.IsFinite(p) ? p.ToString("+0.0' %';-0.0' %';0.0' %'", CultureInfo.InvariantCulture) : "—";

    /// <summary>A concurrency level in words: <c>1 client</c>, <c>20 clients</c>.</summary>
    public static string Clients(int clients) => clients == 1 ? "1 client" : clients.ToString(CultureInfo.InvariantCulture) + " clients";

    /// <summary>
    /// A level in words: closed levels as <see cref="Clients"/> (<c>1 client</c>, <c>20 clients</c>), open levels (scenario
    /// <c>workload: "open"</c>, <c>Levels.TargetRateRps</c> set) as their offered arrival rate, <c>2,000 req/s</c>.
    /// </summary>
    /// <param name="level">The level's value: clients (closed) or the arrival rate in req/s (open).</param>
    /// <param name="open">True for an open level.</param>
    public static string Level(int level, bool open) => open ? level.ToString("N0", CultureInfo.InvariantCulture) + " req/s" : Clients(level);

    /// <summary>The axis title of a level's value: <c>concurrent clients</c>, or <c>offered rate (req/s)</c> for open levels.</summary>
    public static string LevelAxis(bool open) => open ? "offered rate (req/s)" : "concurrent clients";
}
