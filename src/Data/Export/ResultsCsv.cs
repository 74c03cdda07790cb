using System.Globalization;
using CsvHelper;
using CsvHelper.Configuration;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using System.Data.Common;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace Dashboard.Data.Export;

/// <summary>
/// CSV exports of a run (RFC 4180, invariant culture, one header line, <c>\n</c> line ends, empty field = no value):
/// per-level aggregates over repetitions (CsvHelper) and the raw samples streamed from the database (a hand-made
/// buffer: millions of rows in bounded memory). The per-level rows: <see cref="LevelsCsv"/>.
/// Units are in the column names (<c>_ms</c>, <c>_us</c>, <c>_rps</c>, <c>_bytes</c>, <c>_percent</c>).
/// </summary>
public static class ResultsCsv
{
    /// <summary>
    /// Header of the aggregate CSV, one row per (variant, client, payload, level) over its repetitions
    /// (<see cref="LevelAggregate"/>): means, 95 % intervals (log scale; empty below 3 repetitions), sums of requests
    /// and errors by kind; then <c>complete</c> (false when the row holds a partial repetition), <c>partial_repetitions</c>,
    /// the coefficients of variation (fractions, empty below 2 repetitions) of throughput, mean and median response time,
    /// <c>steady_state_reached</c>, <c>steady_state_warmup_s</c>, <c>server_cpu_percent</c>, <c>bound</c> and
    /// <c>generator_cpu_us_per_request</c>; then the window CPU figures (docs/statistics.md): server CPU µs per request
    /// with its interval, the generator's interval, machine busy %, steal %, others' cores (means over the repetitions
    /// that measured them) and <c>disturbed_repetitions</c>; last the protocol (docs/statistics.md, "The protocol",
    /// "Launches" and "Precision target"): <c>window_s</c> (the mean measured window, s), <c>launches</c> (distinct launches
    /// behind the row), <c>host_processes</c> (distinct service host processes that served them: 1 = the launches shared
    /// one host), <c>throughput_precision</c> and <c>server_cpu_precision</c> (relative half-widths of the 95 % intervals,
    /// fractions; empty below 3 repetitions).
    /// </summary>
    public const string AggregatesHeader =
        "variant,client,payload,level,repetitions,requests,errors,throughput_rps,throughput_ci95_low,throughput_ci95_high," +
        "mean_ms,mean_ms_ci95_low,mean_ms_ci95_high,p50_ms,p90_ms,p99_ms,p999_ms,max_ms," +
        "timeout_errors,fault_errors,connection_errors,authentication_errors,wrong_reply_errors,other_errors," +
        "mean_request_bytes,mean_response_bytes,generator_cpu_percent,security_mode,is_secure,payload_class," +
        "complete,partial_repetitions,throughput_cov,mean_ms_cov,p50_ms_cov,steady_state_reached,steady_state_warmup_s,server_cpu_percent,bound," +
        "generator_cpu_us_per_request,server_cpu_us_per_request,server_cpu_us_per_request_ci95_low,server_cpu_us_per_request_ci95_high," +
        "generator_cpu_us_per_request_ci95_low,generator_cpu_us_per_request_ci95_high,machine_busy_percent,steal_percent,others_cpu_cores,disturbed_repetitions," +
        "window_s,launches,host_processes,throughput_precision,server_cpu_precision";

    // window_s, launches, host_processes, throughput_precision, server_cpu_precision of one aggregate (AggregatesHeader).
    private static string[] ProtocolFields(LevelAggregate a)
    {
        var windows = a.Levels.Where(l => l.WindowSeconds is not null).Select(l => l.WindowSeconds!.Value).ToList();
        var launches = a.Levels.Select(l => l.Launch ?? 1).Distinct().Count();
        var hosts = a.Levels.Where(l => l.HostProcessId is not null).Select(l => l.HostProcessId).Distinct().Count();
        var precision = LevelPrecision.Of(a);
        return
        [
            windows.Count == 0 ? "" : Number(windows.Average()), a.Levels.Count == 0 ? "" : Number(launches),
            hosts == 0 ? "" : Number(hosts), Number(precision.Throughput), Number(precision.ServerCpu),
        ];
    }

