using Dashboard.Web.Auth;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Auth;

/// <summary>The pages under the Content-Security-Policy (src/Web/Auth/SecurityHeaders.cs) in Chromium: MudBlazor, Plotly and the circuit work, with no console error.</summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class SecurityHeadersTests(BrowserFixture fixture) : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    // The shared browser keeps no page of this test.
    public Task DisposeAsync() => fixture.CloseContextsAsync();

    [Fact]
    public async Task Pages_HomeRunWithChartsNewRun_LoadUnderTheCspWithoutConsoleErrors()
    {
        var id = Seed.ResultsRun(fixture.App.DatabasePath);
        var page = await fixture.NewPageAsync();
        var errors = new List<string>();
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                errors.Add($"{page.Url}: {message.Text}");
            }
        };
        page.PageError += (_, error) => errors.Add($"{page.Url}: {error}");

        var home = await page.GotoAsync("");
        Assert.Contains(SecurityHeaders.ContentSecurityPolicy, (await home!.AllHeadersAsync())["content-security-policy"], StringComparison.Ordinal);
        await Expect(page.Locator(".mud-nav-link", new() { HasText = "Tokens" })).ToBeVisibleAsync();
        await page.GotoAsync($"runs/{id}");
        await Expect(page.GetByTestId("throughput-unsecure").Locator(".main-svg").First).ToBeVisibleAsync();
        await page.GotoAsync("runs/new");
        await Expect(page.GetByRole(AriaRole.Heading, new() { Level = 1 })).ToBeVisibleAsync();
        await page.WaitForTimeoutAsync(1000);

        Assert.True(errors.Count == 0, string.Join("\n", errors));
    }
}
