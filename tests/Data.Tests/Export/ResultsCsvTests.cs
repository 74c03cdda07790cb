using System.Globalization;
using System.Text;
using Dashboard.Data.Agents;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Measurement;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Export;

/// <summary>Measures the process's live managed heap, so it runs alone (no other test allocating meanwhile).</summary>
[CollectionDefinition(nameof(MemoryMeasurement), DisableParallelization = true)]
public sealed class MemoryMeasurement;

[Collection(nameof(MemoryMeasurement))]
public sealed class ResultsCsvTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task WriteSamplesAsync_MillionSamples_RowCountEqualsDatabaseAndLiveHeapStaysSmall()
    {
        const int Levels = 8;
        const int PerLevel = 131_072; // 1,048,576 samples
        int runId;
        List<LevelEntity> levels;
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            db.Runs.Add(run);
            levels = [.. Enumerable.Range(0, Levels).Select(i => TestData.Level(run, "AspNetHttpJson", (i + 1) * 10, "dotnet", "Int"))];
            db.Levels.AddRange(levels);
            await db.SaveChangesAsync();
            runId = run.Id;
            using var store = new SampleStore(_database.FilePath);
            var samples = new Sample[PerLevel];
            foreach (var level in levels)
            {
                for (var s = 0; s < PerLevel; s++)
                {
                    samples[s] = new Sample(s % 300, s * 100L, 500 + (s % 9000), (SampleOutcome)(s % 7), IsWarmup: s % 50 == 0, RequestBytes: 112, ResponseBytes: s % 11 == 0 ? -1 : 175);
                }

                store.Append(level.Id, samples);
            }
        }

        long stored;
        using (var db = _database.NewContext())
        {
            stored = (await db.CountSamplesAsync(runId)).Total;
            levels = await db.Levels.AsNoTracking().Where(l => l.RunId == runId).OrderBy(l => l.Id).ToListAsync();
        }

        var sink = new MeasuringSink();
        var rows = await ResultsCsv.WriteSamplesAsync(sink, _database.FilePath, levels, CancellationToken.None);

        Assert.Equal((long)Levels * PerLevel, stored);
        Assert.Equal(stored, rows);
        Assert.Equal(stored + 1, sink.Lines);
        Assert.StartsWith(ResultsCsv.SamplesHeader + "\n" + $"{levels[0].Id},AspNetHttpJson,dotnet,Int,10,0,0,0,500,Success,true,112,-1\n", sink.Head, StringComparison.Ordinal);

        // The CSV is ~70 M characters (~140 MB as .NET strings); what stays alive while it streams must not grow with it.
        var csvBytes = sink.Characters * sizeof(char);
        Assert.True(csvBytes > 100_000_000, $"CSV of {csvBytes:N0} bytes");
        Assert.True(sink.Measurements >= 10, $"{sink.Measurements} measurements");
        Assert.True(sink.PeakLiveGrowth < 8 * 1024 * 1024,
            $"live managed heap grew by {sink.PeakLiveGrowth:N0} bytes while writing {csvBytes:N0} bytes of CSV");
    }

    [Fact]
    public async Task WriteLevelsAsync_ThreeRepetitionsAndOne_IntervalsOnlyWithRepetitions()
    {
        LevelEntity[] levels =
        [
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 0, 10, 2),
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 1, 12, 4),
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 2, 14, 6),
            Support.Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 1, 0, 500, 1),
        ];
        levels[0].MeanRequestBytes = 100.5;
        levels[0].WrongReplyErrors = 2;
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await ResultsCsv.WriteLevelsAsync(writer, levels, CancellationToken.None);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].Split(',');
        Assert.Equal(ResultsCsv.LevelsHeader, lines[0]);
        Assert.StartsWith("variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,repetition,generator_cpu_percent", lines[0], StringComparison.Ordinal);
        Assert.Equal(5, lines.Length);
        var first = Row(header, lines[1]);
        // Log-scale interval (docs/statistics.md): mean · e^(∓t·SE/mean), t(0.975, 2) = 4.302653, SE = 2/√3.
        var se = 2 / Math.Sqrt(3);
        Assert.Equal("IceSsl", first["variant"]);
        Assert.Equal("10", first["throughput_rps"]);
        Assert.Equal("Transport", first["security_mode"]);
        Assert.Equal("Large", first["payload_class"]);
        Assert.Equal("2", first["wrong_replies"]);
        Assert.Equal("100.5", first["mean_request_bytes"]);
        Assert.Equal("", first["mean_response_bytes"]);
        Assert.Equal(12 * Math.Exp(-4.302653 * se / 12), double.Parse(first["throughput_ci95_low"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal(12 * Math.Exp(4.302653 * se / 12), double.Parse(first["throughput_ci95_high"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal(4 * Math.Exp(-4.302653 * se / 4), double.Parse(first["mean_ms_ci95_low"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal(4 * Math.Exp(4.302653 * se / 4), double.Parse(first["mean_ms_ci95_high"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal("true", first["complete"]);
        Assert.Equal(2.0 / 12, double.Parse(first["throughput_cov"], CultureInfo.InvariantCulture), 1e-12);
        Assert.Equal(first["throughput_ci95_low"], Row(header, lines[3])["throughput_ci95_low"]);

        var single = Row(header, lines[4]);
        Assert.Equal("AspNetH2BinXml", single["variant"]);
        Assert.Equal("None", single["security_mode"]);
        Assert.Equal("Small", single["payload_class"]);
        Assert.Equal("", single["throughput_ci95_low"]);
        Assert.Equal("", single["mean_ms_ci95_high"]);
    }

    [Fact]
    public async Task WriteAggregatesAsync_ThreeRepetitions_OneRowWithMeansIntervalsAndSums()
    {
        var stored = new[]
        {
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 0, 10, 2),
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 1, 12, 4),
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 2, 14, 6),
        };
        stored[1].Errors = stored[1].TimeoutErrors = 4;
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await ResultsCsv.WriteAggregatesAsync(writer, ResultsQueries.Aggregate(stored), CancellationToken.None);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        var row = Row(lines[0].Split(','), lines[1]);
        Assert.Equal("3", row["repetitions"]);
        Assert.Equal("3000", row["requests"]);
        Assert.Equal("4", row["errors"]);
        Assert.Equal("4", row["timeout_errors"]);
        Assert.Equal("12", row["throughput_rps"]);
        Assert.Equal("4", row["mean_ms"]);
        Assert.Equal("8", row["p90_ms"]);
        Assert.Equal("true", row["is_secure"]);
        Assert.Equal(12 * Math.Exp(4.302653 * 2 / Math.Sqrt(3) / 12), double.Parse(row["throughput_ci95_high"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal("true", row["complete"]);
        Assert.Equal("0", row["partial_repetitions"]);
    }

    [Fact]
    public async Task WriteLevelsAsync_AgentLevel_SplitAndSkewInTheLastTwoColumnsEmptyOtherwise()
    {
        var agents = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 30, 0, 900, 2);
        agents.AgentsJson = LevelAgentShare.ToJson([new("agent-1", 10, 300, 0, 40, 0.1, 0.05, 0, null), new("agent-2", 10, 300, 0, 41, 0.1, 0.05, 0.2, null), new("agent-3", 10, 300, 0, 42, 0.1, 0.05, 0.4, null)]);
        agents.StartSkewBoundMs = 1.25;
        var own = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 1, 0, 500, 1);
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await ResultsCsv.WriteLevelsAsync(writer, [agents, own], CancellationToken.None);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        // The columns before stay where they were (a stable interface); the agents' columns come last.
        Assert.Equal(
            "variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,repetition,generator_cpu_percent," +
            "wrong_replies,mean_request_bytes,mean_response_bytes,security_mode,payload_class,throughput_ci95_low,throughput_ci95_high,mean_ms_ci95_low,mean_ms_ci95_high," +
            "complete,partial_reason,steady_state_reached,steady_state_warmup_s,steady_state_cov,server_cpu_percent,bound,generator_cpu_us_per_request," +
            "throughput_cov,mean_ms_cov,generator_cores_busy_percent,agents,start_skew_bound_ms", lines[0]);
        var header = lines[0].Split(',');
        Assert.EndsWith(",\"agent-1 10, agent-2 10, agent-3 10\",1.25", lines[1], StringComparison.Ordinal);
        var first = Row(header, RemoveQuoted(lines[1]));
        Assert.Equal("30", first["level"]);
        Assert.Equal("1.25", first["start_skew_bound_ms"]);
        var second = Row(header, lines[2]);
        Assert.Equal("", second["agents"]);
        Assert.Equal("", second["start_skew_bound_ms"]);
    }

    [Fact]
    public async Task WriteLevelsAsync_FieldWithComma_Quoted()
    {
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await ResultsCsv.WriteLevelsAsync(writer, [Support.Levels.Stored("a,\"b\"", "dotnet", "Int", 1, 0, 1, 1)], CancellationToken.None);

        Assert.StartsWith("\"a,\"\"b\"\"\",dotnet,Int,1,", writer.ToString().Split('\n')[1], StringComparison.Ordinal);
    }

    // The row with its one quoted field (the agents' split, which holds commas) emptied, so it splits on commas.
    private static string RemoveQuoted(string line) => System.Text.RegularExpressions.Regex.Replace(line, "\"[^\"]*\"", "");

    private static Dictionary<string, string> Row(string[] header, string line)
    {
        var fields = line.Split(',');
        Assert.Equal(header.Length, fields.Length);
        return header.Zip(fields).ToDictionary(p => p.First, p => p.Second);
    }

    /// <summary>Discards what is written, counting lines and characters; every 64 chunks, measures the live managed heap.</summary>
    private sealed class MeasuringSink : TextWriter
    {
        private readonly long _baseline = GC.GetTotalMemory(forceFullCollection: true);
        private readonly StringBuilder _head = new();
        private int _chunks;

        public override Encoding Encoding => Encoding.UTF8;

        public long Lines { get; private set; }

        public long Characters { get; private set; }

        public int Measurements { get; private set; }

        public long PeakLiveGrowth { get; private set; }

        public string Head => _head.ToString();

        public override void Write(char value) => Take(new ReadOnlySpan<char>(in value));

        public override Task WriteAsync(ReadOnlyMemory<char> buffer, CancellationToken cancellationToken = default)
        {
            Take(buffer.Span);
            return Task.CompletedTask;
        }

        private void Take(ReadOnlySpan<char> chars)
        {
            Lines += chars.Count('\n');
            Characters += chars.Length;
            if (_head.Length < 4096)
            {
                _head.Append(chars[..Math.Min(chars.Length, 4096)]);
            }

            if (++_chunks % 64 == 0)
            {
                Measurements++;
                PeakLiveGrowth = Math.Max(PeakLiveGrowth, GC.GetTotalMemory(forceFullCollection: true) - _baseline);
            }
        }
    }
}
