using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// Everything real: the built dashboard queues a scenario, starts the built runner, which drives the real service host;
/// then the run's permalink, opened in a fresh browser context, shows charts with one point per level.
/// </summary>
public sealed class RealRunTests : IAsyncLifetime
{
    private ServiceHostProcess _host = null!;
    private WebApp _app = null!;
    private IPlaywright _playwright = null!;
    private IBrowser _browser = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        _host = await ServiceHostProcess.StartAsync();
        // Other test assemblies run real runners at the same time: this dashboard's runner gets its own TMPDIR (so its own
        // machine lock), and a busy machine is retried soon anyway.
        _tmp = Directory.CreateTempSubdirectory("e2e-tmp-").FullName;
        _app = await WebApp.StartAsync(environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp }, extraArguments:
        [
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:Runner:BusyRetryDelay=00:00:02",
            // Runs may only target registered hosts (docs/security.md): this test's host is the dashboard's local one.
            $"--Dashboard:LocalHost:Address={_host.ControlAddress.ToString().TrimEnd('/')}",
        ]);
        _playwright = await Playwright.CreateAsync();
        _browser = await _playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = BrowserFixture.ChromiumPath,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
        });
    }

    public async Task DisposeAsync()
    {
        await _browser.CloseAsync();
        _playwright.Dispose();
        var root = _app.Root;
        await _app.DisposeAsync();
        WebApp.DeleteRoot(root);
        await _host.DisposeAsync();
        Directory.Delete(_tmp, recursive: true);
    }

    [Fact]
    public async Task Queue_RealScenario_PermalinkInAFreshContextShowsOnePointPerLevel()
    {
        var scenario = $$"""
            {"name": "end to end", "host": "{{_host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson", "AspNetH2BinXml"],
             "clients": ["dotnet"], "payloads": ["Int"], "levels": [1, 2, 4], "requestsPerClient": 30, "warmup": 3}
            """;
        using var response = await _app.PostScenarioAsync(scenario);
        var created = await response.Content.ReadFromJsonAsync<JsonElement>();
        var permalink = created.GetProperty("permalink").GetString()!;
        var id = created.GetProperty("id").GetInt32();
        await Eventually.HoldsAsync(async () => await _app.StatusAsync(id) is "Completed" or "Failed", TimeSpan.FromMinutes(3));
        Assert.Equal("Completed", await _app.StatusAsync(id));

        await using var context = await NewContextAsync(1400, 1000);
        var page = await context.NewPageAsync();
        await page.GotoAsync(permalink.TrimStart('/'));

        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed");
        // The chart element is the plotly plot itself (src/Web/Components/Shared/Chart.razor).
        var throughput = page.GetByTestId("throughput-unsecure");
        await Expect(throughput.Locator(".main-svg").First).ToBeVisibleAsync();
        // Every line of the throughput chart: one point per level (1, 2, 4 clients), for each variant.
        var points = await throughput.EvaluateAsync<int[]>("plot => plot.data.filter(t => t.visible !== 'legendonly').map(t => t.x.length)");
        Assert.Equal([3, 3], points);
        await Expect(page.GetByTestId("level-table")).ToContainTextAsync("AspNetH2BinXml");
        using var csv = await _app.Http.GetAsync($"/api/runs/{id}/levels.csv");
        Assert.Equal(1 + 6, (await csv.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    /// <summary>
    /// Issue #35's "Done when": an open sweep made on New run only by clicking and typing (open workload, two rates of 1 s,
    /// a p99 target), queued, run by the real runner on the real host; its run page draws the latency-vs-throughput curve
    /// (a point per rate, x in requests/s, y in ms) and names the highest rate meeting the target, with late starts and
    /// drops in the table. The shared dashboard fixture runs a fake runner without a host, so this class's real one it is.
    /// </summary>
    [Fact]
    public async Task NewRunPage_OpenSweepClickedAndQueued_RunPageDrawsTheCurveAndNamesTheHighestRateMeetingTheTarget()
    {
        await using var context = await NewContextAsync(1280, 900);
        var page = await context.NewPageAsync();
        await page.GotoAsync("runs/new");

        await page.GetByTestId("name").FillAsync("open sweep from the browser");
        await page.GetByTestId("variant-AspNetHttpJson").CheckAsync();
        await page.GetByTestId("client-dotnet").CheckAsync();
        await page.GetByTestId("payload-Int").CheckAsync();
        await page.GetByTestId("workload-open").ClickAsync();
        await Expect(page.GetByTestId("workload-note")).ToContainTextAsync("measured time");
        await FillAsync(page, "#rates", "100, 200");
        await FillAsync(page, "#p99-target", "250");
        await FillAsync(page, "#duration", "1");
        await FillAsync(page, "#repetitions", "1");
        await Expect(page.GetByTestId("summary")).ToHaveTextAsync("1 cell (variant × client × payload) × 2 rates × 1 repetition = 2 level runs");
        await page.GetByTestId("queue-run").ClickAsync();

        await Expect(page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex(@"/runs/\d+$"));
        var id = int.Parse(page.Url.Split('/')[^1], System.Globalization.CultureInfo.InvariantCulture);
        // The run ends (2 rates × (warm-up + 1 s) plus the runner's start): wait for that, not for a time.
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync(new System.Text.RegularExpressions.Regex("Completed|Failed|Cancelled|Interrupted"), new() { Timeout = 180_000 });
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed");

        var chart = page.GetByTestId("open-sweep");
        await Expect(chart.Locator(".main-svg").First).ToBeVisibleAsync();
        // p50, p99 and p99.9 of the one cell: a point per rate each; the target's line beside them.
        var traces = await chart.EvaluateAsync<string[]>("plot => plot.data.map(t => t.name + ':' + t.x.length)");
        Assert.Equal(["AspNetHttpJson × dotnet × Int p50:2", "AspNetHttpJson × dotnet × Int p99:2", "AspNetHttpJson × dotnet × Int p99.9:2", "p99 target 250 ms:2"], traces);
        var axes = await chart.EvaluateAsync<string[]>("plot => [plot.layout.xaxis.title.text, plot.layout.yaxis.title.text]");
        Assert.Contains("requests/s", axes[0], StringComparison.Ordinal);
        Assert.Contains("(ms)", axes[1], StringComparison.Ordinal);
        // The highest rate meeting the target as the API computes it from the stored levels, named on the page.
        var sweep = await _app.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/open-sweep");
        var highest = sweep.GetProperty("curves")[0].GetProperty("highestRateMeetingTarget");
        var named = highest.ValueKind == JsonValueKind.Null ? "none" : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{highest.GetInt32():N0} req/s");
        var answer = $"Highest rate with p99 ≤ 250 ms and nothing dropped — AspNetHttpJson × dotnet × Int: {named}";
        await Expect(page.GetByTestId("open-sweep-highest")).ToContainTextAsync(answer);
        await Expect(page.GetByTestId("open-sweep-caption")).ToContainTextAsync(answer);
        var table = page.GetByTestId("level-table");
        await Expect(table.Locator("th", new() { HasText = "Offered rate (req/s)" })).ToHaveCountAsync(1);
        await Expect(table.Locator("th", new() { HasText = "Late starts" })).ToHaveCountAsync(1);
        await Expect(table.Locator("th", new() { HasText = "Dropped" })).ToHaveCountAsync(1);
        await Expect(table.Locator("tbody tr.mud-table-row")).ToHaveCountAsync(2);
    }

    // Types into a field as a user does and leaves it (Tab), so the field's change reaches the page.
    private static async Task FillAsync(IPage page, string selector, string text)
    {
        await page.Locator(selector).FillAsync(text);
        await page.Locator(selector).PressAsync("Tab");
    }

    /// <summary>A browser context on this class's dashboard, signed in by its headers, at the given viewport (px), 30 s per step.</summary>
    private async Task<IBrowserContext> NewContextAsync(int width, int height)
    {
        var context = await _browser.NewContextAsync(new BrowserNewContextOptions
        {
            BaseURL = _app.BaseAddress.ToString(),
            ExtraHTTPHeaders = _app.BrowserHeaders,
            ViewportSize = new ViewportSize { Width = width, Height = height },
        });
        context.SetDefaultTimeout(30_000);
        return context;
    }
}
