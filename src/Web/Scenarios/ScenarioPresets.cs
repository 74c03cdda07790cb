using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Scenarios;

/// <summary>A preset scenario file and what the loader made of it.</summary>
/// <param name="FileName">The file's name, e.g. <c>smoke.json</c>.</param>
/// <param name="Json">The file's text.</param>
/// <param name="Scenario">The parsed document, or null when the loader refused it.</param>
/// <param name="Problem">Why the loader refused it (field named), or null.</param>
public sealed record ScenarioPreset(string FileName, string Json, ScenarioDocument? Scenario, string? Problem);

/// <summary>The preset scenarios: every <c>*.json</c> of the presets folder (<c>examples/</c>), read on each call.</summary>
public sealed class ScenarioPresets(IOptions<DashboardOptions> options)
{
    /// <summary>The presets, by file name; a file the loader refuses is listed with its problem.</summary>
    public IReadOnlyList<ScenarioPreset> Load()
    {
        var folder = options.Value.PresetsFolderPath;
        if (!Directory.Exists(folder))
        {
            return [];
        }

        return [.. Directory.EnumerateFiles(folder, "*.json").Order(StringComparer.Ordinal).Select(Read)];
    }

    private static ScenarioPreset Read(string path)
    {
        var json = File.ReadAllText(path);
        try
        {
            return new ScenarioPreset(Path.GetFileName(path), json, ScenarioLoader.Parse(json), null);
        }
        catch (ScenarioException e)
        {
            return new ScenarioPreset(Path.GetFileName(path), json, null, e.Message);
        }
    }
}
