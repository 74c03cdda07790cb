using Dashboard.Data.Entities;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages;

/// <summary>The run page in Chromium: live progress, cancel, and the charts of a finished run.</summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class RunPageTests(BrowserFixture fixture) : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    // The shared browser keeps no page of this test.
    public Task DisposeAsync() => fixture.CloseContextsAsync();

    [Fact]
    public async Task Finished_SeededRun_ShowsTitledChartsAndTable()
    {
        var id = Seed.RealisticRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync();

        await page.GotoAsync($"runs/{id}");

        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed");
        foreach (var chart in new[] { "throughput-unsecure", "response-time-unsecure", "latency-over-time", "server-cpu", "server-memory" })
        {
            await Expect(page.GetByTestId(chart).Locator(".main-svg").First).ToBeVisibleAsync();
        }

        await Expect(page.GetByTestId("throughput-unsecure")).ToContainTextAsync("Throughput — unsecure variants");
        await Expect(page.GetByTestId("server-cpu")).ToContainTextAsync("CPU (% of all cores)");
        await Expect(page.GetByTestId("level-table")).ToContainTextAsync("AspNetH2BinXml");
        // The generator's own CPU per level, so a saturated load generator is visible (issue 14).
        await Expect(page.GetByTestId("level-table")).ToContainTextAsync("Generator CPU (%)");
        await Expect(page.GetByTestId("level-table").Locator("td", new() { HasTextRegex = new System.Text.RegularExpressions.Regex("^\\s*97\\s*$") }).First).ToBeVisibleAsync();
    }

    [Fact]
    public async Task Finished_ColdLoad_PlotlyAskedForOnceBeforeTheChartsAreInThePage()
    {
        var id = Seed.RealisticRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync();
        var asked = new List<string>();
        page.Request += (_, request) =>
        {
            if (request.Url.Contains("plotly-basic", StringComparison.Ordinal))
            {
                asked.Add(request.Url);
            }
        };
        await page.AddInitScriptAsync("""
            window.__panels = null;
            new MutationObserver(() => {
              if (window.__panels === null && document.querySelector('[data-testid=panels]')) window.__panels = performance.now();
            }).observe(document, { childList: true, subtree: true });
            """);

        await page.GotoAsync($"runs/{id}");

        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();
        // Issue #36 (time to the first chart): plotly.js is asked for while the circuit starts (js/charts-early.js), not
        // once the charts are in the page, and only once: the charts use that script.
        var scriptAsked = await page.EvaluateAsync<double>("performance.getEntriesByType('resource').find(e => e.name.includes('plotly-basic')).startTime");
        var panelsShown = await page.EvaluateAsync<double>("window.__panels");
        Assert.True(scriptAsked < panelsShown, $"plotly.js was asked for at {scriptAsked:0} ms, after the charts were in the page ({panelsShown:0} ms)");
        Assert.Single(asked);
    }

    [Fact]
    public async Task Running_LiveProgressThenCancel_ShowsCancelled()
    {
        var id = await fixture.App.QueueAsync("slow from the browser");
        var page = await fixture.NewPageAsync();

        await page.GotoAsync($"runs/{id}");

        await Expect(page.GetByTestId("run-progress")).ToContainTextAsync("1 of 5 levels", new() { Timeout = 60_000 });
        // The count is said once, not repeated by the runner's own text.
        Assert.Equal(1, System.Text.RegularExpressions.Regex.Count(await page.GetByTestId("run-progress").InnerTextAsync(), "levels"));
        // Within the level: elapsed time, and the live rate moves (requests so far grow with each level-progress event).
        await Expect(page.GetByTestId("run-elapsed")).ToContainTextAsync("elapsed");
        await Expect(page.GetByTestId("run-eta")).ToContainTextAsync("left");
        await Expect(page.GetByTestId("live-rate")).ToContainTextAsync("req/s", new() { Timeout = 30_000 });
        var first = await page.GetByTestId("live-rate").InnerTextAsync();
        Assert.True(
            await Eventually.HoldsAsync(async () => await page.GetByTestId("live-rate").InnerTextAsync() != first),
            "the live rate did not move from: " + first);
        await Expect(page.GetByTestId("live-rate")).ToContainTextAsync("AspNetHttpJson × dotnet × Int, 2 clients");
        await page.GetByTestId("cancel-run").ClickAsync();
        await page.GetByRole(AriaRole.Button, new() { Name = "Cancel the run" }).ClickAsync();
        // The snackbar names the signal the runner gets (issue #36: it said SIGINT while SIGTERM was sent).
        await Expect(page.Locator(".mud-snackbar", new() { HasText = "Stopping the runner (SIGTERM)" })).ToBeVisibleAsync();
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Cancelled", new() { Timeout = 60_000 });
        var signals = FakeRunner.StopSignals(fixture.App.RunnerFolder);
        Assert.NotEmpty(signals);
        Assert.All(signals, s => Assert.Equal("TERM", s));
    }

    [Fact]
    public async Task Scheduled_CancelledBeforeItStarts_SaysWhenAndThatNothingWasMeasured()
    {
        var at = DateTime.UtcNow.AddHours(3);
        using var post = await fixture.App.Http.PostAsync($"/api/runs?at={at:O}",
            new StringContent(WebApp.Scenario("scheduled from the browser"), System.Text.Encoding.UTF8, "application/json"));
        var body = await post.Content.ReadAsStringAsync();
        Assert.True(post.IsSuccessStatusCode, body);
        var id = System.Text.Json.JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt32();
        var page = await fixture.NewPageAsync();

        await page.GotoAsync($"runs/{id}");

        // Issue #36 item 5: no "0 of ? levels", no Run again or CSV links for a run without data, and a Cancel.
        await Expect(page.GetByTestId("run-progress")).ToContainTextAsync($"scheduled: starts at {at:yyyy-MM-dd HH:mm}");
        await Expect(page.GetByTestId("requeue-run")).ToHaveCountAsync(0);
        await Expect(page.GetByTestId("levels-csv")).ToHaveCountAsync(0);
        await Expect(page.GetByTestId("samples-csv")).ToHaveCountAsync(0);
        await page.GetByTestId("cancel-run").ClickAsync();
        await page.GetByRole(AriaRole.Button, new() { Name = "Cancel the run" }).ClickAsync();
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Cancelled", new() { Timeout = 30_000 });
        await Expect(page.GetByTestId("run-progress")).ToHaveTextAsync("cancelled before its first level: nothing was measured");
        await Expect(page.GetByTestId("requeue-run")).ToBeVisibleAsync();
        await Expect(page.GetByTestId("levels-csv")).ToHaveCountAsync(0);
    }

    [Fact]
    public async Task OpenRun_LevelsAreRates_PageSaysSoAboveTheSharedCharts()
    {
        var id = Seed.Run(fixture.App.DatabasePath, RunStatus.Completed, levels: 0, samplesPerLevel: 0);
        await using (var db = fixture.App.OpenDatabase())
        {
            var start = DateTime.UtcNow.AddMinutes(-5);
            foreach (var rate in new[] { 500, 1000 })
            {
                db.Levels.Add(new LevelEntity
                {
                    RunId = id, Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Repetition = 1, Clients = rate, TargetRateRps = rate,
                    StartedUtc = start, EndedUtc = start.AddSeconds(1), Requests = 100, ThroughputRps = rate, P50Ms = 1, P90Ms = 2, P99Ms = 3, P999Ms = 4, MaxMs = 5,
                });
            }

            var run = await db.Runs.SingleAsync(r => r.Id == id);
            (run.EstimatedSeconds, run.EstimatedLowSeconds, run.EstimatedHighSeconds) = (55, 50, 70); // the seeded run took 60 s
            await db.SaveChangesAsync();
        }

        var closed = Seed.Run(fixture.App.DatabasePath, RunStatus.Completed, levels: 1, samplesPerLevel: 10);
        var page = await fixture.NewPageAsync();

        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("open-workload-note")).ToContainTextAsync("its levels are arrival rates (req/s), not client counts");
        await Expect(page.GetByTestId("level-table").Locator("th", new() { HasText = "Offered rate (req/s)" })).ToHaveCountAsync(1);
        await Expect(page.GetByTestId("panels-title")).ToHaveTextAsync("Response time and throughput vs offered rate (req/s)");
        await Expect(page.GetByTestId("estimate-check")).ToHaveTextAsync("estimated 55 s (50–70 s), took 60 s: ×1.09, within its range");
        foreach (var (width, height) in new[] { (390, 844), (1280, 800), (1920, 1080) })
        {
            await page.SetViewportSizeAsync(width, height);
            await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();
            await Screenshots.SaveAsync(page, $"screenshot-run-open-{width}.png");
        }

        await page.GotoAsync($"runs/{closed}");
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed");
        await Expect(page.GetByTestId("open-workload-note")).ToHaveCountAsync(0);
    }

    [Fact]
    public async Task NewRun_Screenshot_SavedWhenAsked()
    {
        var page = await fixture.NewPageAsync(1400, 1500);
        await page.GotoAsync("runs/new");
        await page.GetByTestId("name").FillAsync("thesis 8.1: local IPC vs network, Int");
        foreach (var id in new[] { "variant-AspNetUdsBinXml", "variant-AspNetH2BinXml", "variant-IceTcp", "client-dotnet", "client-java", "payload-Int", "payload-String500" })
        {
            await page.GetByTestId(id).CheckAsync();
        }

        await page.GetByTestId("levels").FillAsync("1, 10, 0");
        await page.GetByTestId("levels").PressAsync("Tab");
        await Expect(page.GetByTestId("error-levels")).ToBeVisibleAsync();
        await Expect(page.GetByTestId("impossible-dotnet-IceTcp")).ToBeVisibleAsync();
        await Screenshots.SaveAsync(page, "screenshot-new-run.png");
    }
}
