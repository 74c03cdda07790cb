using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Api;

/// <summary>
/// Runs queued on the dashboard may only target registered service hosts (docs/security.md); hosts are registered with
/// their control token, which no answer carries. Against the real dashboard.
/// </summary>
public sealed class HostsApiTests(WebAppFixture fixture) : IClassFixture<WebAppFixture>
{
    private const string Unregistered = "http://10.9.9.9:5090";

    private WebApp App => fixture.App;

    [Fact]
    public async Task PostRun_UnregisteredHost_400NamingHost()
    {
        using var response = await App.PostScenarioAsync(WebApp.Scenario("elsewhere").Replace("http://127.0.0.1:9", Unregistered, StringComparison.Ordinal));
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("host", problem.GetProperty("field").GetString());
        Assert.Contains($"host: '{Unregistered}' is not a registered service host; an Admin registers hosts on the Hosts page",
            problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task PostRun_LocalHostUnderAnotherLoopbackName_Accepted()
    {
        using var response = await App.PostScenarioAsync(WebApp.Scenario("local by name").Replace("http://127.0.0.1:9", "http://localhost:9", StringComparison.Ordinal));

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    [Fact]
    public async Task PostRecurring_UnregisteredHost_400NamingHost()
    {
        var body = $$"""{"cron": "0 2 * * *", "scenario": {{WebApp.Scenario("nightly elsewhere").Replace("http://127.0.0.1:9", "http://10.9.9.8:5090", StringComparison.Ordinal)}}}""";

        using var response = await App.Http.PutAsync("/api/recurring/nightly-elsewhere", new StringContent(body, Encoding.UTF8, "application/json"));
        var text = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("is not a registered service host", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Register_ThenPostRun_AcceptedAndTheTokenInNoAnswerNorLog()
    {
        const string address = "http://10.9.9.7:5090";
        const string token = "registered-host-token-5e1b2c";

        using var registered = await App.Http.PostAsJsonAsync("/api/hosts", new { address, token });
        using var queued = await App.PostScenarioAsync(WebApp.Scenario("registered").Replace("http://127.0.0.1:9", address, StringComparison.Ordinal));
        var id = (await queued.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        Assert.Equal(HttpStatusCode.Created, registered.StatusCode);
        Assert.Equal(HttpStatusCode.Created, queued.StatusCode);
        var answers = new StringBuilder(await registered.Content.ReadAsStringAsync());
        foreach (var path in new[] { "/api/hosts", "/api/runs", $"/api/runs/{id}", "/openapi/v1.json" })
        {
            using var response = await App.Http.GetAsync(path);
            answers.Append(await response.Content.ReadAsStringAsync());
        }

        Assert.Contains("10.9.9.7:5090", answers.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(token, answers.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(token, App.Log, StringComparison.Ordinal);
        Assert.DoesNotContain(token, await File.ReadAllTextAsync(App.DatabasePath), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Register_NoToken_400NamingToken()
    {
        using var response = await App.Http.PostAsJsonAsync("/api/hosts", new { address = "http://10.9.9.6:5090" });
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("token", problem.GetProperty("field").GetString());
        using var list = await App.Http.GetAsync("/api/hosts");
        Assert.DoesNotContain("10.9.9.6", await list.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Remove_RegisteredHost_ThenItsRunsAreRefused()
    {
        const string address = "http://10.9.9.5:5090";
        using (await App.Http.PostAsJsonAsync("/api/hosts", new { address, token = "soon-forgotten-token-0123" }))
        {
        }

        using var removed = await App.Http.DeleteAsync($"/api/hosts?address={Uri.EscapeDataString(address)}");
        using var queued = await App.PostScenarioAsync(WebApp.Scenario("forgotten").Replace("http://127.0.0.1:9", address, StringComparison.Ordinal));

        Assert.Equal(HttpStatusCode.NoContent, removed.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, queued.StatusCode);
        Assert.DoesNotContain("soon-forgotten-token-0123", await File.ReadAllTextAsync(Path.Combine(App.DataFolder, "hosts.json")), StringComparison.Ordinal);
    }
}
