using System.Diagnostics;
using System.Globalization;
using System.Text;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Data.Samples;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

// Measures (does not assert) how fast the raw-samples CSV of one run streams out of SQLite
// (ResultsCsv.WriteSamplesAsync, what GET /api/runs/{id}/samples.csv runs) and how much memory it holds meanwhile.
// Usage: ExportBench [--samples N] [--levels N] [--iterations N] [--file]   (--file: write a real CSV file, else discard)
var samples = Option("--samples", 1_000_000);
var levelCount = Option("--levels", 64);
var iterations = Option("--iterations", 5);
var toFile = args.Contains("--file");
var directory = Path.Combine(Path.GetTempPath(), "export-bench-" + Guid.NewGuid().ToString("N"));
var path = Path.Combine(directory, "results.db");

try
{
    var seed = Stopwatch.StartNew();
    var levels = SeedRun(path, samples, levelCount);
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"seeded {samples:N0} samples over {levelCount} levels in {seed.Elapsed.TotalSeconds:0.0} s ({new FileInfo(path).Length / 1e6:0} MB); load average {File.ReadAllText("/proc/loadavg").Split(' ')[0]}"));

    var baselineLive = GC.GetTotalMemory(forceFullCollection: true);
    var times = new List<double>();
    for (var n = 0; n < iterations; n++)
    {
        var csvPath = Path.Combine(directory, "samples.csv");
        await using var output = toFile ? new StreamWriter(csvPath, false, new UTF8Encoding(false), 64 * 1024) : null;
        var sink = new CountingSink(output);
        var allocated = GC.GetTotalAllocatedBytes(precise: true);
        var gen0 = GC.CollectionCount(0);
        var stopwatch = Stopwatch.StartNew();
        var rows = await ResultsCsv.WriteSamplesAsync(sink, path, levels, CancellationToken.None);
        if (output is not null)
        {
            await output.FlushAsync();
        }

        stopwatch.Stop();
        allocated = GC.GetTotalAllocatedBytes(precise: true) - allocated;
        times.Add(stopwatch.Elapsed.TotalSeconds);
        var cold = n == 0 ? " (cold: JIT)" : "";
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  iteration {n + 1}: {rows:N0} rows, {sink.Characters / 1e6:0.0} M characters in {stopwatch.Elapsed.TotalSeconds:0.00} s ({rows / stopwatch.Elapsed.TotalSeconds / 1e6:0.00} M rows/s); allocated {allocated / 1e6:0.0} MB ({(double)allocated / rows:0} B/row), {GC.CollectionCount(0) - gen0} gen0 GCs, largest heap seen {(sink.PeakHeap - baselineLive) / 1e6:0.0} MB above the start{cold}"));
    }

    var warm = times.Skip(1).Order().ToList();
    var where = toFile ? "to a file" : "discarded";
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"samples CSV: median {samples / warm[warm.Count / 2] / 1e6:0.00} M rows/s over {warm.Count} warm iterations ({where}); peak working set of the process {PeakWorkingSetMb():0} MB"));
    return 0;
}
finally
{
    SqliteConnection.ClearAllPools();
    if (Directory.Exists(directory))
    {
        Directory.Delete(directory, recursive: true);
    }
}

int Option(string name, int fallback)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? int.Parse(args[index + 1], CultureInfo.InvariantCulture) : fallback;
}

static double PeakWorkingSetMb() =>
    File.ReadLines("/proc/self/status").Where(l => l.StartsWith("VmHWM:", StringComparison.Ordinal))
        .Select(l => double.Parse(l.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) / 1024).Single();

static List<LevelEntity> SeedRun(string path, int samples, int levels)
{
    using var db = ResultsDatabase.Open(path);
    var start = DateTime.UtcNow.AddHours(-2);
    var run = new RunEntity { ScenarioName = "export bench", ScenarioJson = "{}", Status = RunStatus.Completed, CreatedUtc = start };
    db.Runs.Add(run);
    db.SaveChanges();
    var random = new Random(1);
    var perLevel = samples / levels;
    using var store = new SampleStore(path);
    var buffer = new Sample[perLevel];
    for (var l = 0; l < levels; l++)
    {
        var clients = 1 + (l % 16 * 20);
        var level = new LevelEntity
        {
            RunId = run.Id, Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Repetition = l / 16, Clients = clients,
            StartedUtc = start, EndedUtc = start.AddSeconds(29), Requests = perLevel,
        };
        db.Levels.Add(level);
        db.SaveChanges();
        for (var s = 0; s < perLevel; s++)
        {
            buffer[s] = new Sample(s % clients, s * 29L, 500 + random.Next(20_000), SampleOutcome.Success, s < clients, 112, 175);
        }

        store.Append(level.Id, buffer);
    }

    return db.Levels.AsNoTracking().Where(l => l.RunId == run.Id).OrderBy(l => l.Id).ToList();
}

/// <summary>Counts what is written and passes it on to a file, if any; notes the largest managed heap seen (no forced GC).</summary>
internal sealed class CountingSink(TextWriter? next) : TextWriter
{
    public override Encoding Encoding => Encoding.UTF8;

    public long Characters { get; private set; }

    public long PeakHeap { get; private set; }

    public override void Write(char value)
    {
        Characters++;
        next?.Write(value);
    }

    public override async Task WriteAsync(ReadOnlyMemory<char> buffer, CancellationToken cancellationToken = default)
    {
        Characters += buffer.Length;
        PeakHeap = Math.Max(PeakHeap, GC.GetTotalMemory(forceFullCollection: false));
        if (next is not null)
        {
            await next.WriteAsync(buffer, cancellationToken);
        }
    }
}
