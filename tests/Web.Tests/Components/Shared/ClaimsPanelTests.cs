using Bunit;
using Dashboard.Data;
using Dashboard.Data.Claims;
using Dashboard.Web.Components.Shared;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using MudBlazor.Services;

// Folder Components/Shared mirrors the source; the namespace stops one level up (CA1716: "Shared" is a VB keyword).
namespace Dashboard.Web.Tests.Components;

/// <summary>The claims panel rendered by bunit: from given verdicts, and computed from a real SQLite file.</summary>
public sealed class ClaimsPanelTests : IDisposable
{
    private readonly BunitContext _context = new();
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "claims-panel-tests", Guid.NewGuid().ToString("N"));

    public ClaimsPanelTests()
    {
        _context.Services.AddMudServices();
        _context.JSInterop.Mode = JSRuntimeMode.Loose;
        Directory.CreateDirectory(_folder);
        DatabasePath = Path.Combine(_folder, "results.db");
        _context.Services.AddSingleton<IDbContextFactory<ResultsDbContext>>(new Factory(DatabasePath));
        _context.Services.AddSingleton<Dashboard.Web.Results.ClaimResultsService>();
    }

    private string DatabasePath { get; }

    public void Dispose()
    {
        // MudBlazor's services are only asynchronously disposable.
        _context.DisposeAsync().AsTask().GetAwaiter().GetResult();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    [Fact]
    public void Render_GivenVerdicts_RowPerClaimWithChipLinkEffectAndLevels()
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.3-unsecure-beats-secure-throughput");
        var levels = new[]
        {
            Level("MetroSoap11", [1000, 1010, 990]),
            Level("MetroSoap11Https", [500, 505, 495]),
        };
        var results = new[] { ClaimEvaluator.Default.Evaluate(claim, levels) };

        var cut = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, 5).Add(x => x.Claims, results));

        var row = cut.Find($"tr[data-claim='{claim.Id}']");
        Assert.Equal("Holds", row.GetAttribute("data-verdict"));
        // The chart behind it: the run of the counted levels, every level shown, their one payload.
        Assert.Equal("/runs/1?levels=all&payload=Int#chart-throughput", row.QuerySelector("a.claim-verdict")!.GetAttribute("href"));
        Assert.Equal("A 1,000 vs B 500 req/s", row.QuerySelector(".claim-figures")!.TextContent.Trim());
        Assert.Equal("holds", row.QuerySelector(".mud-chip")!.TextContent.Trim());
        Assert.StartsWith("×2 [", row.QuerySelector(".claim-effect")!.TextContent.Trim(), StringComparison.Ordinal);
        Assert.Equal("2", row.QuerySelector(".claim-levels")!.TextContent.Trim()); // levels counted: one of each side
        Assert.EndsWith("ch. 9.3", cut.Find("td[title]").TextContent.Trim(), StringComparison.Ordinal);
        Assert.Contains("/api/runs/5/report.html", cut.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public void Render_ForestToggle_ShowsThePlotOfTheCasesAndItsTable()
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.3-unsecure-beats-secure-throughput");
        var levels = new[]
        {
            Level("MetroSoap11", [1000, 1010, 990]),
            Level("MetroSoap11Https", [500, 505, 495]),
        };
        var results = new[] { ClaimEvaluator.Default.Evaluate(claim, levels) };
        var cut = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, 5).Add(x => x.Claims, results));
        Assert.Empty(cut.FindAll("tr.claim-forest"));

        cut.Find($"[data-testid='forest-toggle-{claim.Id}']").Click();

        var forest = cut.Find($"tr[data-forest='{claim.Id}']");
        Assert.NotNull(forest.QuerySelector($"[data-testid='forest-{claim.Id}']"));
        Assert.NotNull(forest.QuerySelector($"[data-testid='forest-{claim.Id}-svg']"));
        Assert.Equal($"run-5-claim-{claim.Id}", forest.QuerySelector("[data-file-name]")!.GetAttribute("data-file-name"));
        var rows = forest.QuerySelectorAll(".claim-forest-table tbody tr");
        var row = Assert.Single(rows);
        Assert.Equal("MetroSoap11 vs MetroSoap11Https · java × Int × 20 clients × same-machine", row.QuerySelector("th")!.TextContent.Trim());
        Assert.Equal("2", row.QuerySelectorAll("td")[0].TextContent.Trim());
        Assert.Equal("holds", row.QuerySelectorAll("td")[2].TextContent.Trim());
        Assert.Contains("no advantage: within ±5 %", forest.QuerySelector("caption")!.TextContent, StringComparison.Ordinal);

        cut.Find($"[data-testid='forest-toggle-{claim.Id}']").Click();

        Assert.Empty(cut.FindAll("tr.claim-forest"));
    }

    [Fact]
    public void Render_RunIdOnASeededDatabase_ComputesTheVerdicts()
    {
        var id = ClaimsSeed.SecurityRun(DatabasePath);

        var cut = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, id));

        cut.WaitForAssertion(() => Assert.NotEmpty(cut.FindAll("tr[data-claim]")), TimeSpan.FromSeconds(30));
        Assert.Equal("DoesNotHold", cut.Find("tr[data-claim='thesis-9.3-unsecure-beats-secure-throughput']").GetAttribute("data-verdict"));
        Assert.Equal("NotMeasurable", cut.Find("tr[data-claim='thesis-9.2.1-windows-transport-best']").GetAttribute("data-verdict"));
        Assert.Equal("not measurable here", cut.Find("tr[data-claim='thesis-9.2.1-windows-transport-best'] .mud-chip").TextContent.Trim());
    }

    [Fact]
    public void Render_RunWithCountedBytes_ListsTheOverheadPerMessagePerLevel()
    {
        var id = ClaimsSeed.Run(DatabasePath, "claims: bytes",
            ("MetroSoap11", "java", "Int", 1, [1000, 1010, 990]),
            ("MetroSoap11FastInfoset", "java", "Int", 1, [1200, 1210, 1190]));
        using (var db = ResultsDatabase.Open(DatabasePath))
        {
            // Int's own bytes are 4 each way: SOAP 1.1 (303 + 353) / 2 = 328 bytes of overhead per message.
            foreach (var level in db.Levels.Where(l => l.RunId == id))
            {
                (level.MeanRequestBytes, level.MeanResponseBytes) = level.Variant == "MetroSoap11" ? (307.0, 357.0) : (150.0, 160.0);
            }

            db.SaveChanges();
        }

        var cut = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, id));

        cut.WaitForAssertion(() => Assert.NotEmpty(cut.FindAll(".claim-level-figures tbody tr")), TimeSpan.FromSeconds(30));
        var row = cut.FindAll(".claim-level-figures tbody tr").Single(r => r.TextContent.Contains("MetroSoap11 × java", StringComparison.Ordinal));
        Assert.Equal(["MetroSoap11 × java × Int × 1 client (same-machine)", "—", "—", "328", "unknown"], row.QuerySelectorAll("td").Select(td => td.TextContent.Trim()));
    }

    [Fact]
    public void Render_RunNoClaimConcerns_SaysSo()
    {
        var id = ClaimsSeed.Run(DatabasePath, "claims: nothing", ("AspNetHttpXml", "dotnet", "Int", 20, [1000]));

        var cut = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, id));

        cut.WaitForAssertion(() => Assert.Contains("No claim of the source documents concerns", cut.Find(".claims-empty").TextContent, StringComparison.Ordinal), TimeSpan.FromSeconds(30));
    }

    [Fact]
    public void Render_GivenVerdicts_LegendShowsTheFiveVerdictChips()
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.3-unsecure-beats-secure-throughput");
        var results = new[] { ClaimEvaluator.Default.Evaluate(claim, [Level("MetroSoap11", [1000, 1010, 990])]) };

        var cut = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, 5).Add(x => x.Claims, results));

        var legend = cut.FindAll(".claims-legend [data-legend]");
        Assert.Equal(["Holds", "DoesNotHold", "Inconclusive", "NotMeasuredInTheseRuns", "NotMeasurable"], legend.Select(l => l.GetAttribute("data-legend")));
        Assert.Equal(["holds", "does not hold", "inconclusive", "not measured in these runs", "not measurable here"],
            legend.Select(l => l.QuerySelector(".mud-chip")!.TextContent.Trim()));
        // One side only (no HTTPS level): the row's chip says "not measured in these runs", in the legend's colour.
        var row = cut.Find($"tr[data-claim='{claim.Id}']");
        Assert.Equal("NotMeasuredInTheseRuns", row.GetAttribute("data-verdict"));
        Assert.Equal("not measured in these runs", row.QuerySelector(".mud-chip")!.TextContent.Trim());
        Assert.Contains("mud-chip-color-info", row.QuerySelector(".mud-chip")!.ClassName, StringComparison.Ordinal);
    }

    private static ClaimLevel Level(string variant, double[] throughputs) => new(
        Data.Results.LevelAggregation.Aggregate(throughputs.Select((t, r) => new Data.Entities.LevelEntity
        {
            Variant = variant, Client = "java", Payload = "Int", Clients = 20, Repetition = r, Requests = 100, ThroughputRps = t, MeanMs = 20_000 / t,
        })).Single(), ClaimCatalogue.SameMachine, 1);

    private sealed class Factory(string path) : IDbContextFactory<ResultsDbContext>
    {
        public ResultsDbContext CreateDbContext() => new(ResultsDatabase.CreateOptions(path));
    }
}
