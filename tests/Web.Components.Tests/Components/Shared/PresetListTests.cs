using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Components.Shared;
using Dashboard.Web.Components.Tests.Support;
using Microsoft.Extensions.DependencyInjection;

// Folder Components/Shared mirrors the source; the namespace stops one level up (CA1716: "Shared" is a VB keyword).
namespace Dashboard.Web.Components.Tests.Components;

/// <summary>The presets on Home: source documents by name, a duration per part (measured here or estimated), queue buttons.</summary>
public sealed class PresetListTests : IAsyncLifetime
{
    private const string Book = "preset-6-book-get256bytes-quick.json";
    private readonly DashboardContext _context = new();

    [Fact]
    public void Render_NoRunHere_EachPartShowsAnEstimateOfSecondsToMinutes()
    {
        var list = _context.RenderPage<PresetList>();

        list.WaitForAssertion(() => Assert.NotEmpty(list.FindAll("[data-testid^=duration-]")));
        foreach (var quick in new[] { "preset-1-ipc-vs-network-aspnet-quick.json", "preset-1-ipc-vs-network-ice-quick.json", "preset-4-ice-paper-java-quick.json", Book })
        {
            var text = list.Find($"[data-testid='duration-{quick}']").TextContent;
            // Quick parts take seconds to minutes: measured windows of 3 s after a warm-up to steady state (issue #32).
            Assert.Matches(@"^≈ \d+ (s|min) \(estimate\)$", text);
        }

        Assert.EndsWith(" min (estimate)", list.Find("[data-testid='duration-preset-1-ipc-vs-network-aspnet-quick.json']").TextContent, StringComparison.Ordinal);

        Assert.EndsWith(" h (estimate)", list.Find("[data-testid='duration-preset-2-interop.json']").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Render_ThroughputMeasuredHereNoRunOfThePart_CalibratedNotEstimate()
    {
        // Another run measured AspNetUdsBinXml × dotnet × Get256Bytes at 1 client: preset 6 is computed with it.
        var started = DateTime.UtcNow.AddHours(-2);
        await _context.AddRunAsync(
            new RunEntity { ScenarioName = "hand-built", ScenarioJson = "{}", Status = RunStatus.Completed, CreatedUtc = started, StartedUtc = started, EndedUtc = started.AddSeconds(30) },
            new LevelEntity
            {
                Variant = "AspNetUdsBinXml", Client = "dotnet", Payload = "Get256Bytes", Clients = 1, Repetition = 1, Requests = 5000, ThroughputRps = 50,
                StartedUtc = started, EndedUtc = started.AddSeconds(10),
            });

        var list = _context.RenderPage<PresetList>();

        // 3 repetitions × 5,500 calls at 50 req/s alone take 330 s: the figure is the calibrated one, not the idle-machine model's.
        list.WaitForAssertion(() => Assert.Matches(@"^≈ \d+ min \(calibrated\)$", list.Find($"[data-testid='duration-{Book}']").TextContent));
        Assert.EndsWith("(estimate)", list.Find("[data-testid='duration-preset-4-ice-paper-java-quick.json']").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Render_OnlyACancelledRunMeasuredTheCell_StillTheEstimateNotCalibrated()
    {
        // The cell preset 6 quick runs, measured by a run cancelled after its first levels (issue #36: such partial levels
        // made the card say "≈ 9 s (calibrated)"); the same level in a completed run makes it calibrated (the test above).
        var started = DateTime.UtcNow.AddHours(-2);
        await _context.AddRunAsync(
            new RunEntity
            {
                ScenarioName = "cancelled early", ScenarioJson = "{}", Status = RunStatus.Cancelled, Error = "cancelled after 3 of 12 levels",
                CreatedUtc = started, StartedUtc = started, EndedUtc = started.AddSeconds(16), CompletedLevels = 3, TotalLevels = 12,
            },
            new LevelEntity
            {
                Variant = "AspNetUdsBinXml", Client = "dotnet", Payload = "Get256Bytes", Clients = 1, Repetition = 1, Requests = 5000, ThroughputRps = 50,
                StartedUtc = started, EndedUtc = started.AddSeconds(10),
            });

        var list = _context.RenderPage<PresetList>();

        list.WaitForAssertion(() => Assert.Matches(@"^≈ \d+ (s|min) \(estimate\)$", list.Find($"[data-testid='duration-{Book}']").TextContent));
    }

    [Fact]
    public async Task Render_LastRunHere_ShowsItsMeasuredDuration()
    {
        var name = JsonSerializer.Deserialize<ScenarioDocument>(await File.ReadAllTextAsync(Path.Combine(DashboardContext.ExamplesFolder, Book)), ScenarioLoader.JsonOptions)!.Name;
        var started = DateTime.UtcNow.AddHours(-1);
        await _context.AddRunAsync(new RunEntity
        {
            ScenarioName = name, ScenarioJson = "{}", Status = RunStatus.Completed, CreatedUtc = started, StartedUtc = started, EndedUtc = started.AddSeconds(19),
        });

        var list = _context.RenderPage<PresetList>();

        list.WaitForAssertion(() => Assert.Equal("19 s (last run)", list.Find($"[data-testid='duration-{Book}']").TextContent));
        // Its full version has no run here: still the model's estimate, said so.
        Assert.EndsWith("(estimate)", list.Find("[data-testid='duration-preset-6-book-get256bytes.json']").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Render_Sources_NameTheDocumentNotAFileNumber()
    {
        var list = _context.RenderPage<PresetList>();

        list.WaitForAssertion(() => Assert.Contains("Rahbek, Vraa and Wagner", list.Find("[data-testid=preset-source-4]").TextContent, StringComparison.Ordinal));
        Assert.Contains("Essential WCF", list.Find("[data-testid=preset-source-6]").TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("seed", list.Markup, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void QueueButton_QuickPreset_StoresTheRunOnTheLocalHostAndOpensItsPage()
    {
        var list = _context.RenderPage<PresetList>();
        var navigation = _context.Services.GetRequiredService<Microsoft.AspNetCore.Components.NavigationManager>();

        list.WaitForElement($"[data-testid='queue-{Book}']").Click();

        list.WaitForAssertion(() => Assert.Matches(@"/runs/\d+\?levels=all$", navigation.Uri));
        using var db = _context.OpenDatabase();
        var run = Assert.Single(db.Runs);
        Assert.Equal(RunStatus.Queued, run.Status);
        Assert.Equal(DashboardContext.LocalHost, JsonSerializer.Deserialize<ScenarioDocument>(run.ScenarioJson, ScenarioLoader.JsonOptions)!.Host);
    }

    /// <inheritdoc />
    public Task InitializeAsync() => Task.CompletedTask;

    /// <inheritdoc />
    public Task DisposeAsync() => _context.DisposeAndDeleteAsync();
}
