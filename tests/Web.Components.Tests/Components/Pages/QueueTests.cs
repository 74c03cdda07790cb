using System.Text.RegularExpressions;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Tests.Support;
using Dashboard.Web.Runs;
using Microsoft.Extensions.DependencyInjection;
using MudBlazor;

namespace Dashboard.Web.Components.Tests.Components.Pages;

/// <summary>
/// The Queue page (issue #36): the recurring form's scenario list tells quick and full presets apart, and every timestamp
/// of the run, queue and recurring cards carries its label (the phone shows a table row as a card with these labels).
/// The dashboard's services with its real queue storage (Hangfire on SQLite) and results database; no browser.
/// </summary>
public sealed partial class QueueTests : IAsyncLifetime
{
    private readonly DashboardContext _context = new();

    [Fact]
    public async Task RecurringForm_Presets_EachEntrySaysQuickOrFullAndNoTwoAreAlike()
    {
        var popovers = _context.Render<MudPopoverProvider>();
        var page = _context.Render<QueuePage>();
        page.WaitForState(() => page.FindComponents<MudSelect<string>>().Count > 0);
        var select = page.FindComponent<MudSelect<string>>();

        await page.InvokeAsync(() => select.Instance.OpenMenu());

        popovers.WaitForAssertion(() => Assert.Contains(popovers.FindAll(".mud-list-item"), e => e.TextContent.Contains("preset: ", StringComparison.Ordinal)));
        var entries = popovers.FindAll(".mud-list-item").Select(e => e.TextContent.Trim()).Where(t => t.StartsWith("preset: ", StringComparison.Ordinal)).ToList();
        Assert.Equal(entries.Count, entries.Distinct(StringComparer.Ordinal).Count());
        foreach (var entry in entries)
        {
            var match = EntryRegex().Match(entry);
            Assert.True(match.Success, $"'{entry}' does not say (quick, file) or (full, file)");
            var file = match.Groups["file"].Value;
            if (file.StartsWith("preset-", StringComparison.Ordinal))
            {
                // The preset files name their quick version "-quick.json" (examples/).
                Assert.Equal(file.EndsWith("-quick.json", StringComparison.Ordinal) ? "quick" : "full", match.Groups["version"].Value);
            }
        }

        // The pair the finding was about: one preset's quick and full files, once the same label twice.
        var quick = Assert.Single(entries, e => e.EndsWith(", preset-6-book-get256bytes-quick.json)", StringComparison.Ordinal));
        var full = Assert.Single(entries, e => e.EndsWith(", preset-6-book-get256bytes.json)", StringComparison.Ordinal));
        Assert.Contains("(quick, ", quick, StringComparison.Ordinal);
        Assert.Contains("(full, ", full, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Render_RunningWaitingAndRecurring_EveryTimestampCellHasItsLabel()
    {
        var now = DateTime.UtcNow;
        var running = await _context.AddRunAsync(new RunEntity { ScenarioName = "running", ScenarioJson = "{}", Status = RunStatus.Running, CreatedUtc = now.AddMinutes(-9), StartedUtc = now.AddMinutes(-8), TotalLevels = 4, CompletedLevels = 1 });
        var queued = await _context.AddRunAsync(new RunEntity { ScenarioName = "queued", ScenarioJson = "{}", Status = RunStatus.Queued, CreatedUtc = now.AddMinutes(-5) });
        var due = new DateTime(now.Year + 1, 3, 4, 5, 6, 7, DateTimeKind.Utc);
        var scheduled = await _context.AddRunAsync(new RunEntity { ScenarioName = "scheduled", ScenarioJson = "{}", Status = RunStatus.Scheduled, CreatedUtc = now.AddMinutes(-4), ScheduledUtc = due });
        _context.Services.GetRequiredService<QueueService>().AddRecurring("nightly", "0 2 * * *", ScenarioLoader.ParseValid($$"""
            {"name": "nightly scenario", "host": "{{DashboardContext.LocalHost}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": [1], "requestsPerClient": 5, "warmup": 1, "repetitions": 1}
            """));

        var page = _context.RenderPage<QueuePage>();

        page.WaitForAssertion(() => Assert.Contains("nightly", page.Find("[data-testid=queue-recurring]").TextContent, StringComparison.Ordinal));
        Assert.Equal($"#{running.Id}", Cell(page, "queue-running", running.Id, "Run"));
        Assert.Equal(running.StartedUtc!.Value.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture), Cell(page, "queue-running", running.Id, "Started (UTC)"));
        Assert.Equal(queued.CreatedUtc.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture), Cell(page, "queue-queued", queued.Id, "Queued (UTC)"));
        Assert.Equal("as soon as possible", Cell(page, "queue-queued", queued.Id, "Due (UTC)"));
        Assert.Equal(scheduled.CreatedUtc.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture), Cell(page, "queue-queued", scheduled.Id, "Queued (UTC)"));
        Assert.Equal(due.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture), Cell(page, "queue-queued", scheduled.Id, "Due (UTC)"));
        var recurring = page.Find("[data-testid=queue-recurring] tbody tr");
        Assert.Matches(@"^\d{4}-\d\d-\d\d 02:00:00$", recurring.QuerySelector("td[data-label='Next (UTC)']")!.TextContent.Trim());
        Assert.Equal("–", recurring.QuerySelector("td[data-label='Last (UTC)']")!.TextContent.Trim());
        // Every cell of a card that shows a value says what it is.
        foreach (var table in new[] { "queue-running", "queue-queued", "queue-recurring" })
        {
            Assert.All(page.FindAll($"[data-testid={table}] tbody tr td"), td => Assert.True(
                td.HasAttribute("data-label") || td.QuerySelector("button") is not null,
                $"{table}: a cell without a label: {td.TextContent.Trim()}"));
        }
    }

    // The text of the cell labelled <paramref name="label"/> in the row of run <paramref name="runId"/>.
    private static string Cell(IRenderedComponent<QueuePage> page, string table, int runId, string label)
    {
        var row = page.FindAll($"[data-testid={table}] tbody tr").Single(r => r.QuerySelector($"a[href='runs/{runId}']") is not null);
        var cells = row.QuerySelectorAll($"td[data-label='{label}']");
        return Assert.Single(cells).TextContent.Trim();
    }

    [GeneratedRegex(@"^preset: .+ \((?<version>quick|full), (?<file>[^(),]+\.json)\)$")]
    private static partial Regex EntryRegex();

    /// <inheritdoc />
    public Task InitializeAsync() => Task.CompletedTask;

    /// <inheritdoc />
    public Task DisposeAsync() => _context.DisposeAndDeleteAsync();
}
