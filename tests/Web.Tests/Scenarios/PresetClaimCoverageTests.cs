using System.Text.Json;
using Dashboard.Data.Claims;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Scenarios;

namespace Dashboard.Web.Tests.Scenarios;

/// <summary>
/// Every measurable claim (src/Data/Claims/claims.json) names the presets whose runs decide it: each side of each of its
/// contrasts must then be runnable by one of those presets' files (quick or full), i.e. a file lists the variant and a
/// client that can call it (the side's client, when the side names one; <see cref="ScenarioCells"/>), in the side's
/// topology. Otherwise running the presets never gives that contrast a level.
/// </summary>
public sealed class PresetClaimCoverageTests
{
    private static readonly IReadOnlyList<(PresetInfo Info, ScenarioDocument Document)> PresetFiles =
    [
        .. PresetCatalogue.All.Where(p => p.Number is not null).Select(p => (p, JsonSerializer.Deserialize<ScenarioDocument>(
            File.ReadAllText(Path.Combine(PresetFilesTests.Examples, p.FileName)), ScenarioLoader.JsonOptions)!)),
    ];

    public static TheoryData<string> MeasurableClaims()
    {
        var data = new TheoryData<string>();
        foreach (var claim in ClaimCatalogue.All.Where(c => c.NotMeasurableReason is null))
        {
            data.Add(claim.Id);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(MeasurableClaims))]
    public void Claim_EachContrastSide_IsRunnableByAFileOfItsPresets(string id)
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == id);
        var files = PresetFiles.Where(f => claim.Presets.Contains(f.Info.Number!.Value)).ToList();
        Assert.NotEmpty(files);

        var missing = claim.Contrasts
            .SelectMany(c => new[] { ("A", c.Name, c.A), ("B", c.Name, c.B) })
            .SelectMany(s => s.Item3.Variants!.Select(v => (s.Item1, s.Item2, Variant: v, Side: s.Item3)))
            .Where(s => !files.Any(f => Runs(f.Document, s.Variant, s.Side)))
            .Select(s => $"{s.Item2}, side {s.Item1}: {s.Variant}{(s.Side.Clients is { } cl ? " × " + string.Join("/", cl) : "")}")
            .ToList();

        Assert.True(missing.Count == 0,
            $"{id}: no file of preset(s) {string.Join(", ", claim.Presets)} runs {string.Join("; ", missing)}");
    }

    [Fact]
    public void Claim_ContrastOnAVariantNoPresetClientCalls_IsFound()
    {
        // The check above can fail: WcfNetTcp is called by the wcf client only, which no part of preset 6's dotnet file has.
        var dotnetOnly = PresetFiles.Single(f => f.Info.FileName == "preset-6-book-get256bytes-quick.json").Document;
        var side = new LevelFilter(Variants: ["WcfNetTcp"]);

        Assert.False(Runs(dotnetOnly with { Variants = [.. dotnetOnly.Variants, "WcfNetTcp"] }, "WcfNetTcp", side));
        Assert.True(Runs(dotnetOnly with { Variants = ["WcfNetTcp"], Clients = ["wcf"] }, "WcfNetTcp", side));
        Assert.False(Runs(dotnetOnly with { Variants = ["WcfNetTcp"], Clients = ["wcf"] }, "WcfNetTcp", side with { Topology = Topology.EmulatedLan }));
    }

    private static bool Runs(ScenarioDocument file, string variant, LevelFilter side) =>
        file.Variants.Contains(variant)
        && (side.Topology is null || side.Topology == file.Topology)
        && ScenarioCells.Of([variant], file.Clients).Runnable.Any(p => side.Clients is null || side.Clients.Contains(p.Client));
}
