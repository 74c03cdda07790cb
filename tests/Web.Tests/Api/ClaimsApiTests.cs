using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Api;

/// <summary><c>/api/runs/{id}/claims</c>, its CSV and the one-page reports, against the real dashboard and a real SQLite file.</summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class ClaimsApiTests(BrowserFixture fixture)
{
    private const string Security = "thesis-9.3-unsecure-beats-secure-throughput";

    private WebApp App => fixture.App;

    private static JsonElement ClaimOf(JsonElement body, string id) =>
        body.GetProperty("claims").EnumerateArray().Single(c => c.GetProperty("claim").GetProperty("id").GetString() == id);

    [Fact]
    public async Task GetClaims_SeededSecurityRun_GivesTheVerdictsTheDataImply()
    {
        var id = ClaimsSeed.SecurityRun(App.DatabasePath);

        var body = await App.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/claims");

        Assert.Equal(id, body.GetProperty("runId").GetInt32());
        var security = ClaimOf(body, Security);
        Assert.Equal("DoesNotHold", security.GetProperty("verdict").GetString());
        var contrasts = security.GetProperty("contrasts").EnumerateArray().Where(c => c.GetProperty("covered").GetBoolean()).ToList();
        var metro = contrasts.Single(c => c.GetProperty("name").GetString() == "MetroSoap11 vs MetroSoap11Https");
        Assert.Equal("Holds", metro.GetProperty("verdict").GetString());
        Assert.Equal(2.0, metro.GetProperty("ratio").GetDouble(), 3);
        Assert.True(metro.GetProperty("hasInterval").GetBoolean());
        Assert.Equal(2, metro.GetProperty("levelsCounted").GetInt32()); // one level of each side
        Assert.Equal("java × Int × 20 clients × same-machine", metro.GetProperty("case").GetString());
        var ice = contrasts.Single(c => c.GetProperty("name").GetString() == "IceTcp vs IceSsl");
        Assert.Equal("DoesNotHold", ice.GetProperty("verdict").GetString());
        Assert.Equal("NotMeasurable", ClaimOf(body, "thesis-9.2.1-windows-transport-best").GetProperty("verdict").GetString());
        Assert.Equal("Holds", ClaimOf(body, "thesis-9.3-unsecure-beats-secure-response-time").GetProperty("contrasts").EnumerateArray()
            .Single(c => c.GetProperty("name").GetString() == "MetroSoap11 vs MetroSoap11Https").GetProperty("verdict").GetString());
        var facts = Assert.Single(body.GetProperty("runs").EnumerateArray());
        Assert.Equal(2600, facts.GetProperty("clock").GetProperty("mHz").GetDouble());
        Assert.DoesNotContain(body.GetProperty("claims").EnumerateArray(), c => c.GetProperty("claim").GetProperty("id").GetString()!.StartsWith("book-", StringComparison.Ordinal));
    }

    [Fact]
    public async Task GetClaims_PartsOfAPresetTakenTogether_PairsTheirLevels()
    {
        var unsecure = ClaimsSeed.Run(App.DatabasePath, "claims: unsecure part", ("MetroSoap11", "java", "Int", 20, [1000, 1010, 990]));
        var secure = ClaimsSeed.Run(App.DatabasePath, "claims: secure part", ("MetroSoap11Https", "java", "Int", 20, [500, 505, 495]));

        var alone = await App.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{unsecure}/claims");
        var together = await App.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{unsecure}/claims?with={secure}");

        // Alone, the secure side has no level at all: not measured in these runs (not "inconclusive").
        Assert.Equal("NotMeasuredInTheseRuns", ClaimOf(alone, Security).GetProperty("verdict").GetString());
        Assert.Contains("Measured by preset", ClaimOf(alone, Security).GetProperty("reason").GetString(), StringComparison.Ordinal);
        Assert.Contains("none of B", ClaimOf(alone, Security).GetProperty("reason").GetString(), StringComparison.Ordinal);
        Assert.Equal("Holds", ClaimOf(together, Security).GetProperty("verdict").GetString());
        Assert.Equal([unsecure, secure], together.GetProperty("runIds").EnumerateArray().Select(e => e.GetInt32()));
    }

    [Fact]
    public async Task GetClaims_AllTrue_ListsEveryClaim()
    {
        var id = ClaimsSeed.SecurityRun(App.DatabasePath);

        var body = await App.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/claims?all=true");

        Assert.Equal(Data.Claims.ClaimCatalogue.All.Count, body.GetProperty("claims").GetArrayLength());
    }

    [Fact]
    public async Task GetClaimsCsv_SeededRun_OneRowPerContrastWithTheVerdict()
    {
        var id = ClaimsSeed.SecurityRun(App.DatabasePath);

        using var response = await App.Http.GetAsync($"/api/runs/{id}/claims.csv");
        var lines = (await response.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/csv", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(Data.Export.ClaimsExport.CsvHeader, lines[0]);
        var row = Assert.Single(lines, l => l.StartsWith(Security + ",", StringComparison.Ordinal) && l.Contains(",MetroSoap11 vs MetroSoap11Https,Holds,", StringComparison.Ordinal));
        Assert.Contains(",DoesNotHold,", row, StringComparison.Ordinal);
    }

    [Fact]
    public async Task GetReports_SeededRun_MarkdownAndHtmlWithClaimsAndEnvironment()
    {
        var id = ClaimsSeed.SecurityRun(App.DatabasePath);

        using var md = await App.Http.GetAsync($"/api/runs/{id}/report.md");
        using var html = await App.Http.GetAsync($"/api/runs/{id}/report.html");
        var mdText = await md.Content.ReadAsStringAsync();
        var htmlText = await html.Content.ReadAsStringAsync();

        Assert.Equal("text/markdown", md.Content.Headers.ContentType?.MediaType);
        Assert.Contains($"# Claims of run {id}: claims: security", mdText, StringComparison.Ordinal);
        Assert.Contains("| claim | source | verdict |", mdText, StringComparison.Ordinal);
        Assert.Contains("**does not hold**", mdText, StringComparison.Ordinal);
        Assert.Contains("| osDescription | Debian GNU/Linux 12 |", mdText, StringComparison.Ordinal);
        Assert.Contains("clock 2600 MHz (recorded with the run", mdText, StringComparison.Ordinal);
        Assert.Equal("text/html", html.Content.Headers.ContentType?.MediaType);
        Assert.Contains($"<span id=\"claim-{Security}\" class=\"", htmlText, StringComparison.Ordinal);
        Assert.Contains($"href=\"/runs/{id}?levels=all&amp;payload=Int#chart-throughput\"", htmlText, StringComparison.Ordinal);
        Assert.Contains("@media print", htmlText, StringComparison.Ordinal);
        Assert.Matches(@"<td>processorCount</td>\s*<td>2</td>", htmlText);
    }

    [Fact]
    public async Task GetReports_CountedBytes_ListOverheadPerMessagePerLevelAndEachSidesFigures()
    {
        var id = ClaimsSeed.Run(App.DatabasePath, "claims: bytes",
            ("MetroSoap11", "java", "String1", 1, [1000, 1010, 990]),
            ("MetroSoap11FastInfoset", "java", "String1", 1, [1200, 1210, 1190]));
        using (var db = App.OpenDatabase())
        {
            // String1 (Table I sent strings only): own bytes 1 each way: SOAP 1.1 (303 + 353) / 2 = 328 bytes of overhead, FastInfoset 151.
            foreach (var level in db.Levels.Where(l => l.RunId == id))
            {
                (level.MeanRequestBytes, level.MeanResponseBytes) = level.Variant == "MetroSoap11" ? (304.0, 354.0) : (147.0, 157.0);
            }

            await db.SaveChangesAsync();
        }

        var md = await App.Http.GetStringAsync($"/api/runs/{id}/report.md");
        var body = await App.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/claims");

        Assert.Contains("## Cost per operation and overhead per message, per level", md, StringComparison.Ordinal);
        Assert.Contains($"| MetroSoap11 × java × String1 × 1 client (same-machine) | {id} | — | — | 328 |", md, StringComparison.Ordinal);
        Assert.Contains("A 151 vs B 328 bytes per message beyond the payload's own", md, StringComparison.Ordinal);
        var figures = body.GetProperty("levelFigures").EnumerateArray().ToList();
        Assert.Equal(2, figures.Count);
        Assert.Equal(151, figures.Single(f => f.GetProperty("level").GetString()!.StartsWith("MetroSoap11FastInfoset", StringComparison.Ordinal)).GetProperty("overheadBytesPerMessage").GetDouble(), 6);
        Assert.Equal("A 151 vs B 328 bytes per message beyond the payload's own",
            ClaimOf(body, "ice-paper-binary-halves-xml-overhead").GetProperty("figures").GetString());
    }

    [Fact]
    public async Task GetClaims_UnknownRun_Returns404()
    {
        using var response = await App.Http.GetAsync("/api/runs/987654/claims");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task GetClaims_BadWithList_Returns400NamingTheField()
    {
        var id = ClaimsSeed.SecurityRun(App.DatabasePath);

        using var response = await App.Http.GetAsync($"/api/runs/{id}/claims?with=2,x");

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("with", problem.GetProperty("field").GetString());
    }
}
