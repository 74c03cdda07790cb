using Microsoft.Playwright;

namespace Dashboard.Web.Tests.Support;

/// <summary>
/// A dashboard and Debian's Chromium driven by Playwright (never a downloaded browser): headless, no sandbox, no GPU,
/// no background networking. A class fixture for a test class that needs a dashboard of its own, or the collection
/// fixture of <see cref="SharedDashboardGroup"/>.
/// </summary>
public sealed class BrowserFixture : IAsyncLifetime
{
    /// <summary>Debian's Chromium.</summary>
    public const string ChromiumPath = "/usr/bin/chromium";

    private readonly List<IBrowserContext> _contexts = [];
    private IPlaywright? _playwright;

    /// <summary>The dashboard.</summary>
    public WebApp App { get; private set; } = null!;

    /// <summary>The browser.</summary>
    public IBrowser Browser { get; private set; } = null!;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        // Assertions wait up to 60 s (PlaywrightDefaults, set when the assembly loads). Share links, account set-up and
        // sign-in are limited to 5 a minute from one address (SignInTests tests that limit): the classes sharing this
        // dashboard (SharedDashboardGroup) open more than one person would, so the limit is out of their way.
        App = await WebApp.StartAsync(null, null, "--Dashboard:Auth:SignInPermitsPerMinute=1000");
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
        lock (_contexts)
        {
            _contexts.Add(context);
        }

        return await context.NewPageAsync();
    }

    /// <summary>
    /// Closes the browser contexts <see cref="NewPageAsync"/> made so far (their pages and the dashboard circuits behind
    /// them): a test class of <see cref="SharedDashboardGroup"/> calls it when each test ends, so the shared browser and
    /// dashboard do not carry the pages of every earlier test.
    /// </summary>
    public async Task CloseContextsAsync()
    {
        IBrowserContext[] open;
        lock (_contexts)
        {
            open = [.. _contexts];
            _contexts.Clear();
        }

        foreach (var context in open)
        {
            await context.CloseAsync();
        }
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

/// <summary>
/// Test classes that share one dashboard and one Chromium (<see cref="BrowserFixture"/>) instead of starting their own
/// (a dashboard start, its first circuit and a browser launch per class): each test seeds its own runs (or users, or
/// shares) and checks only those; none checks a list of everything (the queue, the compare picker, hosts, presets on
/// Home), changes the dashboard's settings or needs a fresh database; and only RunPageTests queues runs, which it cancels.
/// A class that does any of that keeps a <see cref="BrowserFixture"/> of its own (<c>IClassFixture</c>). The classes
/// run one after the other, as every class of this assembly does (AssemblyInfo.cs).
/// </summary>
[CollectionDefinition(Name)]
public sealed class SharedDashboardGroup : ICollectionFixture<BrowserFixture>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Shared dashboard and Chromium";
}
