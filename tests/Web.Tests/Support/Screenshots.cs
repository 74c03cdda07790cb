using Microsoft.Playwright;

namespace Dashboard.Web.Tests.Support;

/// <summary>
/// Screenshots for docs/, taken on request only: <c>DASHBOARD_SCREENSHOT_DIR=docs dotnet test tests/Web.Tests</c>
/// (the tests that call this write their pictures there; without the variable nothing is written).
/// </summary>
public static class Screenshots
{
    /// <summary>
    /// Saves <paramref name="name"/>: the whole page, or the part from the top of <paramref name="from"/> (the page's
    /// top when null) to the bottom of <paramref name="to"/>.
    /// </summary>
    public static async Task SaveAsync(IPage page, string name, ILocator? from = null, ILocator? to = null)
    {
        ArgumentNullException.ThrowIfNull(page);
        var directory = Environment.GetEnvironmentVariable("DASHBOARD_SCREENSHOT_DIR");
        if (string.IsNullOrEmpty(directory))
        {
            return;
        }

        await page.WaitForTimeoutAsync(1500); // let plotly finish its transitions before the picture
        var options = new PageScreenshotOptions { Path = Path.Combine(directory, name), FullPage = true };
        if (to is not null)
        {
            var top = from is null ? 0 : (await from.BoundingBoxAsync())!.Y - 10;
            var bottom = await to.BoundingBoxAsync();
            var width = page.ViewportSize?.Width ?? 1400;
            options.Clip = new Clip { X = 0, Y = Math.Max(0, top), Width = width, Height = bottom!.Y + bottom.Height + 20 - Math.Max(0, top) };
        }

        await page.ScreenshotAsync(options);
    }
}
