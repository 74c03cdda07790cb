using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Web.Tests.Scenarios;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Api;

/// <summary>A dashboard whose presets folder is the repository's <c>examples/</c>.</summary>
public sealed class ExamplesAppFixture : IAsyncLifetime
{
    /// <summary>The dashboard.</summary>
    public WebApp App { get; private set; } = null!;

    /// <inheritdoc />
    /// <remarks>The local host is where the shipped presets point (<c>http://localhost:5090</c>, what <c>./run.sh</c> starts), so
    /// the queue's registered-host check lets them through as it does for a user; the runner is the fake one.</remarks>
    public async Task InitializeAsync() => App = await WebApp.StartAsync(null, null, $"--Dashboard:PresetsFolder={PresetFilesTests.Examples}", "--Dashboard:LocalHost:Address=http://localhost:5090");

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        var root = App.Root;
        await App.DisposeAsync();
        WebApp.DeleteRoot(root);
    }
}

/// <summary><c>GET /api/presets</c> on the shipped preset files, and queueing one.</summary>
public sealed class PresetsApiTests(ExamplesAppFixture fixture) : IClassFixture<ExamplesAppFixture>
{
    private static readonly string Examples = PresetFilesTests.Examples;

    private WebApp App => fixture.App;

    [Fact]
    public async Task ListPresets_ExamplesFolder_SevenPresetsEachWithQuickAndFullPaired()
    {
        var presets = await App.Http.GetFromJsonAsync<JsonElement[]>("/api/presets");

        Assert.NotNull(presets);
        Assert.Equal(Directory.EnumerateFiles(Examples, "*.json").Count(), presets.Length);
        var byFile = presets.ToDictionary(p => p.GetProperty("fileName").GetString()!);
        var numbered = presets.Where(p => p.GetProperty("number").ValueKind == JsonValueKind.Number).ToList();
        Assert.Equal([1, 2, 3, 4, 5, 6, 7], numbered.Select(p => p.GetProperty("number").GetInt32()).Distinct().Order());
        foreach (var preset in numbered)
        {
            var file = preset.GetProperty("fileName").GetString()!;
            var quick = preset.GetProperty("isQuick").GetBoolean();
            Assert.Equal(quick, file.EndsWith("-quick.json", StringComparison.Ordinal));
            Assert.False(string.IsNullOrWhiteSpace(preset.GetProperty("source").GetString()), file);
            Assert.False(string.IsNullOrWhiteSpace(preset.GetProperty("title").GetString()), file);

            // The pair exists, points back, and is the other kind; quick takes minutes, full longer.
            var pair = byFile[preset.GetProperty("pairedFileName").GetString()!];
            Assert.Equal(file, pair.GetProperty("pairedFileName").GetString());
            Assert.NotEqual(quick, pair.GetProperty("isQuick").GetBoolean());
            var seconds = preset.GetProperty("estimatedSeconds").GetDouble();
            var pairSeconds = pair.GetProperty("estimatedSeconds").GetDouble();
            Assert.True(quick ? seconds < pairSeconds && seconds <= 10 * 60 : seconds > pairSeconds, file);

            // Queueable exactly when no variant is waiting for issue #12, and the reason is given otherwise.
            var unavailable = preset.GetProperty("unavailableVariants").EnumerateArray().Select(v => v.GetString()).ToList();
            Assert.Equal(unavailable.Count == 0, preset.GetProperty("canQueue").GetBoolean());
            if (unavailable.Count > 0)
            {
                Assert.Contains("not built yet", preset.GetProperty("problem").GetString(), StringComparison.Ordinal);
            }
        }
    }

    [Fact]
    public async Task QueuePreset_QuickBookChapter_RunIsQueuedAndCompletes()
    {
        var json = await File.ReadAllTextAsync(Path.Combine(Examples, "preset-6-book-get256bytes-quick.json"));

        using var response = await App.PostScenarioAsync(json);

        Assert.Equal(System.Net.HttpStatusCode.Created, response.StatusCode);
        var id = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        await App.WaitForStatusAsync(id, "Completed");
    }
}
