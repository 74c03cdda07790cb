using Dashboard.Data.Entities;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages;

/// <summary>The Queue page (MudBlazor) in Chromium against the real dashboard and its real queue storage.</summary>
public sealed class QueuePageTests(BrowserFixture fixture) : IClassFixture<BrowserFixture>
{
    [Fact]
    public async Task Finished_RenameThroughTheDialog_GridShowsTheNameAndTheDatabaseHoldsIt()
    {
        var id = Seed.Run(fixture.App.DatabasePath, RunStatus.Completed, levels: 2, samplesPerLevel: 20);
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("queue");

        await page.GetByTestId($"annotate-{id}").ClickAsync();
        await Field(page, "annotate-name", "input").FillAsync("baseline, idle machine");
        await Field(page, "annotate-notes", "textarea").FillAsync("before the kernel update");
        await page.GetByTestId("annotate-save").ClickAsync();

        await Expect(page.GetByTestId("queue-finished")).ToContainTextAsync("baseline, idle machine");
        await Expect(page.GetByTestId("queue-finished")).ToContainTextAsync("req/s");
        var run = (await fixture.App.FindRunAsync(id))!;
        Assert.Equal("baseline, idle machine", run.Name);
        Assert.Equal("before the kernel update", run.Notes);
    }

    [Fact]
    public async Task Recurring_AddFromAnEarlierRunThenPause_ListedThenPaused()
    {
        Seed.Run(fixture.App.DatabasePath, RunStatus.Completed, levels: 1, samplesPerLevel: 5);
        var page = await fixture.NewPageAsync();
        await page.GotoAsync("queue");

        await Field(page, "recurring-id", "input").FillAsync("nightly-page");
        await Field(page, "recurring-cron", "input").FillAsync("0 3 * * *");
        await page.GetByTestId("recurring-add").ClickAsync();

        var table = page.GetByTestId("queue-recurring");
        await Expect(table).ToContainTextAsync("nightly-page");
        await Expect(table).ToContainTextAsync("0 3 * * *");
        await page.GetByTestId("pause-nightly-page").ClickAsync();
        await Expect(page.GetByTestId("resume-nightly-page")).ToBeVisibleAsync();
        await Expect(table).ToContainTextAsync("paused");
        Assert.Contains("\"paused\":true", await fixture.App.Http.GetStringAsync("/api/recurring"), StringComparison.Ordinal);
    }

    // MudBlazor puts a text field's extra attributes on its input (or textarea) element.
    private static ILocator Field(IPage page, string testId, string element) =>
        page.Locator($"{element}[data-testid={testId}], [data-testid={testId}] {element}").First;
}
