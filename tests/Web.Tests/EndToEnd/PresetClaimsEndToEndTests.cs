using System.Diagnostics;
using System.Text.RegularExpressions;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using Xunit.Abstractions;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// Issue #27 end to end, everything real: a user queues the Ice paper's quick preset (Java part) from its card on Home;
/// the built dashboard starts the built runner, whose Java driver calls the real service host (aspnet, Metro and Ice in
/// the JVM); the run page's claims panel then shows a verdict with its reason for each claim, and a verdict's link
/// leads to the chart behind it. The cheapest quick preset with a claim that is not "not measurable here": its
/// wire-byte claims are counted, so they are decided even on a busy machine.
/// </summary>
public sealed partial class PresetClaimsEndToEndTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const string Preset = "preset-4-ice-paper-java-quick.json";
    private static readonly string[] VerdictTexts = ["holds", "does not hold", "inconclusive", "not measured in these runs", "not measurable here"];
    private ServiceHostProcess _host = null!;
    private WebApp _app = null!;
    private IPlaywright _playwright = null!;
    private IBrowser _browser = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        // The JVM starts while the dashboard and the browser do; the runner waits for a starting stack (/healthz).
        _host = await ServiceHostProcess.StartJvmStartingAsync();
        var playwright = Playwright.CreateAsync();
        // Other test assemblies run real runners at the same time: this dashboard's runner gets its own TMPDIR (its own
        // machine lock), and a busy machine is retried soon anyway.
        _tmp = Directory.CreateTempSubdirectory("e2e-claims-tmp-").FullName;
        var root = WebApp.NewRoot();
        File.Copy(Path.Combine(RepositoryPaths.Root, "examples", Preset), Path.Combine(root, "presets", Preset));
        _app = await WebApp.StartAsync(root, new Dictionary<string, string> { ["TMPDIR"] = _tmp },
        [
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:Runner:BusyRetryDelay=00:00:02",
            // The preset names localhost:5090; queued from its card it runs on the dashboard's local host: this one.
            $"--Dashboard:LocalHost:Address={_host.ControlAddress.ToString().TrimEnd('/')}",
        ]);
        _playwright = await playwright;
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
    public async Task QueuePresetFromItsCard_RealRun_ClaimsPanelShowsVerdictsLinkingToTheirCharts()
    {
        var clock = Stopwatch.StartNew();
        await using var context = await _browser.NewContextAsync(new BrowserNewContextOptions
        {
            BaseURL = _app.BaseAddress.ToString(),
            ExtraHTTPHeaders = _app.BrowserHeaders,
            ViewportSize = new ViewportSize { Width = 1400, Height = 1000 },
        });
        context.SetDefaultTimeout(30_000);
        var page = await context.NewPageAsync();
        await page.GotoAsync("");
        await Expect(page.GetByTestId("preset-claims-4")).ToContainTextAsync("not run here yet");

        // As a user: the preset card's Queue button, then its run page.
        await page.GetByTestId($"queue-{Preset}").ClickAsync();
        await Expect(page).ToHaveURLAsync(RunPage());
        // The test output says how long it took; on a machine shared with builds it once needed more than 4 minutes.
        await Expect(page.GetByTestId("run-status")).ToHaveTextAsync("Completed", new() { Timeout = 480_000 });
        output.WriteLine($"run completed after {clock.Elapsed.TotalSeconds:0} s");

        await page.GetByText("Claims of the source documents: verdicts").ClickAsync();
        var rows = page.Locator("tr[data-claim]");
        await Expect(rows.First).ToBeVisibleAsync();
        var count = await rows.CountAsync();
        Assert.True(count >= 5, $"{count} claims shown; the Ice paper has five");
        var decided = 0;
        for (var i = 0; i < count; i++)
        {
            var row = rows.Nth(i);
            var verdict = (await row.Locator("a.claim-verdict").InnerTextAsync()).Trim();
            var reason = (await row.Locator(".claim-reason").InnerTextAsync()).Trim();
            output.WriteLine($"{await row.GetAttributeAsync("data-claim")}: {verdict}: {reason}");
            Assert.Contains(verdict, VerdictTexts);
            Assert.False(string.IsNullOrWhiteSpace(reason), $"claim {i} has no reason");
            decided += verdict == "not measurable here" ? 0 : 1;
        }

        Assert.True(decided > 0, "every claim was 'not measurable here'");

        // Counted bytes: SOAP 1.1 vs FastInfoset is decided (holds or not), with each side's bytes and the levels behind it.
        var bytes = page.Locator("tr[data-claim='ice-paper-xml-twice-binary-bytes']");
        Assert.Contains(await bytes.GetAttributeAsync("data-verdict"), new[] { "Holds", "DoesNotHold" });
        await Expect(bytes.Locator(".claim-figures")).ToContainTextAsync("bytes on the wire per round trip");
        Assert.Contains("MetroSoap11FastInfoset × java", await bytes.Locator(".claim-levels").GetAttributeAsync("title"), StringComparison.Ordinal);

        // Its link: the wire-bytes chart of the run with every level shown, scrolled into view.
        await bytes.Locator("a.claim-verdict").ClickAsync();
        await Expect(page).ToHaveURLAsync(WireBytesChart());
        await Expect(page.Locator("#chart-wire-bytes")).ToBeInViewportAsync();
        await Expect(page.Locator("#chart-wire-bytes .main-svg").First).ToBeVisibleAsync();

        // Home's card now counts the verdicts of that run and links to its claims panel.
        await page.GotoAsync("");
        var summary = page.GetByTestId("preset-claims-link-4");
        await Expect(summary).ToHaveTextAsync(VerdictCounts());
        Assert.Matches(ClaimsPanelLink(), await summary.GetAttributeAsync("href"));
        output.WriteLine($"test body took {clock.Elapsed.TotalSeconds:0} s");
    }

    [GeneratedRegex(@"/runs/\d+\?levels=all$")]
    private static partial Regex RunPage();

    [GeneratedRegex(@"/runs/\d+\?levels=all(&payload=[^#]+)?#chart-wire-bytes$")]
    private static partial Regex WireBytesChart();

    [GeneratedRegex(@"^\d+ (holds?|does not|do not|inconclusive|not measured)")]
    private static partial Regex VerdictCounts();

    [GeneratedRegex(@"^/runs/\d+\?claims=open&preset=4#claims$")]
    private static partial Regex ClaimsPanelLink();
}
