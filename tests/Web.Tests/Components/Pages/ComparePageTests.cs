using Dashboard.Web.Tests.Support;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages;

/// <summary>The compare page in Chromium: two seeded runs, the second 10 % faster, opened from a permalink.</summary>
public sealed class ComparePageTests(BrowserFixture fixture) : IClassFixture<BrowserFixture>
{
    [Fact]
    public async Task Compare_PermalinkOfTwoRuns_ShowsRelativeDifferencesAgainstTheFirst()
    {
        var baseline = Seed.ResultsRun(fixture.App.DatabasePath);
        var faster = Seed.ResultsRun(fixture.App.DatabasePath, throughputFactor: 1.1);
        var page = await fixture.NewPageAsync();

        await page.GotoAsync($"compare?runs={baseline},{faster}");

        var table = page.GetByTestId("compare-deltas");
        await Expect(table).ToContainTextAsync($"#{baseline} (base)");
        // 4 cells × 2 payloads × 2 levels from 20 clients on: every throughput +10 %, every mean response time 1/1.1 − 1 = −9.1 %.
        var text = await table.InnerTextAsync();
        Assert.Equal(16, Count(text, "(+10.0 %)"));
        Assert.Equal(16, Count(text, "(-9.1 %)"));
        await Expect(page.GetByTestId("compare-table")).ToContainTextAsync("+10.0 %");
        await Expect(page.GetByTestId("compare-throughput").Locator(".main-svg").First).ToBeVisibleAsync();
        await Screenshots.SaveAsync(page, "screenshot-compare.png", to: table);

        // All levels: the 1- and 10-client levels join the table, and the link keeps the choice.
        await page.GetByTestId("compare-all-levels").CheckAsync();
        await page.WaitForURLAsync(url => url.Contains("levels=all", StringComparison.Ordinal));
        await Expect(table).ToContainTextAsync("(+10.0 %)");
        Assert.True(await Support.Eventually.HoldsAsync(async () => Count(await table.InnerTextAsync(), "(+10.0 %)") == 32));
    }

    private static int Count(string text, string what)
    {
        var count = 0;
        for (var i = text.IndexOf(what, StringComparison.Ordinal); i >= 0; i = text.IndexOf(what, i + what.Length, StringComparison.Ordinal))
        {
            count++;
        }

        return count;
    }
}
