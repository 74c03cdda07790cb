using System.Text.RegularExpressions;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Tests.Support;
using Dashboard.Web.Options;
using Dashboard.Web.Runs;
using Microsoft.Extensions.DependencyInjection;
using MudBlazor;

namespace Dashboard.Web.Components.Tests.Components.Pages;

/// <summary>
/// The Queue page (issue #36): the recurring form's scenario list tells quick and full presets apart, every timestamp
/// of the run, queue and recurring cards carries its label (the phone shows a table row as a card with these labels),
/// and cancelling a running run says the signal its runner gets. The dashboard's services with its real queue storage
/// (Hangfire on SQLite), results database and queue worker; no browser.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")] // a stand-in runner is a shell script, as the dashboard runs where its runner does
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

    [Fact]
    public async Task Cancel_RunningRun_SnackbarSaysSigtermAsTheRunnerGetsIt()
    {
        // The queue worker runs the run with a stand-in runner that waits for a signal and writes down which it got.
        var folder = Path.Combine(_context.Root, "runner");
        _context.Services.PostConfigure<RunnerOptions>(o => o.ExecutablePath = StandInRunner(folder));
        var run = await _context.AddRunAsync(new RunEntity { ScenarioName = "waits for a signal", ScenarioJson = """{"name": "waits for a signal"}""", Status = RunStatus.Queued, CreatedUtc = DateTime.UtcNow });
        var page = _context.RenderPage<QueuePage>();
        var running = _context.Services.GetRequiredService<QueueWorker>().RunAsync(run.Id, CancellationToken.None);

        // Its first level reported (the stand-in listens for signals by then), as the running card shows it.
        page.WaitForAssertion(() => Assert.Contains("1 of 3 levels", page.Find("[data-testid=queue-running]").TextContent, StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        await page.Find($"[data-testid=queue-running] [data-testid=cancel-{run.Id}]").ClickAsync(new());

        // Issue #36: the snackbar said SIGINT while SIGTERM was sent.
        var snackbars = _context.Snackbars!;
        snackbars.WaitForAssertion(() => Assert.Contains(
            $"Run #{run.Id}: stopping (SIGTERM to the runner); its samples are kept", snackbars.Markup, StringComparison.Ordinal));
        await running.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.Equal(["TERM"], File.ReadAllLines(Path.Combine(folder, "signals.log")));
        await using var db = _context.OpenDatabase();
        Assert.Equal(RunStatus.Cancelled, db.Runs.Single(r => r.Id == run.Id).Status);
    }

    // A stand-in for the runner in FOLDER: says the run started and its first level ended, then waits (a minute at most)
    // for SIGINT or SIGTERM, appends the signal's name to signals.log and ends as a cancelled runner does. Returns its path.
    private static string StandInRunner(string folder)
    {
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, "Dashboard.Runner");
        File.WriteAllText(path, """
            #!/usr/bin/env bash
            dir=$(dirname "$0"); id=0
            while [ $# -gt 0 ]; do case $1 in --run-id) id=$2; shift 2 ;; *) shift ;; esac; done
            stop() {
              echo "$1" >> "$dir/signals.log"
              echo "{\"event\":\"run-ended\",\"runId\":$id,\"completedLevels\":1,\"totalLevels\":3,\"status\":\"Cancelled\",\"error\":\"cancelled after 1 of 3 levels\"}"
              exit 130
            }
            trap 'stop INT' INT
            trap 'stop TERM' TERM
            echo "{\"event\":\"run-started\",\"runId\":$id,\"completedLevels\":0,\"totalLevels\":3}"
            echo "{\"event\":\"level-completed\",\"runId\":$id,\"completedLevels\":1,\"totalLevels\":3,\"variant\":\"AspNetHttpJson\",\"client\":\"dotnet\",\"payload\":\"Int\",\"repetition\":1,\"clients\":1,\"requests\":5,\"errors\":0,\"throughputRps\":100.5,\"meanMs\":0.9}"
            for _ in $(seq 600); do sleep 0.1; done
            exit 1

            """.Replace("\r\n", "\n", StringComparison.Ordinal));
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        return path;
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
