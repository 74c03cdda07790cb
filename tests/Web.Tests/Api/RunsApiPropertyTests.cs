using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.Properties;
using Dashboard.Web.Tests.Support;
using FsCheck;
using FsCheck.Fluent;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.Api;

/// <summary>
/// Issue #14, part 1, through <c>POST /api/runs</c> on the real dashboard executable: a generated scenario document
/// (tests/Shared/Properties) is either queued (201) or refused with 400 <c>application/problem+json</c> naming the same
/// field the loader names; never a 500, never a hang, and a refused one queues nothing. Accepted ones are queued for
/// tomorrow (<c>?at=</c>) so the fake runner is not started a hundred times. A failure prints its replay seed
/// (<see cref="PropertyRuns"/>).
/// </summary>
public sealed class RunsApiPropertyTests(WebAppFixture fixture) : IClassFixture<WebAppFixture>
{
    private const int Cases = 60;

    private WebApp App => fixture.App;

    [Fact]
    public void Post_GeneratedScenarios_QueuedOrRefusedWithProblemNamingTheField()
    {
        var at = Uri.EscapeDataString(DateTime.UtcNow.AddDays(1).ToString("O"));
        var created = 0;
        var refused = 0;
        Prop.ForAll(ScenarioInputs.Documents("http://127.0.0.1:9").ToArbitrary(), async input =>
        {
            var expected = Expected(input.Decoded);
            var before = await CountRunsAsync();

            using var content = new ByteArrayContent(input.Utf8);
            content.Headers.ContentType = new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            using var response = await App.Http.PostAsync($"/api/runs?at={at}", content, timeout.Token);
            var body = await response.Content.ReadAsStringAsync(timeout.Token);

            Assert.True((int)response.StatusCode < 500, $"{(int)response.StatusCode}: {body}");
            if (expected is not null)
            {
                Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"refused by the loader ({expected.Message}) but the API answered {(int)response.StatusCode}: {body}");
                Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
                var problem = JsonDocument.Parse(body).RootElement;
                if (problem.TryGetProperty("field", out var field))
                {
                    Assert.Equal(expected.Field, field.GetString());
                    Assert.Equal(expected.Message, problem.GetProperty("detail").GetString());
                }
                else
                {
                    // A body that is not JSON at all is not blamed on a field: line and position instead (docs/web.md, API).
                    Assert.StartsWith("the request body is not valid JSON", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
                    Assert.True(problem.TryGetProperty("line", out _), body);
                }
                Assert.Equal(before, await CountRunsAsync());
                refused++;
            }
            else
            {
                Assert.True(response.StatusCode == HttpStatusCode.Created, $"accepted by the loader but the API answered {(int)response.StatusCode}: {body}");
                Assert.Equal(before + 1, await CountRunsAsync());
                created++;
            }
        }).Check(PropertyRuns.Config(Cases));

        Assert.Equal(Cases, created + refused);
        Assert.True(refused > 0 && created > 0, $"{created} queued, {refused} refused: the generator should give both");
    }

    /// <summary>What the loader says of the body as the API reads it (UTF-8, BOM skipped): null when accepted.</summary>
    private static ScenarioException? Expected(string text)
    {
        try
        {
            ScenarioLoader.Parse(text);
            return null;
        }
        catch (ScenarioException e)
        {
            return e;
        }
    }

    private async Task<int> CountRunsAsync()
    {
        await using var db = App.OpenDatabase();
        return await db.Runs.CountAsync();
    }
}
