using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages.Account;

/// <summary>The sign-in page (AccountLayout: MudBlazor's theme on a static form) in Chromium at a phone's width, without an account.</summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class AccountLayoutTests(BrowserFixture fixture) : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    // The shared browser keeps no page of this test.
    public Task DisposeAsync() => fixture.CloseContextsAsync();

    [Fact]
    public async Task SignInPage_At390Px_ThemedNoSidewaysOverflowNoConsoleError()
    {
        await using var context = await fixture.Browser.NewContextAsync(new BrowserNewContextOptions
        {
            BaseURL = fixture.App.BaseAddress.ToString(),
            ViewportSize = new ViewportSize { Width = 390, Height = 844 },
        });
        var page = await context.NewPageAsync();
        var errors = new List<string>();
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                errors.Add(message.Text);
            }
        };

        await page.GotoAsync("account/login?error=failed");
        var button = page.Locator("form[data-testid=login-form] button[type=submit]");
        await Expect(button).ToBeVisibleAsync();

        var widths = await page.EvaluateAsync<int[]>("() => [document.documentElement.scrollWidth, innerWidth]");
        Assert.True(widths[0] <= widths[1], $"the sign-in page is {widths[0]} px wide at {widths[1]} px");
        // The button takes MudBlazor's primary colour (the theme's variables are there), not the browser's grey.
        var background = await button.EvaluateAsync<string>("b => getComputedStyle(b).backgroundColor");
        var primary = await page.EvaluateAsync<string>("() => getComputedStyle(document.documentElement).getPropertyValue('--mud-palette-primary').trim()");
        Assert.False(string.IsNullOrEmpty(primary), "no MudBlazor theme variables on the sign-in page");
        Assert.NotEqual("rgb(239, 239, 239)", background);
        Assert.Empty(errors);
    }
}