    /// <summary>Header of the raw-sample CSV; times in µs since the level started, bytes −1 when the client could not count them.</summary>
    public const string SamplesHeader =
        "level_id,variant,client,payload,level,repetition,client_index,start_offset_us,latency_us,outcome,is_warmup,request_bytes,response_bytes";

    /// <summary>Writes <see cref="AggregatesHeader"/> and one row per aggregate, in the order given (CsvHelper; one asynchronous write).</summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static async Task WriteAggregatesAsync(TextWriter writer, IEnumerable<LevelAggregate> aggregates, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(aggregates);
        var text = new StringWriter(CultureInfo.InvariantCulture);
        using (var csv = new CsvWriter(text, new CsvConfiguration(CultureInfo.InvariantCulture) { NewLine = "\n" }))
        {
            foreach (var column in AggregatesHeader.Split(','))
            {
                csv.WriteField(column);
            }

            csv.NextRecord();
            foreach (var a in aggregates)
            {
                string[] fields =
                [
                    a.Variant, a.Client, a.Payload, Number(a.Clients), Number(a.Repetitions), Number(a.Requests), Number(a.Errors),
                    Number(a.ThroughputRps.Mean), Low(a.ThroughputRps), High(a.ThroughputRps),
                    a.MeanMs.N == 0 ? "" : Number(a.MeanMs.Mean), Low(a.MeanMs), High(a.MeanMs),
                    Number(a.P50Ms), Number(a.P90Ms), Number(a.P99Ms), Number(a.P999Ms), Number(a.MaxMs),
                    Number(a.TimeoutErrors), Number(a.FaultErrors), Number(a.ConnectionErrors), Number(a.AuthenticationErrors),
                    Number(a.WrongReplyErrors), Number(a.OtherErrors),
                    Number(a.MeanRequestBytes), Number(a.MeanResponseBytes), Number(a.GeneratorCpuPercent),
                    a.SecurityMode, Bool(a.IsSecure), a.PayloadClass,
                    Bool(a.Complete), Number(a.PartialRepetitions), Number(a.ThroughputRps.CoefficientOfVariation), Number(a.MeanMs.CoefficientOfVariation),
                    Number(a.P50.CoefficientOfVariation), Bool(a.SteadyStateReached), Number(a.SteadyStateWarmupSeconds), Number(a.ServerCpuPercent),
                    a.Bound?.ToString() ?? "", Number(a.GeneratorCpuMicrosPerRequest),
                    Number(a.ServerCpuPerRequest?.Mean), a.ServerCpuPerRequest is { } sc ? Low(sc) : "", a.ServerCpuPerRequest is { } sh ? High(sh) : "",
                    a.GeneratorCpuPerRequest is { } gc ? Low(gc) : "", a.GeneratorCpuPerRequest is { } gh ? High(gh) : "",
                    Number(a.MachineBusyPercent), Number(a.StealPercent), Number(a.OthersCpuCores), Number(a.DisturbedRepetitions),
                    .. ProtocolFields(a),
                ];
                foreach (var field in fields)
                {
                    csv.WriteField(field);
                }

                csv.NextRecord();
            }
        }

