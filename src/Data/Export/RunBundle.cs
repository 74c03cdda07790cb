using System.Globalization;
using System.IO.Compression;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Queries;
using Dashboard.Data.Samples;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Export;

/// <summary>
/// A run's result bundle (issue #36; docs/web.md, "Result bundles"): one ZIP file with everything another dashboard needs
/// to show the run, re-run it and compare with it: <c>manifest.json</c> (format, the exporting product's version and
/// commit, the run's record, where it came from, the command that reproduces it), <c>scenario.json</c>,
/// <c>environment.json</c>, <c>levels.json</c> (every stored level, one per repetition, all columns),
/// <c>samples.jsonl</c> (every raw sample, warm-up included, one JSON array per line), <c>resources.json</c> (the
/// over-time readings) and, for readers, <c>levels.csv</c>. Written with System.IO.Compression and System.Text.Json.
/// </summary>
public static class RunBundle
{
    /// <summary>The bundle format this build writes and reads: <c>dashboard-run-bundle/1</c>.</summary>
    public const string Format = "dashboard-run-bundle/1";

    /// <summary>The largest bundle entry read on import, 4 GiB uncompressed (a ZIP bomb is refused, not unpacked).</summary>
    public const long MaxEntryBytes = 4L << 30;

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        Converters = { new JsonStringEnumConverter() },
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    /// <summary>
    /// Writes run <paramref name="runId"/> of <paramref name="db"/> as a bundle to <paramref name="output"/> (a ZIP
    /// archive; the stream is left open). Samples are streamed level by level, so a run of millions of samples is not held
    /// in memory.
    /// </summary>
    /// <param name="db">The results database.</param>
    /// <param name="runId">The run to export.</param>
    /// <param name="output">Where the ZIP goes (writable; need not be seekable).</param>
    /// <param name="reproduce">The command that reproduces the run on another machine (docs/web.md), written into the manifest.</param>
    /// <param name="cancellationToken">Stops the export; the output is then incomplete.</param>
    /// <exception cref="KeyNotFoundException">There is no run <paramref name="runId"/>.</exception>
    public static async Task WriteAsync(ResultsDbContext db, int runId, Stream output, string reproduce, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(output);
        var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runId, cancellationToken)
            ?? throw new KeyNotFoundException($"no run {runId}");
        var levels = await db.Levels.AsNoTracking().Where(l => l.RunId == runId).OrderBy(l => l.Id).ToListAsync(cancellationToken);
        var resources = await db.ResourceSamples.AsNoTracking().Where(r => r.RunId == runId).OrderBy(r => r.Id).ToListAsync(cancellationToken);
        var manifest = new BundleManifest
        {
            Format = Format,
            ExportedUtc = DateTime.UtcNow,
            Product = ProductVersion(),
            Run = BundledRun.Of(run),
            Reproduce = reproduce,
            Imported = run.ImportedJson is null ? null : JsonSerializer.Deserialize<BundleOrigin>(run.ImportedJson, Json),
        };

