using Dashboard.Web.Scenarios;
using Microsoft.AspNetCore.Http.HttpResults;

namespace Dashboard.Web.Api;

/// <summary><c>GET /api/presets</c>: the presets (docs/web.md, "Presets") in the presets folder, with what the UI needs to queue them.</summary>
public static class PresetsApi
{
    /// <summary>Maps <c>/api/presets</c>.</summary>
    public static IEndpointRouteBuilder MapPresetsApi(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/presets", List).WithTags("Presets").WithName("ListPresets")
            .WithSummary("Every preset file: title, source, quick or full, estimated duration, its pair, whether it can be queued now and why not.");
        return app;
    }

    private static Ok<PresetResource[]> List(ScenarioPresets presets) =>
        TypedResults.Ok(presets.Load().Select(PresetResource.From).ToArray());
}

/// <summary>A preset file as <c>GET /api/presets</c> answers it.</summary>
/// <param name="FileName">File in the presets folder.</param>
/// <param name="Number">Preset number of docs/web.md, "Presets", or null.</param>
/// <param name="Title">Title (with the part).</param>
/// <param name="Source">Source document, or null.</param>
/// <param name="Part">Part of the preset, or null.</param>
/// <param name="IsQuick">Quick (true) or full version.</param>
/// <param name="EstimatedSeconds">Estimated wall time in seconds, or null.</param>
/// <param name="PairedFileName">The quick ↔ full pair, or null.</param>
/// <param name="RankingFromClients">Smallest concurrency level to rank from.</param>
/// <param name="CanQueue">True when the loader accepts it.</param>
/// <param name="Problem">Why the loader refuses it, or null.</param>
/// <param name="UnavailableVariants">Variants this build does not serve yet.</param>
/// <param name="Name">The scenario's name.</param>
public sealed record PresetResource(
    string FileName, int? Number, string Title, string? Source, string? Part, bool IsQuick, double? EstimatedSeconds,
    string? PairedFileName, int RankingFromClients, bool CanQueue, string? Problem, IReadOnlyList<string> UnavailableVariants, string? Name)
{
    /// <summary>The resource of <paramref name="preset"/>.</summary>
    public static PresetResource From(ScenarioPreset preset)
    {
        ArgumentNullException.ThrowIfNull(preset);
        return new PresetResource(preset.FileName, preset.Info?.Number, preset.Title, preset.Source, preset.Info?.Part, preset.IsQuick,
            preset.EstimatedDuration?.TotalSeconds, preset.PairedFileName, preset.Info?.RankingFromClients ?? 20, preset.CanQueue, preset.Problem,
            preset.UnavailableVariants, preset.Document?.Name);
    }
}
