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
        Assert.Equal(16, Count(text, "+10.0 %"));
        Assert.Equal(16, Count(text, "-9.1 %"));
        await Expect(page.GetByTestId("compare-table")).ToContainTextAsync("+10.0 %");
        await Expect(page.GetByTestId("compare-throughput").Locator(".main-svg").First).ToBeVisibleAsync();
        await Screenshots.SaveAsync(page, "screenshot-compare.png", to: table);
        // The runs are named with name and date, not "#3" alone.
        await Expect(page.GetByRole(Microsoft.Playwright.AriaRole.Heading, new() { NameRegex = new System.Text.RegularExpressions.Regex($"against #{baseline} .*\\(\\d{{4}}-\\d\\d-\\d\\d") })).ToBeVisibleAsync();

        // All levels: the 1- and 10-client levels join the table, and the link keeps the choice.
        await page.GetByText("all levels (else from 20 clients on)").ClickAsync();
        await Expect(page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex("levels=all"));
        await Expect(table).ToContainTextAsync("+10.0 %");
        Assert.True(await Support.Eventually.HoldsAsync(async () => Count(await table.InnerTextAsync(), "+10.0 %") == 32));
    }

    [Fact]
    public async Task Compare_TwoRunsPickedInThePicker_ChartsAndBaselineChoice()
    {
        var first = Seed.ResultsRun(fixture.App.DatabasePath);
        var second = Seed.ResultsRun(fixture.App.DatabasePath, throughputFactor: 1.1);
        var page = await fixture.NewPageAsync(1280, 900);
        await page.GotoAsync("compare");
        await Expect(page.GetByTestId("compare-empty")).ToBeVisibleAsync();

        // Pick both runs from the list (name and date shown), in order; PickAsync says how a pick lost to a redraw is retried.
        foreach (var id in new[] { first, second })
        {
            await PickAsync(page, "Runs", new System.Text.RegularExpressions.Regex($"^\\s*#{id} results views.* · \\d{{4}}-\\d\\d-\\d\\d"),
                new System.Text.RegularExpressions.Regex($"runs=([0-9]+(,|%2C))?{id}(&|$)"));
        }

        await Expect(page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex($"runs={first}(,|%2C){second}"));
        await Expect(page.GetByTestId("compare-throughput").Locator(".main-svg").First).ToBeVisibleAsync();
        await Expect(page.GetByTestId("compare-deltas")).ToContainTextAsync("+10.0 %");

        // The same case has the same colour in both runs; the legend is grouped by run.
        var colours = await page.GetByTestId("compare-throughput").EvaluateAsync<string[]>(
            "el => el.data.filter(t => t.name.endsWith('AspNetHttpJson × dotnet × Int')).map(t => t.line.color)");
        Assert.Equal(2, colours.Length);
        Assert.Equal(colours[0], colours[1]);
        var groups = await page.GetByTestId("compare-throughput").EvaluateAsync<string[]>("el => [...new Set(el.data.filter(t => t.legendgroup).map(t => t.legendgroup))]");
        Assert.Equal(2, groups.Length);

        // The second run as baseline: the first is now 1/1.1 − 1 = −9.1 % slower.
        await PickAsync(page, "Baseline", new System.Text.RegularExpressions.Regex($"^\\s*#{second} "), new System.Text.RegularExpressions.Regex($"base={second}"));
        await Expect(page.GetByTestId("compare-deltas")).ToContainTextAsync($"#{second} (base)");
        await Expect(page.GetByTestId("compare-deltas")).ToContainTextAsync("-9.1 %");
        // At 1280 px every table (Δ, ranking, the claims' tables) shows all its headers or says that it scrolls.
        var cues = await ScrollCues.AssertEveryHeaderVisibleOrCuedAsync(page);
        Assert.Contains(cues, c => c.Id == "compare-deltas-cue");
        Assert.Contains(cues, c => c.Id == "compare-table-cue");
        await Screenshots.SaveAsync(page, "screenshot-compare-1280.png");
        await page.SetViewportSizeAsync(1920, 1080);
        await Screenshots.SaveAsync(page, "screenshot-compare-1920.png");
        await page.SetViewportSizeAsync(390, 844);
        await Screenshots.SaveAsync(page, "screenshot-compare-390.png");
    }

    [Fact]
    public async Task Compare_ImportedRunAndItsRerun_BothEnvironmentsSideBySide()
    {
        // A bundle of a run measured on another machine, imported through the API.
        var source = Seed.Run(fixture.App.DatabasePath, Dashboard.Data.Entities.RunStatus.Completed, levels: 2, samplesPerLevel: 5,
            environmentJson: """{"runtime": ".NET 10.0.3", "cpuModel": "Paper CPU 9000", "machineCores": 64, "machineName": "paper-box", "osDescription": "Debian GNU/Linux 12 (bookworm)"}""");
        using var export = await fixture.App.Http.GetAsync($"/api/runs/{source}/bundle");
        Assert.Equal(System.Net.HttpStatusCode.OK, export.StatusCode);
        using var content = new System.Net.Http.ByteArrayContent(await export.Content.ReadAsByteArrayAsync());
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/zip");
        using var imported = await fixture.App.Http.PostAsync("/api/runs/import", content);
        var body = await imported.Content.ReadAsStringAsync();
        Assert.True(imported.StatusCode == System.Net.HttpStatusCode.Created, body);
        var importedId = System.Text.Json.JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt32();

        // "Run again" on the imported run's page queues it here and opens the new run; it runs to its end.
        var page = await fixture.NewPageAsync(1280, 900);
        await page.GotoAsync($"runs/{importedId}");
        await page.GetByTestId("requeue-run").ClickAsync();
        await Expect(page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex($"runs/(?!{importedId}$)[0-9]+$"));
        var rerunId = int.Parse(System.Text.RegularExpressions.Regex.Match(page.Url, "runs/([0-9]+)$").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        await fixture.App.WaitForStatusAsync(rerunId, "Completed");

        // The compare view of the pair: both runs' environments side by side, the differing rows marked.
        await page.GotoAsync($"compare?runs={importedId},{rerunId}");
        var table = page.GetByTestId("compare-environments");
        await Expect(table.Locator("tr").First).ToContainTextAsync($"#{importedId} (imported)");
        await Expect(table.Locator("tr").First).ToContainTextAsync($"#{rerunId}");
        var rows = await table.EvaluateAsync<string[]>(
            "t => [...t.querySelectorAll('[data-testid=environment-compare-row]')].map(r => [...r.children].map(c => c.innerText.trim()).concat(r.dataset.differs).join('|'))");
        Assert.Contains("CPU|Paper CPU 9000|—|true", rows);
        Assert.Contains("Cores (machine)|64|—|true", rows);
        Assert.Contains(rows, r => r.StartsWith("Product|Dashboard ", StringComparison.Ordinal) && r.EndsWith($"imported (run #{source} there)|measured here|true", StringComparison.Ordinal));
        Assert.Contains("Topology|on-machine|on-machine|false", rows);
        await Expect(table.Locator("tr.differs").First).ToBeVisibleAsync();
    }

    /// <summary>
    /// Opens the select labelled <paramref name="label"/>, clicks the item matching <paramref name="item"/> and waits until the
    /// address matches <paramref name="picked"/>. Each pick changes the address and redraws the page; on a loaded machine the
    /// list can close under the click (the item is detached and the popover is gone) or a click can land while the select
    /// is redrawn and do nothing, so a pick that did not reach the address is made again, as a user would, up to 4 times
    /// (never re-clicking an item already picked: in a multi-select that would take it out again).
    /// </summary>
    private static async Task PickAsync(Microsoft.Playwright.IPage page, string label, System.Text.RegularExpressions.Regex item, System.Text.RegularExpressions.Regex picked)
    {
        var items = page.Locator(".mud-popover-open .mud-list-item").Filter(new() { HasTextRegex = item });
        for (var attempt = 1; attempt <= 4 && !picked.IsMatch(page.Url); attempt++)
        {
            await page.Locator(".mud-select").Filter(new() { HasText = label }).First.ClickAsync();
            if (await Support.Eventually.HoldsAsync(async () => await items.CountAsync() > 0, TimeSpan.FromSeconds(10)) && !picked.IsMatch(page.Url))
            {
                try
                {
                    await items.First.ClickAsync(new() { Timeout = 10_000 });
                }
                catch (TimeoutException)
                {
                    // The list closed under the click while the page redrew: the next attempt opens it again.
                }
            }

            await page.Keyboard.PressAsync("Escape");
            await Support.Eventually.HoldsAsync(() => Task.FromResult(picked.IsMatch(page.Url)), TimeSpan.FromSeconds(15));
        }

        await Expect(page).ToHaveURLAsync(picked);
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