        using var zip = new ZipArchive(output, ZipArchiveMode.Create, leaveOpen: true);
        await WriteJsonAsync(zip, "manifest.json", manifest, cancellationToken);
        await WriteTextAsync(zip, "scenario.json", run.ScenarioJson, cancellationToken);
        await WriteTextAsync(zip, "environment.json", run.EnvironmentJson ?? "{}", cancellationToken);
        await WriteJsonAsync(zip, "levels.json", levels, cancellationToken);
        await WriteJsonAsync(zip, "resources.json", resources, cancellationToken);
        await using (var samples = new StreamWriter(await zip.CreateEntry("samples.jsonl", CompressionLevel.Fastest).OpenAsync(cancellationToken)))
        {
            foreach (var level in levels)
            {
                await foreach (var s in db.SamplesOf(level).OrderBy(s => s.Id).AsAsyncEnumerable().WithCancellation(cancellationToken))
                {
                    // [level id, client, start µs, latency µs, outcome, warm-up 0/1, request bytes, response bytes, agent]
                    await samples.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                        $"[{level.Id},{s.ClientIndex},{s.StartOffsetUs},{s.LatencyUs},{(int)s.Outcome},{(s.IsWarmup ? 1 : 0)},{s.RequestBytes},{s.ResponseBytes},{(s.Agent is null ? "null" : JsonSerializer.Serialize(s.Agent))}]"));
                }
            }
        }

        await using (var csv = new StreamWriter(await zip.CreateEntry("levels.csv", CompressionLevel.Fastest).OpenAsync(cancellationToken)))
        {
            await LevelsCsv.WriteAsync(csv, levels, run, cancellationToken);
        }
    }

    /// <summary>
    /// Reads a bundle from <paramref name="input"/> into <paramref name="store"/> as a new run, marked imported
    /// (<see cref="RunEntity.ImportedJson"/>: where it came from, the exporting product and the original run id); its
    /// levels, samples and readings get new ids. The run keeps its status, times, scenario and environment.
    /// </summary>
    /// <returns>The new run.</returns>
    /// <exception cref="InvalidDataException">Not a bundle, another format version, an entry missing or malformed, or an entry above <see cref="MaxEntryBytes"/>; nothing is stored.</exception>
    public static async Task<RunEntity> ImportAsync(ResultsStore store, Stream input, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(input);
        using var zip = OpenArchive(input);
        var manifest = await ReadJsonAsync<BundleManifest>(zip, "manifest.json", cancellationToken);
        if (manifest.Format != Format)
        {
            throw new InvalidDataException($"manifest.json: format '{manifest.Format}' is not {Format}, the one this dashboard reads");
        }

        var bundled = manifest.Run ?? throw new InvalidDataException("manifest.json: no run");
        var scenario = await ReadTextAsync(zip, "scenario.json", cancellationToken);
        var environment = await ReadTextAsync(zip, "environment.json", cancellationToken);
        var levels = await ReadJsonAsync<List<LevelEntity>>(zip, "levels.json", cancellationToken);
        var resources = await ReadJsonAsync<List<ResourceSampleEntity>>(zip, "resources.json", cancellationToken);
        var samples = await ReadSamplesAsync(zip, levels, cancellationToken);

        using var db = store.Open();
        var run = bundled.ToEntity(scenario, environment);
        run.ImportedJson = JsonSerializer.Serialize(new BundleOrigin(manifest.Imported?.OriginalRunId ?? bundled.Id, manifest.ExportedUtc, manifest.Product, manifest.Reproduce), Json);
        db.Runs.Add(run);
        await db.SaveChangesAsync(cancellationToken);
        try
        {
            using var sampleStore = store.OpenSampleStore();
            foreach (var level in levels)
            {
                var own = samples.GetValueOrDefault(level.Id) ?? [];
                (level.Id, level.RunId, level.Run) = (0, run.Id, null);
                var newId = sampleStore.AppendLevel(level, [.. own.Where(s => s.Agent is null).Select(s => s.Sample)]);
                foreach (var byAgent in own.Where(s => s.Agent is not null).GroupBy(s => s.Agent!))
                {
                    sampleStore.AppendFromAgent(newId, [.. byAgent.Select(s => s.Sample)], byAgent.Key);
                }
            }

            foreach (var reading in resources)
            {
                (reading.Id, reading.RunId, reading.Run) = (0, run.Id, null);
            }

            db.ResourceSamples.AddRange(resources);
            await db.SaveChangesAsync(cancellationToken);
        }
        catch
        {
            // Nothing half-imported: the run goes with its levels, samples and readings (cascade).
            await db.Runs.Where(r => r.Id == run.Id).ExecuteDeleteAsync(CancellationToken.None);
            throw;
        }

        return run;
    }

    /// <summary>The product's version and commit, from the informational version of this assembly (<c>1.0.0+sha</c>).</summary>
    public static BundleProduct ProductVersion()
    {
        var informational = typeof(RunBundle).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "?";
        var plus = informational.IndexOf('+', StringComparison.Ordinal);
        return new BundleProduct(plus >= 0 ? informational[..plus] : informational, plus >= 0 ? informational[(plus + 1)..] : null);
    }

    private static ZipArchive OpenArchive(Stream input)
    {
        try
        {
            return new ZipArchive(input, ZipArchiveMode.Read, leaveOpen: true);
        }
        catch (InvalidDataException e)
        {
            throw new InvalidDataException($"not a result bundle (a ZIP file with manifest.json): {e.Message}", e);
        }
    }

    private static ZipArchiveEntry Entry(ZipArchive zip, string name)
    {
        var entry = zip.GetEntry(name) ?? throw new InvalidDataException($"the bundle has no {name}");
        if (entry.Length > MaxEntryBytes)
        {
            throw new InvalidDataException($"{name} unpacks to {entry.Length} bytes, more than the {MaxEntryBytes} a bundle entry may");
        }

        return entry;
    }

    private static async Task<string> ReadTextAsync(ZipArchive zip, string name, CancellationToken cancellationToken)
    {
        using var reader = new StreamReader(await Entry(zip, name).OpenAsync(cancellationToken));
        return await reader.ReadToEndAsync(cancellationToken);
    }

    private static async Task<T> ReadJsonAsync<T>(ZipArchive zip, string name, CancellationToken cancellationToken)
    {
        await using var stream = await Entry(zip, name).OpenAsync(cancellationToken);
        try
        {
            return await JsonSerializer.DeserializeAsync<T>(stream, Json, cancellationToken) ?? throw new InvalidDataException($"{name} is null");
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{name}: {e.Message}", e);
        }
    }

    private static async Task<Dictionary<long, List<(Sample Sample, string? Agent)>>> ReadSamplesAsync(ZipArchive zip, List<LevelEntity> levels, CancellationToken cancellationToken)
    {
        var known = levels.Select(l => l.Id).ToHashSet();
        var byLevel = new Dictionary<long, List<(Sample, string?)>>();
        using var reader = new StreamReader(await Entry(zip, "samples.jsonl").OpenAsync(cancellationToken));
        var line = 0;
        while (await reader.ReadLineAsync(cancellationToken) is { } text)
        {
            line++;
            if (text.Length == 0)
            {
                continue;
            }

            try
            {
                using var row = JsonDocument.Parse(text);
                var a = row.RootElement;
                var levelId = a[0].GetInt64();
                if (!known.Contains(levelId))
                {
                    throw new InvalidDataException($"samples.jsonl line {line}: level {levelId} is not in levels.json");
                }

                var sample = new Sample(a[1].GetInt32(), a[2].GetInt64(), a[3].GetInt64(), (SampleOutcome)a[4].GetInt32(), a[5].GetInt32() == 1, a[6].GetInt32(), a[7].GetInt32());
                var agent = a[8].ValueKind == JsonValueKind.Null ? null : a[8].GetString();
                if (!byLevel.TryGetValue(levelId, out var list))
                {
                    byLevel[levelId] = list = [];
                }

                list.Add((sample, agent));
            }
            catch (Exception e) when (e is JsonException or InvalidOperationException or IndexOutOfRangeException or FormatException)
            {
                throw new InvalidDataException($"samples.jsonl line {line}: {e.Message}", e);
            }
        }

        return byLevel;
    }

    private static async Task WriteJsonAsync<T>(ZipArchive zip, string name, T value, CancellationToken cancellationToken)
    {
        await using var stream = await zip.CreateEntry(name, CompressionLevel.Fastest).OpenAsync(cancellationToken);
        await JsonSerializer.SerializeAsync(stream, value, Json, cancellationToken);
    }

    private static async Task WriteTextAsync(ZipArchive zip, string name, string text, CancellationToken cancellationToken)
    {
        await using var writer = new StreamWriter(await zip.CreateEntry(name, CompressionLevel.Fastest).OpenAsync(cancellationToken));
        await writer.WriteAsync(text.AsMemory(), cancellationToken);
    }
}

