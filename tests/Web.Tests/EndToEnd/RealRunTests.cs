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

        await using var context = await _browser.NewContextAsync(new BrowserNewContextOptions
        {
            BaseURL = _app.BaseAddress.ToString(),
            ExtraHTTPHeaders = _app.BrowserHeaders,
            ViewportSize = new ViewportSize { Width = 1400, Height = 1000 },
        });
        context.SetDefaultTimeout(30_000);
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
}
