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

        await ResultsCsv.WriteAggregatesAsync(writer, LevelAggregation.Aggregate(stored), CancellationToken.None);

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
    public async Task WriteAggregatesAsync_ThreeLaunchesTwoHosts_ProtocolColumnsSayWindowLaunchesHostsAndPrecision()
    {
        var stored = new[]
        {
            Support.Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 0, 10, 2),
            Support.Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 1, 12, 4),
            Support.Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 2, 14, 6),
        };
        (stored[0].Launch, stored[0].HostProcessId, stored[0].WindowSeconds) = (1, 400, 3.0);
        (stored[1].Launch, stored[1].HostProcessId, stored[1].WindowSeconds) = (2, 500, 3.5);
        (stored[2].Launch, stored[2].HostProcessId, stored[2].WindowSeconds) = (3, 500, 4.0);
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        var aggregates = LevelAggregation.Aggregate(stored);
        await ResultsCsv.WriteAggregatesAsync(writer, aggregates, CancellationToken.None);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var row = Row(lines[0].Split(','), lines[1]);
        Assert.Equal("3.5", row["window_s"]);
        Assert.Equal("3", row["launches"]);
        Assert.Equal("2", row["host_processes"]);
        var precision = double.Parse(row["throughput_precision"], CultureInfo.InvariantCulture);
        Assert.Equal(aggregates[0].ThroughputRps.RelativeHalfWidth95!.Value, precision, 1e-12);
        Assert.InRange(precision, 0.01, 1);
        Assert.Equal("", row["server_cpu_precision"]);
    }

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
