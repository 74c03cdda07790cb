using System.Globalization;
using System.Text.RegularExpressions;
using Bunit;
using Dashboard.Data;
using Dashboard.Data.Claims;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Components.Shared;
using Dashboard.Web.Results;
using Dashboard.Web.Scenarios;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using MudBlazor.Services;

// Folder Components/Shared mirrors the source; the namespace stops one level up (CA1716: "Shared" is a VB keyword).
namespace Dashboard.Web.Tests.Components;

/// <summary>A preset card's claims line rendered by bunit over a real SQLite file and the repository's preset files.</summary>
public sealed class PresetClaimsTests : IDisposable
{
    private readonly BunitContext _context = new();
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "preset-claims-tests", Guid.NewGuid().ToString("N"));

    public PresetClaimsTests()
    {
        _context.Services.AddMudServices();
        _context.JSInterop.Mode = JSRuntimeMode.Loose;
        Directory.CreateDirectory(_folder);
        DatabasePath = Path.Combine(_folder, "results.db");
        using (ResultsDatabase.Open(DatabasePath))
        {
            // Creates the schema.
        }

        _context.Services.AddSingleton<IDbContextFactory<ResultsDbContext>>(new Factory(DatabasePath));
        _context.Services.AddSingleton<Dashboard.Web.Results.ClaimResultsService>();
    }

    private string DatabasePath { get; }

    private static PresetGroup Group(int number) =>
        ScenarioPresets.GroupsOf(ScenarioPresets.LoadFolder(Path.Combine(RepositoryPaths.Root, "examples"))).Single(g => g.Number == number);

    public void Dispose()
    {
        _context.DisposeAsync().AsTask().GetAwaiter().GetResult();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    [Fact]
    public void Render_PresetNeverRunHere_SaysNotRunHereYet()
    {
        var cut = _context.Render<PresetClaims>(p => p.Add(x => x.Group, Group(4)));

        cut.WaitForAssertion(() => Assert.Equal("not run here yet", cut.Find(".preset-claims-none").TextContent.Trim()), TimeSpan.FromSeconds(30));
        Assert.Contains("Claims (10)", cut.Markup, StringComparison.Ordinal); // the Ice paper's ten claims
    }

    [Fact]
    public void Render_LastRunOfAPart_CountsItsVerdictsAndLinksToItsClaimsPanel()
    {
        var group = Group(4);
        var id = SeedIcePaperRun(group);

        var cut = _context.Render<PresetClaims>(p => p.Add(x => x.Group, group));

        cut.WaitForAssertion(() => Assert.NotEmpty(cut.FindAll("a")), TimeSpan.FromSeconds(30));
        var link = cut.Find("a");
        Assert.Equal("4 hold · 2 do not · 2 inconclusive · 2 not measurable", link.TextContent.Trim());
        Assert.Equal($"/runs/{id}?claims=open&preset=4#claims", link.GetAttribute("href"));
    }

    [Fact]
    public void Render_LastRunOfAPart_ItsLinkOpensAClaimsPanelWithAsManyRowsAsTheCardCounts()
    {
        var group = Group(4);
        SeedIcePaperRun(group);
        var card = _context.Render<PresetClaims>(p => p.Add(x => x.Group, group));
        card.WaitForAssertion(() => Assert.NotEmpty(card.FindAll("a")), TimeSpan.FromSeconds(30));
        var counted = Regex.Matches(card.Find("a").TextContent, @"\d+").Sum(m => int.Parse(m.Value, CultureInfo.InvariantCulture));
        Assert.Contains($"Claims ({counted})", card.Markup, StringComparison.Ordinal);

        // The panel as the card's link opens it (issue #36: the card said 10 claims, the run page listed 11): its run and its query.
        var link = new Uri(new Uri("http://localhost"), card.Find("a").GetAttribute("href"));
        var runId = int.Parse(link.AbsolutePath["/runs/".Length..], CultureInfo.InvariantCulture);
        var query = Microsoft.AspNetCore.WebUtilities.QueryHelpers.ParseQuery(link.Query);
        int? preset = query.TryGetValue("preset", out var value) ? int.Parse(value.ToString(), CultureInfo.InvariantCulture) : null;
        var panel = _context.Render<ClaimsPanel>(p => p.Add(x => x.RunId, runId).Add(x => x.Preset, preset));

        panel.WaitForAssertion(() => Assert.NotEmpty(panel.FindAll("tr[data-claim]")), TimeSpan.FromSeconds(30));
        Assert.Equal(counted, panel.FindAll("tr[data-claim]").Count);
        Assert.Equal(ClaimCatalogue.All.Where(c => c.Presets.Contains(4)).Select(c => c.Id), panel.FindAll("tr[data-claim]").Select(r => r.GetAttribute("data-claim")));
        Assert.StartsWith($"The {counted} claims of preset 4", panel.Find("[data-testid=claims-scope]").TextContent.Trim(), StringComparison.Ordinal);
    }

    [Fact]
    public void Render_RunsOfSeveralParts_TakesThemTogetherOnTheComparePage()
    {
        var group = Group(1);
        var onMachine = group.Quick.Single(p => p.FileName == "preset-1-ipc-vs-network-ice-quick.json").Document!.Name;
        var overLan = group.Quick.Single(p => p.FileName == "preset-1-ipc-vs-network-ice-lan-quick.json").Document!.Name;
        var a = ClaimsSeed.Run(DatabasePath, onMachine, ("IceTcp", "java", "Int", 20, [1000, 1010, 990]));
        var b = ClaimsSeed.Run(DatabasePath, overLan, ("IceTcp", "java", "Int", 20, [1500, 1510, 1490]));
        SetTopology(b, ClaimCatalogue.EmulatedLan);

        var cut = _context.Render<PresetClaims>(p => p.Add(x => x.Group, group));

        cut.WaitForAssertion(() => Assert.NotEmpty(cut.FindAll("a")), TimeSpan.FromSeconds(30));
        Assert.Equal($"/compare?runs={a},{b}&preset=1#claims", cut.Find("a").GetAttribute("href"));
        // Cross-machine throughput ×1.5 (and response time) over the emulated LAN hold once both topologies are taken together.
        Assert.Matches("^[1-9] holds? · ", cut.Find("a").TextContent.Trim());
    }

    [Theory]
    [InlineData(new ClaimVerdict[0], "no claim")]
    [InlineData(new[] { ClaimVerdict.Holds }, "1 holds")]
    [InlineData(new[] { ClaimVerdict.NotMeasurable, ClaimVerdict.Holds, ClaimVerdict.Holds, ClaimVerdict.DoesNotHold }, "2 hold · 1 does not · 1 not measurable")]
    [InlineData(new[] { ClaimVerdict.DoesNotHold, ClaimVerdict.DoesNotHold, ClaimVerdict.Inconclusive }, "2 do not · 1 inconclusive")]
    [InlineData(new[] { ClaimVerdict.NotMeasurable, ClaimVerdict.NotMeasuredInTheseRuns, ClaimVerdict.NotMeasuredInTheseRuns, ClaimVerdict.Inconclusive }, "1 inconclusive · 2 not measured · 1 not measurable")]
    public void CountText_Verdicts_CountsEachInOrder(ClaimVerdict[] verdicts, string expected)
    {
        var claim = ClaimCatalogue.All[0];
        var results = verdicts.Select(v => new ClaimResult(claim, v, "", [], "")).ToList();

        Assert.Equal(expected, PresetClaimsSummary.CountText(results));
    }

    // A run of preset 4's java part (and an older one, which is not counted): IceTcp, SOAP 1.1 and FastInfoset at 1 client
    // with String1, with the bytes each counted on the wire. Returns the newer run's id.
    private int SeedIcePaperRun(PresetGroup group)
    {
        var java = group.Quick.Single(p => p.FileName == "preset-4-ice-paper-java-quick.json").Document!.Name;
        ClaimsSeed.Run(DatabasePath, java, ("IceTcp", "java", "Int", 1, [100])); // an older run of the same part: not counted
        // String1 (Table I sent strings only; 1 byte each way). Overhead per message: SOAP 1.1 (303 + 353) / 2 = 328, FastInfoset 151 (×0.46: holds),
        // Ice 31 (×0.21 of FastInfoset: does not hold); bytes per round trip 658 ÷ 304 = 2.16 (holds); Ice's round trip
        // is the shortest (holds); upstart: no samples stored, so no first calls (inconclusive). Issue #34's added claims:
        // FastInfoset's round trip shorter than SOAP 1.1's (holds), SOAP 1.1 ÷ Ice bytes 658 ÷ 64 = 10.3, outside [4, 6]
        // (does not hold), the two SOAP setups' upstart (inconclusive: no first calls), and two not measurable here.
        var id = ClaimsSeed.Run(DatabasePath, java,
            ("IceTcp", "java", "String1", 1, [4000, 4010, 3990]),
            ("MetroSoap11", "java", "String1", 1, [1000, 1010, 990]),
            ("MetroSoap11FastInfoset", "java", "String1", 1, [1200, 1210, 1190]));
        using (var db = ResultsDatabase.Open(DatabasePath))
        {
            foreach (var level in db.Levels.Where(l => l.RunId == id))
            {
                (level.MeanRequestBytes, level.MeanResponseBytes) = level.Variant switch
                {
                    "IceTcp" => (37.0, 27.0),
                    "MetroSoap11" => (304.0, 354.0),
                    _ => (147.0, 157.0),
                };
            }

            db.SaveChanges();
        }

        return id;
    }

    private void SetTopology(int runId, string topology)
    {
        using var db = ResultsDatabase.Open(DatabasePath);
        var run = db.Runs.Single(r => r.Id == runId);
        run.ScenarioJson = run.ScenarioJson.Replace("{\"name\"", $"{{\"topology\": \"{topology}\", \"name\"", StringComparison.Ordinal);
        db.SaveChanges();
    }

    private sealed class Factory(string path) : IDbContextFactory<ResultsDbContext>
    {
        public ResultsDbContext CreateDbContext() => new(ResultsDatabase.CreateOptions(path));
    }
}
