using System.Buffers.Binary;
using System.Text.Json;
using System.Text.RegularExpressions;
using Dashboard.Data.Queries;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages;

/// <summary>
/// The run page's results views in Chromium on a seeded finished run with unsecure and secure variants, two payload
/// classes and two repetitions: switching panels (kept in the address), error bars, error marks, and the downloads
/// (PNG size, SVG axis titles, CSV row counts against the database).
/// </summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class RunResultsTests(BrowserFixture fixture) : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    // The shared browser keeps no page of this test.
    public Task DisposeAsync() => fixture.CloseContextsAsync();

    [Fact]
    public async Task RunPage_DefaultView_ThesisPanelsFrom20ClientsSideBySideWithErrorBars()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync();

        await page.GotoAsync($"runs/{id}");

        foreach (var chart in new[] { "response-time-unsecure", "response-time-secure", "throughput-unsecure", "throughput-secure" })
        {
            await Expect(page.GetByTestId(chart).Locator(".main-svg").First).ToBeVisibleAsync();
        }

        // From 20 clients on by default, one line per variant × client (+ the hidden p99 lines); 2 repetitions give no
        // interval (at least 3), so no error bars rather than zero-width ones.
        var x = await XValuesAsync(page, "throughput-unsecure");
        Assert.Equal([20.0, 50.0], x);
        var names = await page.GetByTestId("throughput-unsecure").EvaluateAsync<string[]>("el => el.data.map(t => t.name)");
        Assert.Contains("AspNetHttpJson × dotnet", names);
        Assert.Contains("MetroSoap11 × java", names);
        Assert.DoesNotContain(names, n => n.Contains("Https", StringComparison.Ordinal));
        var bars = await page.GetByTestId("throughput-unsecure").EvaluateAsync<int>(
            "el => el.data.reduce((n, t) => n + ((t.error_y && t.error_y.array) || []).filter(v => v !== null && v > 0).length, 0)");
        Assert.Equal(0, bars);

        // Secure and unsecure panels side by side: same row.
        var unsecureBox = await page.GetByTestId("throughput-unsecure").BoundingBoxAsync();
        var secureBox = await page.GetByTestId("throughput-secure").BoundingBoxAsync();
        Assert.Equal(unsecureBox!.Y, secureBox!.Y, 1.0);
        Assert.True(secureBox.X > unsecureBox.X + unsecureBox.Width - 1);

        // The level with errors is marked on the secure panel (cross) and said so in the legend and the title.
        await Expect(page.GetByTestId("throughput-secure")).ToContainTextAsync("level(s) with errors");
        var symbols = await page.GetByTestId("throughput-secure").EvaluateAsync<string[]>(
            "el => el.data.filter(t => t.name === 'MetroSoap11Https × java')[0].marker.symbol");
        Assert.Equal(["circle", "x"], symbols);
        await Expect(page.GetByTestId("throughput-secure")).ToContainTextAsync("level with errors");
        await Expect(page.GetByTestId("server-cpu")).ToContainTextAsync("level(s) with errors");
        // Level boundaries: one vertical segment per level (64), and the level with errors shaded.
        var boundaries = await page.GetByTestId("server-cpu").EvaluateAsync<int>(
            "el => el.data.filter(t => t.name === 'level starts' || t.name === 'cell starts').reduce((n, t) => n + t.x.filter(v => v !== null).length / 2, 0)");
        Assert.Equal(64, boundaries);
        var shaded = await page.GetByTestId("server-cpu").EvaluateAsync<int>(
            "el => el.data.filter(t => t.name === 'levels with errors').reduce((n, t) => n + t.x.filter(v => v !== null).length / 5, 0)");
        Assert.Equal(1, shaded);

        // Ranking tables with CI, per class and overall.
        await Expect(page.GetByTestId("rankings")).ToContainTextAsync("AspNetHttpJson × dotnet");
        await Expect(page.GetByTestId("rankings")).ToContainTextAsync("req/s");
        Assert.True(await page.GetByTestId("rankings").Locator(".ranking").CountAsync() >= 4);

        foreach (var view in new[] { "percentile-spectrum", "latency-vs-size", "wire-bytes", "sequential-calls" })
        {
            await Expect(page.GetByTestId(view).Locator(".main-svg").First).ToBeVisibleAsync();
        }

        await Expect(page.GetByTestId("wire-bytes")).ToContainTextAsync("Bytes on the wire");
        await Expect(page.GetByTestId("latency-vs-size")).ToContainTextAsync("log scale");
        await Expect(page.GetByTestId("server-memory").Locator(".main-svg").First).ToBeVisibleAsync();
        await Screenshots.SaveAsync(page, "screenshot-run.png", to: page.GetByTestId("rankings"));
        await Screenshots.SaveAsync(page, "screenshot-run-views.png", page.GetByRole(AriaRole.Heading, new() { Name = "More views" }), page.GetByTestId("server-memory"));
    }

    [Fact]
    public async Task RunPage_QuickSweepWithOneLevelFrom20Clients_ShowsEveryLevelAndSaysWhy()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath, clientLevels: [1, 10, 20]);
        var page = await fixture.NewPageAsync();
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();

        var x = await XValuesAsync(page, "throughput-unsecure");
        Assert.Equal([1.0, 10.0, 20.0], x);
        await Expect(page.GetByTestId("level-note")).ToContainTextAsync("Fewer than two levels have 20 or more clients");
    }

    [Fact]
    public async Task RunPage_SwitchPanels_ChartsAndAddressFollow()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync();
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();

        await page.GetByTestId("all-levels").CheckAsync();
        await Expect(page).ToHaveURLAsync(new Regex("levels=all"));
        double[] seen = [];
        Assert.True(
            await Eventually.HoldsAsync(async () => (seen = await XValuesAsync(page, "throughput-unsecure")).SequenceEqual([1.0, 10.0, 20.0, 50.0])),
            "x values: " + string.Join(", ", seen));

        await page.GetByTestId("panels-select").SelectOptionAsync("secure");
        await Expect(page).ToHaveURLAsync(new Regex("panels=secure"));
        await Expect(page.GetByTestId("throughput-unsecure")).ToHaveCountAsync(0);
        await Expect(page.GetByTestId("throughput-secure")).ToBeVisibleAsync();

        await page.GetByTestId("payload-select").SelectOptionAsync("class:Large");
        await Expect(page).ToHaveURLAsync(new Regex("payload=class(%3A|:)Large"));
        await Expect(page.GetByTestId("throughput-secure")).ToContainTextAsync("Large payloads");

        // The address reproduces the view in a fresh context.
        var other = await fixture.NewPageAsync();
        await other.GotoAsync(page.Url);
        await Expect(other.GetByTestId("throughput-secure")).ToContainTextAsync("Large payloads");
        await Expect(other.GetByTestId("throughput-unsecure")).ToHaveCountAsync(0);
        await Expect(other.GetByTestId("all-levels")).ToBeCheckedAsync();
        var otherX = await XValuesAsync(other, "throughput-secure");
        Assert.Equal([1.0, 10.0, 20.0, 50.0], otherX);
    }

    [Fact]
    public async Task RunPage_Downloads_PngHasRequestedSizeSvgHasAxisTitlesCsvRowsMatchDatabase()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync();
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();

        // Default size 1600 × 900; the file names say run, view and payload.
        var pngDownload = await page.RunAndWaitForDownloadAsync(() => page.GetByTestId("throughput-unsecure-png").ClickAsync());
        Assert.Matches($"^run-{id}-throughput-unsecure-[A-Za-z0-9-]+\\.png$", pngDownload.SuggestedFilename);
        var png = await File.ReadAllBytesAsync(await pngDownload.PathAsync());
        Assert.Equal((1600, 900), PngSize(png));
        var payloadPart = pngDownload.SuggestedFilename["run-".Length..^".png".Length].Split('-', 4)[^1];
        Assert.Contains(await page.GetByTestId("payload-select").InputValueAsync(), payloadPart.Replace('-', ':'), StringComparison.Ordinal);

        await page.GetByTestId("export-size").SelectOptionAsync("1000x600");
        await Expect(page).ToHaveURLAsync(new Regex("size=1000x600"));
        png = await DownloadAsync(page, "server-cpu-png");
        Assert.Equal((1000, 600), PngSize(png));

        var svgDownload = await page.RunAndWaitForDownloadAsync(() => page.GetByTestId("response-time-secure-svg").ClickAsync());
        Assert.Matches($"^run-{id}-response-time-secure-[A-Za-z0-9-]+\\.svg$", svgDownload.SuggestedFilename);
        var svg = System.Text.Encoding.UTF8.GetString(await File.ReadAllBytesAsync(await svgDownload.PathAsync()));
        Assert.StartsWith("<svg", svg, StringComparison.Ordinal);
        Assert.Contains("width=\"1000\"", svg, StringComparison.Ordinal);
        // Paper style: no page subtitle, no legend entry hidden until clicked (the p99 lines are off by default).
        Assert.DoesNotContain("mean per level", svg, StringComparison.Ordinal);
        Assert.DoesNotContain(" p99", svg, StringComparison.Ordinal);
        Assert.Contains("concurrent clients", svg, StringComparison.Ordinal);
        Assert.Contains("mean response time (ms)", svg, StringComparison.Ordinal);
        Assert.Contains("fill: rgb(255, 255, 255)", svg, StringComparison.Ordinal); // paper style: white background

        var levelsCsv = CsvRows(await FetchLinkAsync(page, "levels-csv"));
        var samplesCsv = CsvRows(await FetchLinkAsync(page, "samples-csv"));
        await using var db = fixture.App.OpenDatabase();
        var levels = await db.Levels.CountAsync(l => l.RunId == id);
        var samples = await db.CountSamplesAsync(id);
        Assert.Equal(levels, levelsCsv.Length - 1);
        Assert.Equal(samples.Total, samplesCsv.Length - 1);
        Assert.StartsWith("variant,client,payload,level,requests,errors,throughput_rps", levelsCsv[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunPage_ThreeRepetitions_ErrorBarsQualityFlagsClaimsEnvironmentAndAnchors()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath, repetitions: 3);
        await using (var db = fixture.App.OpenDatabase())
        {
            var run = await db.Runs.SingleAsync(r => r.Id == id);
            run.EnvironmentJson = """{"runtime":".NET 10.0.0","cpuModel":"Test CPU 3000","machineCores":2,"machineMemoryMb":7936,"kernel":"6.1.0-test"}""";
            foreach (var level in await db.Levels.Where(l => l.RunId == id && l.Variant == "MetroSoap11" && l.Clients == 50).ToListAsync())
            {
                level.Bound = Dashboard.Data.Entities.LevelBound.Generator;
                level.GeneratorCpuPercent = 98;
            }

            await db.SaveChangesAsync();
        }

        var page = await fixture.NewPageAsync();
        await page.GotoAsync($"runs/{id}");

        // 3 repetitions: a 95 % interval, so error bars of positive length.
        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();
        var errorBars = await page.GetByTestId("throughput-unsecure").EvaluateAsync<double[]>("el => el.data[0].error_y.array");
        Assert.Equal(2, errorBars.Length);
        Assert.All(errorBars, v => Assert.True(v > 0));

        // Chart anchors the claims panel links to.
        foreach (var anchor in new[] { "chart-throughput", "chart-response-time", "chart-cpu", "chart-memory", "chart-wire-bytes", "chart-sequential-calls" })
        {
            Assert.Equal(1, await page.Locator($"#{anchor}").CountAsync());
        }

        await Expect(page.Locator("#chart-throughput [data-testid=throughput-unsecure]")).ToHaveCountAsync(1);

        // The generator-bound level is said under the panels and flagged in the table.
        await Expect(page.GetByTestId("generator-bound-note")).ToContainTextAsync("MetroSoap11 × java × Int at 50 clients");
        await Expect(page.GetByTestId("generator-bound-note")).ToContainTextAsync("the generator was the limit: this is not the server's capacity");
        await Expect(page.GetByTestId("level-table").GetByTestId("level-quality-flags").First).ToBeVisibleAsync();
        await Expect(page.GetByTestId("level-table").GetByTestId("flag-bound").Filter(new() { HasText = "generator-bound" }).First).ToBeVisibleAsync();

        // Claims of the source documents for the finished run, and where it was measured.
        await page.GetByTestId("run-claims").GetByText("Claims of the source documents: verdicts", new() { Exact = false }).ClickAsync();
        await Expect(page.GetByTestId("run-claims").Locator("tr[data-claim]").First).ToBeVisibleAsync();
        await Expect(page.GetByRole(AriaRole.Heading, new() { Name = "Where this was measured" })).ToBeVisibleAsync();
        await Expect(page.GetByTestId("run-environment")).ToBeVisibleAsync();
        await page.GetByTestId("run-environment").GetByText("Environment", new() { Exact = true }).ClickAsync();
        await Expect(page.GetByTestId("run-environment")).ToContainTextAsync("Test CPU 3000");
        await Expect(page.GetByTestId("run-environment")).ToContainTextAsync("6.1.0-test");
        // One run has one topology: no side-by-side table.
        await Expect(page.GetByTestId("topology-side-by-side")).ToHaveCountAsync(0);
    }

    [Fact]
    public async Task RunPage_ClaimForestPlot_RendersTheCasesOfARealClaimAtThreeWidths()
    {
        var id = ClaimsSeed.SecurityRun(fixture.App.DatabasePath);
        const string claim = "thesis-9.3-unsecure-beats-secure-throughput";
        foreach (var (width, height) in new[] { (1280, 900), (1920, 1080), (390, 844) })
        {
            var page = await fixture.NewPageAsync(width, height);
            await page.GotoAsync($"runs/{id}");
            await page.GetByTestId("run-claims").GetByText("Claims of the source documents: verdicts", new() { Exact = false }).ClickAsync();
            await page.GetByTestId($"forest-toggle-{claim}").ClickAsync();

            var plot = page.GetByTestId($"forest-{claim}");
            await Expect(plot.Locator(".main-svg").First).ToBeVisibleAsync();
            // Two cases (SOAP 1.1 over HTTP vs HTTPS holds, Ice over TCP vs TLS does not), each a point with its interval.
            Assert.Equal(2, await plot.EvaluateAsync<int>("el => el.data.find(t => t.name.startsWith('case:')).x.length"));
            await Expect(plot).ToContainTextAsync("IceTcp vs IceSsl");
            await Expect(plot).ToContainTextAsync("ratio A ÷ B");
            await Expect(plot).ToContainTextAsync("(req/s), log scale");
            await Expect(plot).ToContainTextAsync("no advantage: within ±5 %");
            await Expect(page.Locator($"tr[data-forest='{claim}'] .claim-forest-table tbody tr")).ToHaveCountAsync(2);
            // The plot fits the page: nothing runs off sideways.
            Assert.True(await page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), $"sideways overflow at {width} px");
            await page.EvaluateAsync("() => window.scrollTo(0, 0)"); // the clip's boxes in page coordinates
            await Screenshots.SaveAsync(page, $"screenshot-claim-forest-{width}.png", page.Locator($"tr[data-claim='{claim}']"), page.Locator($"tr[data-forest='{claim}']"));
            await page.CloseAsync();
        }
    }

    [Theory]
    [InlineData(1280, 900, "screenshot-run-1280.png")]
    [InlineData(1920, 1080, "screenshot-run-1920.png")]
    [InlineData(390, 844, "screenshot-run-390.png")]
    public async Task RunPage_AtWidth_TableHeadersNotCutAndNoSidewaysOverflow(int width, int height, string screenshot)
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync(width, height);
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();
        await Expect(page.GetByTestId("level-table").Locator("tbody tr").First).ToBeVisibleAsync();

        // Every header of the per-level table shows its whole text (the table scrolls inside its box instead).
        var cut = await page.GetByTestId("level-table").EvaluateAsync<string[]>(
            "el => [...el.querySelectorAll('th')].filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.innerText)");
        Assert.Empty(cut);
        var cells = await page.GetByTestId("level-table").EvaluateAsync<string[]>(
            "el => [...el.querySelectorAll('td')].filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.innerText)");
        Assert.Empty(cells);
        if (width >= 1280)
        {
            var overflow = await page.EvaluateAsync<int>("() => document.documentElement.scrollWidth - document.documentElement.clientWidth");
            Assert.True(overflow <= 1, $"the page overflows sideways by {overflow} px at {width} px");
        }
        else
        {
            // On a phone each level is a card as wide as the screen: no value lies beyond its right edge (MudDataGrid sizes
            // the table to its max-content for the wide layout; the card layout overrides that).
            var beyond = await page.GetByTestId("level-table").EvaluateAsync<int>(
                "el => { const c = el.querySelector('.mud-table-container'); return Math.round(el.querySelector('table').getBoundingClientRect().width - c.clientWidth); }");
            Assert.True(beyond <= 1, $"the level cards are {beyond} px wider than the screen at {width} px");
        }

        await Screenshots.SaveAsync(page, screenshot);
    }

    [Fact]
    public async Task RunPage_At1280_ClippedTablesShowScrollCueUntilScrolledToTheEnd()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync(1280, 900);
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("level-table").Locator("tbody tr").First).ToBeVisibleAsync();
        await Expect(page.GetByTestId("rankings")).ToBeVisibleAsync();

        // Every results table shows all its column headers, or says that it scrolls.
        var cues = await ScrollCues.AssertEveryHeaderVisibleOrCuedAsync(page);
        Assert.Contains(cues, c => c.Id == "ranking-cue");
        var level = Assert.Single(cues, c => c.Id == "level-table-cue");
        Assert.NotEmpty(level.HeadersOutside); // the per-level table is wider than the page at 1280 px
        Assert.True(level.HintShown);
        Assert.Contains(cues, c => c.HeadersOutside.Count == 0 && !c.HintShown); // a table that fits has no cue

        // Scrolled to its right end, nothing lies beyond the edge: the hint goes; back at the start it returns.
        var cue = page.GetByTestId("level-table-cue");
        await cue.Locator(".mud-table-container").EvaluateAsync("el => el.scrollLeft = el.scrollWidth");
        await Expect(cue.GetByTestId("scroll-hint")).ToBeHiddenAsync();
        await cue.Locator(".mud-table-container").EvaluateAsync("el => el.scrollLeft = 0");
        await Expect(cue.GetByTestId("scroll-hint")).ToBeVisibleAsync();
    }

    [Fact]
    public async Task RunPage_FailedRunWithoutLevels_NoEmptyRankingsOrOverTime()
    {
        var id = Seed.Run(fixture.App.DatabasePath, Dashboard.Data.Entities.RunStatus.Failed, levels: 0, samplesPerLevel: 0);
        var page = await fixture.NewPageAsync();
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("level-table")).ToBeVisibleAsync();

        await Expect(page.GetByRole(AriaRole.Heading, new() { Name = "Rankings" })).ToHaveCountAsync(0);
        await Expect(page.GetByRole(AriaRole.Heading, new() { Name = "Over time" })).ToHaveCountAsync(0);
    }

    private static async Task<double[]> XValuesAsync(IPage page, string chart) =>
        await page.GetByTestId(chart).EvaluateAsync<double[]>("el => el.data[0].x");

    /// <summary>
    /// The file a server-side export link points at, fetched with the page's own credentials (its context's headers and
    /// cookies). The test browser is signed in by a bearer token sent as Playwright's extra header; Chromium's download of
    /// such a link ended "canceled" that way, while the same address fetched with the page's credentials answers 200. A
    /// person's sign-in is a session cookie, which this test does not use: the download with a cookie is not covered here.
    /// </summary>
    private static async Task<byte[]> FetchLinkAsync(IPage page, string testId)
    {
        var href = await page.GetByTestId(testId).EvaluateAsync<string>("a => a.href"); // resolved against the page's <base>
        Assert.False(string.IsNullOrEmpty(href), $"{testId} has no link");
        var response = await page.APIRequest.GetAsync(href);
        Assert.True(response.Ok, $"{testId}: {response.Status} {response.StatusText}");
        return await response.BodyAsync();
    }

    private static async Task<byte[]> DownloadAsync(IPage page, string testId)
    {
        var download = await page.RunAndWaitForDownloadAsync(() => page.GetByTestId(testId).ClickAsync());
        var path = await download.PathAsync();
        return await File.ReadAllBytesAsync(path);
    }

    /// <summary>Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian), after checking the signature.</summary>
    private static (int Width, int Height) PngSize(byte[] png)
    {
        Assert.True(png.Length > 24, "not a PNG: too short");
        Assert.Equal(new byte[] { 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A }, png[..8]);
        Assert.Equal("IHDR", System.Text.Encoding.ASCII.GetString(png, 12, 4));
        return (BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(16, 4)), BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(20, 4)));
    }

    private static string[] CsvRows(byte[] csv) =>
        System.Text.Encoding.UTF8.GetString(csv).Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => l.TrimEnd('\r')).ToArray();
}
