using System.Globalization;
using CsvHelper;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Data.Statistics;

namespace Dashboard.Data.Export;

/// <summary>
/// The levels CSV, one format for the runner's <c>--levels-csv</c> and <c>GET /api/runs/{id}/levels.csv</c> (README.md,
/// "Runner command line"): one row per stored level (per repetition), one column per declaration of
/// <see cref="LevelStatistics.Columns"/> in that order (<see cref="LevelStatistics.Header"/>). RFC 4180 (CsvHelper),
/// invariant culture, <c>\n</c> line ends, empty field = no value (a level where nothing succeeded has no response times);
/// the intervals and CoVs are over the cell's complete repetitions.
/// </summary>
public static class LevelsCsv
{
    /// <summary>Writes the header and one row per level of <paramref name="levels"/>, in the order given, of <paramref name="run"/> (its topology and link rate; null: same-machine).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="writer"/> or <paramref name="levels"/> is null.</exception>
    public static void Write(TextWriter writer, IEnumerable<LevelEntity> levels, RunEntity? run)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(levels);
        var list = levels as IReadOnlyList<LevelEntity> ?? [.. levels];
        var topology = run?.Topology ?? "same-machine";
        // Intervals and CoV over the complete repetitions only; a level with nothing but partial repetitions has none.
        var complete = LevelAggregation.Aggregate(list).ToDictionary(a => (a.Variant, a.Client, a.Payload, a.Clients));
        using var csv = new CsvWriter(writer, new CsvHelper.Configuration.CsvConfiguration(CultureInfo.InvariantCulture) { NewLine = "\n" }, leaveOpen: true);
        foreach (var statistic in LevelStatistics.Columns)
        {
            csv.WriteField(statistic.Column);
        }

        csv.NextRecord();
        foreach (var level in list)
        {
            var row = new LevelRow(level, topology, run?.LinkRateMbps, complete.GetValueOrDefault((level.Variant, level.Client, level.Payload, level.Clients)));
            foreach (var statistic in LevelStatistics.Columns)
            {
                csv.WriteField(statistic.Field(row));
            }

            csv.NextRecord();
        }

        csv.Flush();
    }

    /// <summary>
    /// As <see cref="Write"/>, then hands the text to <paramref name="writer"/> with one asynchronous write (an ASP.NET Core
    /// response body refuses synchronous writes); a run's levels are at most a few thousand rows.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="writer"/> or <paramref name="levels"/> is null.</exception>
    public static async Task WriteAsync(TextWriter writer, IEnumerable<LevelEntity> levels, RunEntity? run, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(writer);
        var text = new StringWriter(CultureInfo.InvariantCulture);
        Write(text, levels, run);
        await writer.WriteAsync(text.GetStringBuilder(), cancellationToken);
    }
}