        await writer.WriteAsync(text.GetStringBuilder(), cancellationToken);
    }

    /// <summary>
    /// Streams every raw sample of <paramref name="levels"/> (warm-up included, flagged) from the SQLite database at
    /// <paramref name="databasePath"/>; see <see cref="WriteSamplesAsync(TextWriter, ResultsStore, IEnumerable{LevelEntity}, CancellationToken)"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="SqliteException">The database cannot be read.</exception>
    public static Task<long> WriteSamplesAsync(TextWriter writer, string databasePath, IEnumerable<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(databasePath);
        return WriteSamplesAsync(writer, ResultsStore.Sqlite(databasePath), levels, cancellationToken);
    }

    /// <summary>
    /// Streams every raw sample of <paramref name="levels"/> (warm-up included, flagged) from <paramref name="store"/>
    /// (SQLite or PostgreSQL), level by level through each level's id range, in id order; returns the
    /// rows written. Memory stays bounded whatever the row count: rows are formatted into one reused buffer and
    /// handed to <paramref name="writer"/> in chunks of about 32 K characters with asynchronous writes (so it also
    /// works on an ASP.NET Core response body, which refuses synchronous writes).
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="System.Data.Common.DbException">The database cannot be read.</exception>
    public static async Task<long> WriteSamplesAsync(TextWriter writer, ResultsStore store, IEnumerable<LevelEntity> levels, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(levels);
        await writer.WriteAsync((SamplesHeader + "\n").AsMemory(), cancellationToken);
        await using DbConnection connection = store.Provider == StorageProvider.Sqlite
            ? new SqliteConnection(new SqliteConnectionStringBuilder(ResultsDatabase.ConnectionString(store.Target)) { Mode = SqliteOpenMode.ReadOnly }.ToString())
            : new NpgsqlConnection(store.Target);
        await connection.OpenAsync(cancellationToken);
        await using var command = connection.CreateCommand();
        command.CommandText = """
            SELECT "ClientIndex", "StartOffsetUs", "LatencyUs", "Outcome", "IsWarmup", "RequestBytes", "ResponseBytes" FROM "Samples"
            WHERE "Id" BETWEEN @first AND @last AND "LevelId" = @level ORDER BY "Id"
            """;
        var first = Parameter(command, "first");
        var last = Parameter(command, "last");
        var level = Parameter(command, "level");
        var buffer = new RowBuffer(32 * 1024);
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
                buffer.Append(prefix);
                buffer.Append(reader.GetInt32(0));
                buffer.Append(',');
                buffer.Append(reader.GetInt64(1));
                buffer.Append(',');
                buffer.Append(reader.GetInt64(2));
                buffer.Append(',');
                buffer.Append(OutcomeName((byte)reader.GetInt16(3)));
                buffer.Append(reader.GetBoolean(4) ? ",true," : ",false,");
                buffer.Append(reader.GetInt32(5));
                buffer.Append(',');
                buffer.Append(reader.GetInt32(6));
                buffer.Append('\n');
                rows++;
                if (buffer.IsNearlyFull)
                {
                    await writer.WriteAsync(buffer.Written, cancellationToken);
                    buffer.Clear();
                }
            }
        }

        await writer.WriteAsync(buffer.Written, cancellationToken);
        return rows;
    }

    private static DbParameter Parameter(DbCommand command, string name)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.DbType = System.Data.DbType.Int64;
        command.Parameters.Add(parameter);
        return parameter;
    }

    private static readonly string[] OutcomeNames =
        [.. Enumerable.Range(0, 256).Select(i => Enum.IsDefined((SampleOutcome)i) ? ((SampleOutcome)i).ToString() : i.ToString(CultureInfo.InvariantCulture))];

    private static string OutcomeName(byte outcome) => OutcomeNames[outcome];

    private static string Low(Estimate e) => e.HasInterval ? Number(e.Low95) : "";

    private static string High(Estimate e) => e.HasInterval ? Number(e.High95) : "";

    private static string Bool(bool value) => value ? "true" : "false";

    private static string Bool(bool? value) => value is { } v ? Bool(v) : "";

    private static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Number(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    private static string Number(double? value) => value is { } v ? Number(v) : "";

    private static string Field(string value) =>
        value.AsSpan().IndexOfAny(",\"\n\r") < 0 ? value : "\"" + value.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";

    /// <summary>A reused character buffer that rows are formatted into without allocating.</summary>
    private sealed class RowBuffer(int capacity)
    {
        // Room for the longest row: a prefix of at most a few hundred characters plus seven numbers.
        private const int Headroom = 1024;
        private readonly char[] _chars = new char[capacity + Headroom];
        private int _length;

        public bool IsNearlyFull => _length >= capacity;

        public ReadOnlyMemory<char> Written => _chars.AsMemory(0, _length);

        public void Clear() => _length = 0;

        public void Append(char c) => _chars[_length++] = c;

        public void Append(string s)
        {
            if (_length + s.Length > _chars.Length)
            {
                throw new InvalidOperationException($"A CSV row is longer than {Headroom} characters.");
            }

            s.CopyTo(0, _chars, _length, s.Length);
            _length += s.Length;
        }

        public void Append(long value)
        {
            if (!value.TryFormat(_chars.AsSpan(_length), out var written, default, CultureInfo.InvariantCulture))
            {
                throw new InvalidOperationException($"A CSV row is longer than {Headroom} characters.");
            }

            _length += written;
        }
    }
}
