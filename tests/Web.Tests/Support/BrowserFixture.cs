using Microsoft.Playwright;

namespace Dashboard.Web.Tests.Support;

/// <summary>
/// A dashboard and Debian's Chromium driven by Playwright (never a downloaded browser): headless, no sandbox, no GPU,
/// no background networking.
/// </summary>
public sealed class BrowserFixture : IAsyncLifetime
{
    /// <summary>Debian's Chromium.</summary>
    public const string ChromiumPath = "/usr/bin/chromium";

    private IPlaywright? _playwright;

    /// <summary>The dashboard.</summary>
    public WebApp App { get; private set; } = null!;

    /// <summary>The browser.</summary>
    public IBrowser Browser { get; private set; } = null!;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        // Assertions wait up to 60 s (PlaywrightDefaults, set when the assembly loads).
        App = await WebApp.StartAsync();
        _playwright = await Playwright.CreateAsync();
        Browser = await LaunchAsync(_playwright);
    }

    /// <summary>Debian's Chromium, headless, as this fixture launches it (for tests that start a dashboard of their own).</summary>
    public static Task<IBrowser> LaunchAsync(IPlaywright playwright)
    {
        ArgumentNullException.ThrowIfNull(playwright);
        Dashboard.Tests.RealProcesses.ProcessStarts.Record("chromium");
        return playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = ChromiumPath,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
        });
    }

    /// <summary>A new page on the dashboard with generous timeouts (2-core machine).</summary>
    public async Task<IPage> NewPageAsync(int width = 1400, int height = 1000)
    {
        var context = await Browser.NewContextAsync(new BrowserNewContextOptions
        {
            BaseURL = App.BaseAddress.ToString(),
            ExtraHTTPHeaders = App.BrowserHeaders,
            ViewportSize = new ViewportSize { Width = width, Height = height },
        });
        context.SetDefaultTimeout(30_000);
        context.SetDefaultNavigationTimeout(60_000);
        return await context.NewPageAsync();
    }

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        await Browser.CloseAsync();
        _playwright?.Dispose();
        var root = App.Root;
        await App.DisposeAsync();
        WebApp.DeleteRoot(root);
    }
}
