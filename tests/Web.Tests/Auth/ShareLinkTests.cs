using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Auth;

/// <summary>
/// Read-only share links (src/Web/Auth/ShareEndpoints.cs) on a real dashboard: a reader without an account sees the
/// shared run's page and exports, and nothing else; a revoked link stops at once.
/// </summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class ShareLinkTests(BrowserFixture fixture) : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    // The shared browser keeps no page of this test.
    public Task DisposeAsync() => fixture.CloseContextsAsync();

    [Fact]
    public async Task ShareLink_OfOneRun_OpensItsPageAndExportsOnly_UntilRevoked()
    {
        var shared = Seed.ResultsRun(fixture.App.DatabasePath);
        var other = Seed.ResultsRun(fixture.App.DatabasePath);
        var (id, url) = await ShareAsync(shared);
        using var reader = new AccountClient(fixture.App);

        using var open = await reader.Client.GetAsync(new Uri(url).PathAndQuery);
        Assert.Equal(HttpStatusCode.Redirect, open.StatusCode);
        Assert.Equal($"/runs/{shared}", open.Headers.Location!.OriginalString);
        Assert.Equal(HttpStatusCode.OK, (await reader.Client.GetAsync($"/runs/{shared}")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await reader.Client.GetAsync($"/api/runs/{shared}/levels.csv")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await reader.Client.GetAsync($"/api/runs/{shared}/aggregates.csv")).StatusCode);
        Assert.StartsWith("/account/denied", (await reader.Client.GetAsync($"/runs/{other}")).Headers.Location!.OriginalString.Replace(fixture.App.BaseAddress.ToString().TrimEnd('/'), ""), StringComparison.Ordinal);
        Assert.StartsWith("/account/denied", (await reader.Client.GetAsync($"/compare?runs={shared},{other}")).Headers.Location!.OriginalString.Replace(fixture.App.BaseAddress.ToString().TrimEnd('/'), ""), StringComparison.Ordinal);
        Assert.StartsWith("/account/denied", (await reader.Client.GetAsync("/queue")).Headers.Location!.OriginalString.Replace(fixture.App.BaseAddress.ToString().TrimEnd('/'), ""), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Forbidden, (await reader.Client.GetAsync($"/api/runs/{other}/levels.csv")).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await reader.Client.GetAsync("/api/runs")).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await reader.Client.PostAsync("/api/runs", new StringContent(WebApp.Scenario("shared"), Encoding.UTF8, "application/json"))).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await reader.Client.DeleteAsync($"/api/runs/{shared}")).StatusCode);

        Assert.Equal(HttpStatusCode.NoContent, (await fixture.App.Http.DeleteAsync($"/api/shares/{id}")).StatusCode);
        using var revoked = await reader.Client.GetAsync($"/runs/{shared}");
        using var reopened = await reader.Client.GetAsync(new Uri(url).PathAndQuery);
        Assert.Equal(HttpStatusCode.Redirect, revoked.StatusCode);
        Assert.Contains("/account/login", revoked.Headers.Location!.OriginalString, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, reopened.StatusCode);
    }

    [Fact]
    public async Task ShareLink_InABrowserWithoutAccount_ShowsTheChartsAndRefusesAnotherRun()
    {
        var shared = Seed.ResultsRun(fixture.App.DatabasePath);
        var other = Seed.ResultsRun(fixture.App.DatabasePath);
        var (_, url) = await ShareAsync(shared);
        await using var context = await fixture.Browser.NewContextAsync(new BrowserNewContextOptions { BaseURL = fixture.App.BaseAddress.ToString() });
        var page = await context.NewPageAsync();
        var errors = new List<string>();
        page.PageError += (_, error) => errors.Add(error);

        await page.GotoAsync(url);
        var chart = page.GetByTestId("throughput-unsecure").Locator(".main-svg").First;
        try
        {
            await chart.WaitForAsync(new() { Timeout = 60_000 });
        }
        catch (TimeoutException)
        {
            Assert.Fail($"no chart at {page.Url}: {await page.InnerTextAsync("body")}\n{fixture.App.Log[^Math.Min(6000, fixture.App.Log.Length)..]}");
        }

        await Expect(page.GetByTestId("levels-csv")).ToBeVisibleAsync();
        await page.GotoAsync($"runs/{other}");

        await Expect(page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex("/account/denied"));
        Assert.Empty(errors);
    }

    private async Task<(int Id, string Url)> ShareAsync(int run)
    {
        using var response = await fixture.App.Http.PostAsJsonAsync("/api/shares", new { runs = new[] { run } });
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, body);
        var json = JsonDocument.Parse(body).RootElement;
        return (json.GetProperty("id").GetInt32(), json.GetProperty("url").GetString()!);
    }
}
