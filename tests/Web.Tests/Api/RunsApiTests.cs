using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Api;

/// <summary>The HTTP API against the real dashboard and a real SQLite file.</summary>
public sealed class RunsApiTests(WebAppFixture fixture) : IClassFixture<WebAppFixture>
{
    private WebApp App => fixture.App;

    [Fact]
    public async Task Post_UnknownVariant_Returns400ProblemNamingTheField()
    {
        using var response = await App.PostScenarioAsync(WebApp.Scenario("bad").Replace("AspNetHttpJson", "HttpNoSec", StringComparison.Ordinal));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("variants[0]", problem.GetProperty("field").GetString());
        Assert.Contains("unknown endpoint variant 'HttpNoSec'", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_UnknownField_Returns400NamingTheField()
    {
        using var response = await App.PostScenarioAsync("""{"name": "x", "colour": "red"}""");

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("colour", problem.GetProperty("field").GetString());
    }

    [Fact]
    public async Task Post_ImpossibleClientVariantPair_Returns400NamingClients()
    {
        using var response = await App.PostScenarioAsync(WebApp.Scenario("pair").Replace("AspNetHttpJson", "IceTcp", StringComparison.Ordinal));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("clients", problem.GetProperty("field").GetString());
        Assert.Contains("cannot call IceTcp", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_ValidScenario_Returns201WithPermalinkAndRunCompletes()
    {
        using var response = await App.PostScenarioAsync(WebApp.Scenario("complete via api"));

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var run = await response.Content.ReadFromJsonAsync<JsonElement>();
        var id = run.GetProperty("id").GetInt32();
        Assert.Equal($"/runs/{id}", run.GetProperty("permalink").GetString());
        Assert.Equal($"/api/runs/{id}", response.Headers.Location?.OriginalString);
        await App.WaitForStatusAsync(id, "Completed");
    }

    [Fact]
    public async Task Delete_FinishedRun_Returns409Problem()
    {
        var id = Seed.Run(App.DatabasePath, RunStatus.Completed, levels: 1, samplesPerLevel: 10);

        using var response = await App.Http.DeleteAsync($"/api/runs/{id}");

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(RunStatus.Completed, (await App.FindRunAsync(id))!.Status);
    }

    [Fact]
    public async Task Delete_UnknownRun_Returns404()
    {
        using var response = await App.Http.DeleteAsync("/api/runs/987654");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task Delete_ScheduledRun_CancelsIt()
    {
        using var post = await App.Http.PostAsync($"/api/runs?at={DateTime.UtcNow.AddHours(2):O}",
            new StringContent(WebApp.Scenario("later"), System.Text.Encoding.UTF8, "application/json"));
        var id = (await post.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        Assert.Equal("Queued", await App.StatusAsync(id));

        using var response = await App.Http.DeleteAsync($"/api/runs/{id}");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("Cancelled", await App.StatusAsync(id));
    }

    [Fact]
    public async Task SamplesCsv_SeededRun_RowCountEqualsDatabase()
    {
        var id = Seed.Run(App.DatabasePath, RunStatus.Completed, levels: 3, samplesPerLevel: 2_500);
        long stored;
        await using (var db = App.OpenDatabase())
        {
            stored = (await db.CountSamplesAsync(id)).Total;
        }

        var csv = await App.Http.GetStringAsync($"/api/runs/{id}/samples.csv");

        var lines = csv.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.StartsWith("level_id,variant,client,payload,level,repetition,client_index,start_offset_us,latency_us,outcome,is_warmup", lines[0], StringComparison.Ordinal);
        Assert.Equal(stored, lines.Length - 1);
        Assert.Equal(3 * 2_501, stored);
    }

    [Fact]
    public async Task LevelsCsv_SeededRun_OneRowPerLevelWithDesignColumns()
    {
        var id = Seed.Run(App.DatabasePath, RunStatus.Completed, levels: 4, samplesPerLevel: 10);
        int levels;
        await using (var db = App.OpenDatabase())
        {
            levels = (await db.GetLevelsAsync(id)).Count;
        }

        using var response = await App.Http.GetAsync($"/api/runs/{id}/levels.csv");
        var lines = (await response.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal("text/csv", response.Content.Headers.ContentType?.MediaType);
        Assert.StartsWith("variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms", lines[0], StringComparison.Ordinal);
        Assert.Equal(levels, lines.Length - 1);
        Assert.StartsWith("AspNetHttpJson,dotnet,Int,10,10,0,1000,1,", lines[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Get_UnknownRun_Returns404Problem()
    {
        using var response = await App.Http.GetAsync("/api/runs/987654");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task OpenApi_Document_ListsTheRunsApi()
    {
        var document = await App.Http.GetFromJsonAsync<JsonElement>("/openapi/v1.json");

        var paths = document.GetProperty("paths");
        Assert.True(paths.TryGetProperty("/api/runs", out _));
        Assert.True(paths.TryGetProperty("/api/runs/{id}/samples.csv", out _));
    }

    [Fact]
    public async Task StaticFiles_OwnAndPackageAssets_AreServed()
    {
        foreach (var path in new[] { "/css/site.css", "/js/charts.js", "/lib/plotly/plotly.min.js", "/_content/Radzen.Blazor/Radzen.Blazor.js", "/_framework/blazor.web.js" })
        {
            using var response = await App.Http.GetAsync(path);
            Assert.True(response.IsSuccessStatusCode, $"{path}: {(int)response.StatusCode}");
        }
    }
}
