using System.Globalization;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Microsoft.Data.Sqlite;

namespace Dashboard.Web.Api;

/// <summary>CSV exports of a run (invariant culture, one header line), streamed from SQLite.</summary>
public static class CsvExport
{
    /// <summary>Header of the per-level CSV: DESIGN.md §4's columns, then the runner's extra ones.</summary>
    public const string LevelsHeader =
        "variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,repetition,generator_cpu_percent";

    /// <summary>Header of the raw-sample CSV; times in µs since the level started.</summary>
    public const string SamplesHeader =
        "level_id,variant,client,payload,level,repetition,client_index,start_offset_us,latency_us,outcome,is_warmup";

    /// <summary>Writes one line per level.</summary>
    public static async Task WriteLevelsAsync(TextWriter writer, IEnumerable<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(levels);
        await writer.WriteLineAsync(LevelsHeader.AsMemory(), cancellationToken);
        foreach (var l in levels)
        {
            await writer.WriteLineAsync(string.Join(',',
                Field(l.Variant), Field(l.Client), Field(l.Payload), Number(l.Clients), Number(l.Requests), Number(l.Errors),
                Number(l.ThroughputRps), Number(l.MeanMs), Number(l.P50Ms), Number(l.P90Ms), Number(l.P99Ms), Number(l.P999Ms), Number(l.MaxMs),
                Number(l.Repetition), l.GeneratorCpuPercent is { } cpu ? Number(cpu) : "").AsMemory(), cancellationToken);
        }
    }

    /// <summary>
    /// Streams every raw sample of <paramref name="levels"/> (warm-up included, flagged) from the database at
    /// <paramref name="databasePath"/>, level by level through each level's rowid range; returns the rows written.
    /// </summary>
    public static async Task<long> WriteSamplesAsync(TextWriter writer, string databasePath, IEnumerable<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(levels);
        await writer.WriteLineAsync(SamplesHeader.AsMemory(), cancellationToken);
        await using var connection = new SqliteConnection(new SqliteConnectionStringBuilder(ResultsDatabase.ConnectionString(databasePath))
        {
            Mode = SqliteOpenMode.ReadOnly,
        }.ToString());
        await connection.OpenAsync(cancellationToken);
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT "ClientIndex", "StartOffsetUs", "LatencyUs", "Outcome", "IsWarmup" FROM "Samples"
            WHERE "Id" BETWEEN $first AND $last AND "LevelId" = $level ORDER BY "Id"
            """;
        var first = command.Parameters.Add("$first", SqliteType.Integer);
        var last = command.Parameters.Add("$last", SqliteType.Integer);
        var level = command.Parameters.Add("$level", SqliteType.Integer);
        long rows = 0;
        foreach (var l in levels)
        {
            if (l.FirstSampleId is not { } firstId || l.LastSampleId is not { } lastId)
            {
                continue;
            }

            first.Value = firstId;
            last.Value = lastId;
            level.Value = l.Id;
            var prefix = string.Join(',', Number(l.Id), Field(l.Variant), Field(l.Client), Field(l.Payload), Number(l.Clients), Number(l.Repetition)) + ",";
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                var outcome = (SampleOutcome)reader.GetByte(3);
                await writer.WriteLineAsync(string.Concat(prefix,
                    Number(reader.GetInt32(0)), ",", Number(reader.GetInt64(1)), ",", Number(reader.GetInt64(2)), ",",
                    outcome.ToString(), ",", reader.GetBoolean(4) ? "true" : "false").AsMemory(), cancellationToken);
                rows++;
            }
        }

        return rows;
    }

    private static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Number(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    private static string Field(string value) =>
        value.AsSpan().IndexOfAny(",\"\n\r") < 0 ? value : "\"" + value.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
