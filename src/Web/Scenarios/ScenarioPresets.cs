using System.Text.Json;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Scenarios;

/// <summary>A preset scenario file and what the loader made of it.</summary>
/// <param name="FileName">The file's name, e.g. <c>smoke.json</c>.</param>
/// <param name="Json">The file's text.</param>
/// <param name="Scenario">The parsed and validated document, or null when the loader refused it.</param>
/// <param name="Problem">Why the loader refused it (field named), or null.</param>
public sealed record ScenarioPreset(string FileName, string Json, ScenarioDocument? Scenario, string? Problem)
{
    /// <summary>The document as the file says, parsed without validation (to show a refused preset at its fields); null when it is not valid JSON of that shape.</summary>
    public ScenarioDocument? Document { get; init; }

    /// <summary>What <see cref="PresetCatalogue"/> says about the file, or null for a file it does not know (a user's own).</summary>
    public PresetInfo? Info { get; init; }

    /// <summary>Title to show: the catalogue's title (with the part, if any) or else the scenario's name or the file name.</summary>
    public string Title => Info is { } i ? (i.Part is null ? i.Title : $"{i.Title} — {i.Part}") : Document?.Name is { Length: > 0 } name ? name : FileName;

    /// <summary>The source document (thesis section, paper), or null.</summary>
    public string? Source => Info?.Source;

    /// <summary>True for a quick version (catalogue, or "quick" in the file name of an unknown file).</summary>
    public bool IsQuick => Info?.IsQuick ?? FileName.Contains("quick", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// Wall time computed from the document with the default throughputs (<see cref="DurationEstimator"/>), or null when
    /// the file did not parse. Pages show a measured or calibrated figure instead where this dashboard has one.
    /// </summary>
    public TimeSpan? EstimatedDuration => Document is null ? null : DurationEstimator.Default.Estimate(Document).Duration;

    /// <summary>The paired quick ↔ full file, or null.</summary>
    public string? PairedFileName => Info?.PairedFileName;

    /// <summary>
    /// Variants of the document this build does not serve yet (e.g. the secure variants until issue #12 lands); the
    /// loader refuses the preset while any is listed. Empty when there are none or the document did not parse.
    /// </summary>
    public IReadOnlyList<string> UnavailableVariants =>
        [.. (Document?.Variants ?? []).Where(v => VariantCatalogue.TryGet(v, out var variant) && !variant.IsAvailable)];

    /// <summary>True when the preset can be queued as it is.</summary>
    public bool CanQueue => Scenario is not null;
}

/// <summary>One preset (one per source document) with its quick and full files (one per part), for "queue with one click".</summary>
/// <param name="Number">1–6.</param>
/// <param name="Title">Short title.</param>
/// <param name="Document">The source document.</param>
/// <param name="Source">Source document (title, author) and section.</param>
/// <param name="Measures">What it measures.</param>
/// <param name="RankingFromClients">The smallest concurrency level rankings should count.</param>
/// <param name="Quick">The quick files, one per part (queue them all).</param>
/// <param name="Full">The full files, one per part.</param>
public sealed record PresetGroup(int Number, string Title, SourceDocument Document, string Source, string Measures, int RankingFromClients,
    IReadOnlyList<ScenarioPreset> Quick, IReadOnlyList<ScenarioPreset> Full)
{
    /// <summary>Estimated wall time of every quick part, one after the other.</summary>
    public TimeSpan QuickDuration => Sum(Quick);

    /// <summary>Estimated wall time of every full part, one after the other.</summary>
    public TimeSpan FullDuration => Sum(Full);

    private static TimeSpan Sum(IReadOnlyList<ScenarioPreset> parts) =>
        parts.Aggregate(TimeSpan.Zero, (sum, p) => sum + (p.EstimatedDuration ?? TimeSpan.Zero));
}

/// <summary>The preset scenarios: every <c>*.json</c> of the presets folder (<c>examples/</c>), read on each call.</summary>
public sealed class ScenarioPresets(IOptions<DashboardOptions> options)
{
    /// <summary>The presets, by file name; a file the loader refuses is listed with its problem.</summary>
    public IReadOnlyList<ScenarioPreset> Load() => LoadFolder(options.Value.PresetsFolderPath);

    /// <summary>
    /// The numbered presets found in the presets folder, by number, each with its quick and full parts
    /// in catalogue order. A preset whose files are all missing is left out.
    /// </summary>
    public IReadOnlyList<PresetGroup> Groups() => GroupsOf(Load());

    /// <summary>Groups loaded presets by their catalogue number (files the catalogue does not number are left out).</summary>
    public static IReadOnlyList<PresetGroup> GroupsOf(IReadOnlyList<ScenarioPreset> presets)
    {
        ArgumentNullException.ThrowIfNull(presets);
        var order = PresetCatalogue.All.Select((p, i) => (p.FileName, i)).ToDictionary(x => x.FileName, x => x.i);
        return [.. presets
            .Where(p => p.Info?.Number is not null)
            .GroupBy(p => p.Info!.Number!.Value)
            .OrderBy(g => g.Key)
            .Select(g =>
            {
                var info = g.First().Info!;
                var parts = g.OrderBy(p => order[p.FileName]).ToList();
                return new PresetGroup(g.Key, info.Title, info.Document, info.Source, info.Measures, info.RankingFromClients,
                    [.. parts.Where(p => p.IsQuick)], [.. parts.Where(p => !p.IsQuick)]);
            })];
    }

    /// <summary>Every <c>*.json</c> of <paramref name="folder"/> in ordinal file-name order; empty when the folder does not exist.</summary>
    public static IReadOnlyList<ScenarioPreset> LoadFolder(string folder)
    {
        if (!Directory.Exists(folder))
        {
            return [];
        }

        return [.. Directory.EnumerateFiles(folder, "*.json").Order(StringComparer.Ordinal).Select(Read)];
    }

    private static ScenarioPreset Read(string path)
    {
        var json = File.ReadAllText(path);
        var fileName = Path.GetFileName(path);
        ScenarioDocument? document;
        try
        {
            document = JsonSerializer.Deserialize<ScenarioDocument>(json, ScenarioLoader.JsonOptions);
        }
        catch (JsonException)
        {
            document = null;
        }

        ScenarioPreset preset;
        try
        {
            preset = new ScenarioPreset(fileName, json, ScenarioLoader.Parse(json), null);
        }
        catch (ScenarioException e)
        {
            preset = new ScenarioPreset(fileName, json, null, e.Message);
        }

        return preset with { Document = document, Info = PresetCatalogue.Find(fileName) };
    }
}
