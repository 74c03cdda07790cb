using System.Text.RegularExpressions;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Layout;

/// <summary>
/// The app frame and the pages of Home, New run and Hosts in Chromium at a phone width and at laptop and desktop
/// widths: no sideways overflow, no table header cut, the drawer collapsed on phones; unknown addresses answer the
/// app's own page. Screenshots for docs/ on request (<c>DASHBOARD_SCREENSHOT_DIR</c>).
/// </summary>
public sealed partial class AppFrameTests(BrowserFixture fixture) : IClassFixture<BrowserFixture>
{
    [Theory]
    [InlineData(390, 844)]
    [InlineData(1280, 800)]
    [InlineData(1920, 1080)]
    public async Task Pages_AtWidth_NoSidewaysOverflowNoCutHeader(int width, int height)
    {
        var page = await fixture.NewPageAsync(width, height);
        foreach (var (path, name) in new[] { ("", "home"), ("runs/new", "new-run"), ("hosts", "hosts"), ("nope", "not-found") })
        {
            await page.GotoAsync(path);
            await Expect(page.GetByRole(AriaRole.Heading, new() { Level = 1 })).ToBeVisibleAsync();
            await page.WaitForTimeoutAsync(500); // the grids lay out after the first render

            var (scrollWidth, innerWidth) = await Widths(page);
            Assert.True(scrollWidth <= innerWidth, $"/{path} at {width} px: the document is {scrollWidth} px wide, the window {innerWidth} px");
            var cut = await page.EvaluateAsync<string[]>(
                "() => [...document.querySelectorAll('th')].filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.textContent.trim())");
            Assert.True(cut.Length == 0, $"/{path} at {width} px: table headers cut: {string.Join(", ", cut)}");
            if (width >= 1280)
            {
                // At laptop widths and up every table fits its box: nothing to scroll sideways inside a grid either.
                var scrolled = await page.EvaluateAsync<int>("() => [...document.querySelectorAll('.mud-table-container')].filter(c => c.scrollWidth > c.clientWidth + 1).length");
                Assert.True(scrolled == 0, $"/{path} at {width} px: {scrolled} table(s) wider than their box");
            }

            await Screenshots.SaveAsync(page, $"screenshot-{name}-{width}.png");
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
        await page.GetByTestId("nav-toggle").ClickAsync();
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
        var widths = await page.EvaluateAsync<int[]>("() => [document.documentElement.scrollWidth, window.innerWidth]");
        return (widths[0], widths[1]);
    }

    [GeneratedRegex(@"^\d\d:\d\d:\d\d$")]
    private static partial Regex TimeOfDay();
}
