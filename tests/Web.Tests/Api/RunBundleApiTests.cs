using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Api;

/// <summary>Result bundles (docs/web.md, "Result bundles"): exported by one real dashboard, imported by another with its own database, run again there.</summary>
public sealed class RunBundleApiTests(WebAppFixture fixture) : IClassFixture<WebAppFixture>
{
    private WebApp App => fixture.App;

    [Fact]
    public async Task Bundle_ExportedFromOneDashboard_ImportedIntoAnotherWithTheSameLevelsAndRunAgainThere()
    {
        var id = await App.QueueAsync("bundle source");
        await App.WaitForStatusAsync(id, "Completed");
        using var export = await App.Http.GetAsync($"/api/runs/{id}/bundle");
        Assert.Equal(HttpStatusCode.OK, export.StatusCode);
        Assert.Equal("application/zip", export.Content.Headers.ContentType?.MediaType);
        Assert.Equal($"run-{id}.bundle.zip", export.Content.Headers.ContentDisposition?.FileNameStar ?? export.Content.Headers.ContentDisposition?.FileName?.Trim('"'));
        var bundle = await export.Content.ReadAsByteArrayAsync();
        var levelsThere = await App.Http.GetStringAsync($"/api/runs/{id}/levels.csv");

        var root = WebApp.NewRoot();
        try
        {
            await using var other = await WebApp.StartAsync(root);
            using var content = new ByteArrayContent(bundle);
            content.Headers.ContentType = new MediaTypeHeaderValue("application/zip");
            using var imported = await other.Http.PostAsync("/api/runs/import", content);
            var body = await imported.Content.ReadAsStringAsync();
            Assert.True(imported.StatusCode == HttpStatusCode.Created, body);
            var run = JsonDocument.Parse(body).RootElement;
            var newId = run.GetProperty("id").GetInt32();
            Assert.Equal("Completed", run.GetProperty("status").GetString());
            Assert.Equal(id, run.GetProperty("imported").GetProperty("originalRunId").GetInt32());
            Assert.Equal(levelsThere, await other.Http.GetStringAsync($"/api/runs/{newId}/levels.csv"));

            // Run again on the importing dashboard, as the bundle's reproduce command says: its scenario, posted there.
            using var again = await other.PostScenarioAsync(run.GetProperty("scenario").GetRawText());
            Assert.Equal(HttpStatusCode.Created, again.StatusCode);
            await other.WaitForStatusAsync((await again.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32(), "Completed");
        }
        finally
        {
            WebApp.DeleteRoot(root);
        }
    }

    [Fact]
    public async Task Import_NotABundle_Returns400SayingWhy()
    {
        using var content = new ByteArrayContent("no zip here"u8.ToArray());
        content.Headers.ContentType = new MediaTypeHeaderValue("application/zip");

        using var response = await App.Http.PostAsync("/api/runs/import", content);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.StartsWith("not a result bundle", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bundle_UnknownRun_Returns404()
    {
        using var response = await App.Http.GetAsync("/api/runs/987654/bundle");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }
}
