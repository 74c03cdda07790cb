using System.Text.RegularExpressions;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Layout;

/// <summary>
/// The app frame and every page (Home, New run, Queue, Hosts, a run, a comparison, an unknown address) in Chromium at a
/// phone width and at laptop and desktop widths: no sideways overflow, no table header cut, chart titles inside their
/// plot boxes, the drawer collapsed on phones; unknown addresses answer the app's own page. Screenshots for docs/ on request (<c>DASHBOARD_SCREENSHOT_DIR</c>).
/// </summary>
public sealed partial class AppFrameTests(BrowserFixture fixture) : IClassFixture<BrowserFixture>
{
    [Theory]
    [InlineData(390, 844)]
    [InlineData(1280, 800)]
    [InlineData(1920, 1080)]
    public async Task Pages_AtWidth_NoSidewaysOverflowNoCutHeaderChartTitlesInTheirBoxes(int width, int height)
    {
        var first = Seed.ResultsRun(fixture.App.DatabasePath);
        var second = Seed.ResultsRun(fixture.App.DatabasePath, throughputFactor: 1.1);
        var page = await fixture.NewPageAsync(width, height);
        foreach (var (path, name, charts) in new[]
                 {
                     ("", "home", false), ("runs/new", "new-run", false), ("queue", "queue", false), ("hosts", "hosts", false),
                     ($"runs/{first}", null, true), ($"compare?runs={first},{second}", null, true), ("nope", "not-found", false),
                 })
        {
            await page.GotoAsync(path);
            await Expect(page.GetByRole(AriaRole.Heading, new() { Level = 1 })).ToBeVisibleAsync();
            if (charts)
            {
                await Expect(page.Locator(".js-plotly-plot .main-svg").First).ToBeVisibleAsync();
                await AssertChartTitlesInsideAsync(page, $"/{path} at {width} px");
            }

            await page.WaitForTimeoutAsync(500); // the grids lay out after the first render

            var (scrollWidth, innerWidth) = await Widths(page);
            Assert.True(scrollWidth <= innerWidth, $"/{path} at {width} px: the document is {scrollWidth} px wide, the window {innerWidth} px; " +
                string.Join(", ", await page.EvaluateAsync<string[]>(
                    "() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 8).map(e => `${e.tagName}.${e.className.baseVal ?? e.className} to ${Math.round(e.getBoundingClientRect().right)} px`)")));
            var cut = await page.EvaluateAsync<string[]>(
                "() => [...document.querySelectorAll('th')].filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.textContent.trim())");
            Assert.True(cut.Length == 0, $"/{path} at {width} px: table headers cut: {string.Join(", ", cut)}");
            if (width >= 1280 && !charts)
            {
                // At laptop widths and up every table fits its box: nothing to scroll sideways inside a grid either
                // (the run and compare pages' level tables scroll inside their box, their headers whole).
                var scrolled = await page.EvaluateAsync<int>("() => [...document.querySelectorAll('.mud-table-container')].filter(c => c.scrollWidth > c.clientWidth + 1).length");
                Assert.True(scrolled == 0, $"/{path} at {width} px: {scrolled} table(s) wider than their box");
            }

            if (name is not null)
            {
                await Screenshots.SaveAsync(page, $"screenshot-{name}-{width}.png");
            }
        }
    }

    [Fact]
    public async Task Drawer_PhoneWidth_CollapsedUntilTheMenuIsTapped()
    {
        var page = await fixture.NewPageAsync(390, 844);
        await page.GotoAsync("");
        await Expect(page.GetByRole(AriaRole.Heading, new() { Level = 1 })).ToBeVisibleAsync();
        var home = page.Locator(".mud-drawer .mud-nav-link", new() { HasText = "Hosts" });

        await Expect(home).Not.ToBeInViewportAsync();
        // MudBlazor sets the drawer from the window's breakpoint once its script has measured it; on a loaded machine that
        // can land just after a first tap and close the drawer again, so a tap that opened nothing is repeated (a user
        // taps again too). The drawer must open within three taps.
        var opened = false;
        for (var tap = 0; tap < 3 && !opened; tap++)
        {
            await page.GetByTestId("nav-toggle").ClickAsync();
            opened = await Eventually.HoldsAsync(async () => await home.EvaluateAsync<bool>(
                "el => { const r = el.getBoundingClientRect(); return r.right > 0 && r.left < window.innerWidth && r.width > 0; }"), TimeSpan.FromSeconds(10));
        }

        Assert.True(opened, "the drawer did not open after three taps on the menu");
        await Expect(home).ToBeInViewportAsync();
    }

