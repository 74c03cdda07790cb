using System.Globalization;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;

namespace Dashboard.Data.Statistics;

/// <summary>
/// One stored level as the levels CSV writes it: the level (one repetition), where its run ran, and its cell's
/// aggregate over the complete repetitions (for the intervals and coefficients of variation).
/// </summary>
/// <param name="Level">The stored level.</param>
/// <param name="Topology">The run's topology (<c>same-machine</c>, <c>emulated-lan</c>, <c>remote</c>).</param>
/// <param name="LinkRateMbps">The emulated link's rate in Mbit/s; null unless emulated-lan.</param>
/// <param name="Complete">Its cell's aggregate over the complete repetitions; null when none is complete.</param>
public sealed record LevelRow(LevelEntity Level, string Topology, int? LinkRateMbps, LevelAggregate? Complete)
{
    /// <summary>True when at least one measured request succeeded: the level has response times.</summary>
    public bool Timed => Level.Requests > Level.Errors;
}

/// <summary>
/// The declaration of one figure of a level (as BenchmarkDotNet's columns: name, unit, legend, accessor, format), in
/// <see cref="LevelStatistics.All"/>: the levels CSV (runner and API alike), the per-level table, its tooltips and the
/// runner's mapping of <see cref="LatencyStatistics"/> onto the stored level all loop over these declarations.
/// </summary>
/// <param name="Name">What it is, in words: <c>p95 response time</c>.</param>
/// <param name="Unit">Its unit (<c>ms</c>, <c>req/s</c>, <c>bytes</c>, <c>%</c>, <c>µs</c>, <c>s</c>), empty for counts, flags and names.</param>
/// <param name="Legend">What it means and how it is computed: the table header's tooltip and the docs' wording.</param>
public sealed record LevelStatistic(string Name, string Unit, string Legend)
{
    /// <summary>Its column in the levels CSV (<c>p95_ms</c>); null when the levels CSV has no such column.</summary>
    public string? Column { get; init; }

    /// <summary>Its value for one stored level, as the levels CSV writes it (null: empty field); required with <see cref="Column"/>.</summary>
    public Func<LevelRow, object?>? PerLevel { get; init; }

    /// <summary>Its header in the per-level table (<c>p95 (ms)</c>); null when the table has no such column.</summary>
    public string? Title { get; init; }

    /// <summary>Its value over a level's repetitions (the table's cell and sort key); required with <see cref="Title"/>.</summary>
    public Func<LevelAggregate, object?>? Aggregated { get; init; }

    /// <summary>The table's number format (<c>0.000</c>, <c>N0</c>); empty: the value as is.</summary>
    public string Format { get; init; } = "";

    /// <summary>The table's text for a level when the format alone does not say it (an interval, "—"); null: <see cref="Format"/>.</summary>
    public Func<LevelAggregate, string>? Display { get; init; }

    /// <summary>The table cell's tooltip for a level (e.g. the figures behind a flag); null: none.</summary>
    public Func<LevelAggregate, string?>? Tooltip { get; init; }

    /// <summary>True when the table hides the column until chosen in its column menu.</summary>
    public bool Hidden { get; init; }

    /// <summary>True for a number (right-aligned in the table).</summary>
    public bool Numeric { get; init; } = true;

    /// <summary>True when the table's cells never wrap.</summary>
    public bool NoWrap { get; init; }

    /// <summary>True for the columns that name the level (variant, client, payload): kept on the left, never hidden.</summary>
    public bool Key { get; init; }

    /// <summary>Its header in the runner's console table (<c>p95 ms</c>); null when the console table has no such column.</summary>
    public string? ConsoleTitle { get; init; }

    /// <summary>The console table's number format; null: <see cref="Format"/>.</summary>
    public string? ConsoleFormat { get; init; }

    /// <summary>How the runner stores it from a level's raw-sample statistics; null when it is not computed from them.</summary>
    public Action<LevelEntity, LatencyStatistics>? Store { get; init; }

    /// <summary>The table's text for <paramref name="level"/>: <see cref="Display"/>, else the value in <see cref="Format"/> (invariant culture), empty when null.</summary>
    /// <exception cref="InvalidOperationException">The statistic is not in the table.</exception>
    public string Text(LevelAggregate level)
    {
        ArgumentNullException.ThrowIfNull(level);
        if (Display is not null)
        {
            return Display(level);
        }

        var value = (Aggregated ?? throw new InvalidOperationException($"'{Name}' is not in the per-level table."))(level);
        return value switch
        {
            null => "",
            IFormattable f when Format.Length > 0 => f.ToString(Format, CultureInfo.InvariantCulture),
            IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString() ?? "",
        };
    }

    /// <summary>The console table's cell of <paramref name="row"/>: the value in <see cref="ConsoleFormat"/> (invariant culture), <c>-</c> when null.</summary>
    /// <exception cref="InvalidOperationException">The statistic has no value per stored level.</exception>
    public string Cell(LevelRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        var value = (PerLevel ?? throw new InvalidOperationException($"'{Name}' has no value per stored level."))(row);
        var format = ConsoleFormat ?? Format;
        return value switch
        {
            null => "-",
            IFormattable f => f.ToString(format.Length > 0 ? format : null, CultureInfo.InvariantCulture),
            _ => value.ToString() ?? "-",
        };
    }

    /// <summary>The CSV field of <paramref name="row"/> (unquoted): invariant culture, round-trip doubles, <c>true</c>/<c>false</c>, empty when null.</summary>
    /// <exception cref="InvalidOperationException">The statistic is not in the levels CSV.</exception>
    public string Field(LevelRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        var value = (PerLevel ?? throw new InvalidOperationException($"'{Name}' is not in the levels CSV."))(row);
        return value switch
        {
            null => "",
            bool b => b ? "true" : "false",
            double d => d.ToString("R", CultureInfo.InvariantCulture),
            IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString() ?? "",
        };
    }
}