/// <summary>The product that wrote a bundle: its version and source commit (null when the build did not record one).</summary>
public sealed record BundleProduct(string Version, string? Commit);

/// <summary>Where an imported run came from (<see cref="RunEntity.ImportedJson"/>): the run's id on the exporting dashboard, when it was exported, by which product, and its reproduce command.</summary>
public sealed record BundleOrigin(int OriginalRunId, DateTime ExportedUtc, BundleProduct? Product, string? Reproduce);

/// <summary><c>manifest.json</c> of a bundle.</summary>
public sealed record BundleManifest
{
    /// <summary><see cref="RunBundle.Format"/>.</summary>
    public string Format { get; init; } = "";

    /// <summary>When the bundle was written (UTC).</summary>
    public DateTime ExportedUtc { get; init; }

    /// <summary>The exporting product's version and commit.</summary>
    public BundleProduct? Product { get; init; }

    /// <summary>The run's record on the exporting dashboard.</summary>
    public BundledRun? Run { get; init; }

    /// <summary>The command that reproduces the run (docs/web.md, "Result bundles").</summary>
    public string? Reproduce { get; init; }

    /// <summary>When the exported run was itself imported: where it came from first.</summary>
    public BundleOrigin? Imported { get; init; }
}

/// <summary>A run's record in a bundle (<see cref="RunEntity"/> without its collections).</summary>
public sealed record BundledRun(int Id, string ScenarioName, string? Name, string? Notes, RunStatus Status, DateTime CreatedUtc, DateTime? StartedUtc,
    DateTime? EndedUtc, string Topology, int? LinkRateMbps, int? OrderSeed, string? Error, int CompletedLevels, int TotalLevels)
{
    /// <summary>The record of <paramref name="run"/>.</summary>
    public static BundledRun Of(RunEntity run) => new(run.Id, run.ScenarioName, run.Name, run.Notes, run.Status, run.CreatedUtc, run.StartedUtc,
        run.EndedUtc, run.Topology, run.LinkRateMbps, run.OrderSeed, run.Error, run.CompletedLevels, run.TotalLevels);

    /// <summary>A new run row with this record, <paramref name="scenarioJson"/> and <paramref name="environmentJson"/>; a run that was still Running or Queued when exported is stored Interrupted (nothing will finish it here).</summary>
    public RunEntity ToEntity(string scenarioJson, string environmentJson) => new()
    {
        ScenarioName = ScenarioName,
        Name = Name,
        Notes = Notes,
        ScenarioJson = scenarioJson,
        Status = Status is RunStatus.Running or RunStatus.Queued ? RunStatus.Interrupted : Status,
        CreatedUtc = CreatedUtc,
        StartedUtc = StartedUtc,
        EndedUtc = EndedUtc ?? (Status is RunStatus.Running or RunStatus.Queued ? StartedUtc ?? CreatedUtc : null),
        EnvironmentJson = environmentJson == "{}" ? null : environmentJson,
        Topology = Topology,
        LinkRateMbps = LinkRateMbps,
        OrderSeed = OrderSeed,
        Error = Error,
        CompletedLevels = CompletedLevels,
        TotalLevels = TotalLevels,
    };
}