    [Fact]
    public async Task Drawer_LaptopWidth_OpenBesideTheContent()
    {
        var page = await fixture.NewPageAsync(1280, 800);
        await page.GotoAsync("");

        await Expect(page.Locator(".mud-drawer .mud-nav-link", new() { HasText = "Hosts" })).ToBeInViewportAsync();
    }

    [Theory]
    [InlineData("nope")]
    [InlineData("runs/abc")]
    public async Task UnknownAddress_Answers404WithTheAppsOwnPage(string path)
    {
        using var response = await fixture.App.Http.GetAsync(path);
        Assert.Equal(System.Net.HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);

        var page = await fixture.NewPageAsync();
        await page.GotoAsync(path);
        await Expect(page.GetByTestId("not-found")).ToHaveTextAsync("Nothing is at this address");
        await Expect(page.GetByRole(AriaRole.Link, new() { Name = "Home" }).First).ToBeVisibleAsync();
    }

    [Fact]
    public async Task UnknownApiAddress_KeepsProblemDetails()
    {
        using var response = await fixture.App.Http.GetAsync("api/nope");

        Assert.Equal(System.Net.HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task Hosts_AddThenRemove_GoneFromThePageAndTheFile()
    {
        var page = await fixture.NewPageAsync(1280, 900);
        await page.GotoAsync("hosts");

        await page.GetByTestId("new-host").FillAsync("http://bench-b.invalid:5090");
        await page.Locator("#new-host-token").FillAsync("bench-b-token-0123456789");
        await page.GetByTestId("add-host").ClickAsync();
        await Expect(page.GetByTestId("host-bench-b.invalid:5090")).ToBeVisibleAsync();
        await Expect(page.GetByTestId("checked-bench-b.invalid:5090")).ToHaveTextAsync(TimeOfDay(), new() { Timeout = 60_000 });
        Assert.Contains("bench-b.invalid", await File.ReadAllTextAsync(Path.Combine(fixture.App.DataFolder, "hosts.json")), StringComparison.Ordinal);

        await page.GetByTestId("remove-bench-b.invalid:5090").ClickAsync();
        await page.Locator(".mud-dialog").GetByRole(AriaRole.Button, new() { Name = "Remove", Exact = true }).ClickAsync();

        await Expect(page.GetByTestId("host-bench-b.invalid:5090")).ToHaveCountAsync(0);
        Assert.DoesNotContain("bench-b.invalid", await File.ReadAllTextAsync(Path.Combine(fixture.App.DataFolder, "hosts.json")), StringComparison.Ordinal);
    }

    private static async Task<(int ScrollWidth, int InnerWidth)> Widths(IPage page)
    {
        var widths = await page.EvaluateAsync<int[]>("() => [document.scrollingElement.scrollWidth, window.innerWidth]");
        return (widths[0], widths[1]);
    }

    // Every chart's title (each of its lines) and axis titles lie inside the chart's plot box, once the charts have laid
    // themselves out at their box's width; the message names the charts whose titles stick out.
    private static async Task AssertChartTitlesInsideAsync(IPage page, string where)
    {
        const string outside = """
            () => [...document.querySelectorAll('.js-plotly-plot')].flatMap(g => {
                const box = g.getBoundingClientRect();
                return [...g.querySelectorAll('.gtitle, .xtitle, .ytitle')]
                    .map(t => [t, t.getBoundingClientRect()])
                    .filter(([t, r]) => r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1))
                    .map(([t, r]) => `${t.textContent} (${Math.round(r.left)}..${Math.round(r.right)} px, box ${Math.round(box.left)}..${Math.round(box.right)} px)`);
            })
            """;
        try
        {
            await page.WaitForFunctionAsync($"() => ({outside})().length === 0 && document.querySelectorAll('.js-plotly-plot .gtitle').length > 0", null, new() { Timeout = 30_000 });
        }
        catch (TimeoutException)
        {
            // Reported below with the titles that stick out.
        }

        var titles = await page.EvaluateAsync<string[]>(outside);
        Assert.True(titles.Length == 0, $"{where}: chart titles outside their plot box: {string.Join("; ", titles)}");
    }

    [GeneratedRegex(@"^\d\d:\d\d:\d\d$")]
    private static partial Regex TimeOfDay();
}
