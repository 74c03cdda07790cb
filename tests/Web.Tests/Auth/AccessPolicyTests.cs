using System.Net;
using System.Reflection;
using System.Text;
using System.Text.Json;
using Dashboard.Data;
using Dashboard.Data.Accounts;
using Dashboard.Web.Auth;
using Dashboard.Web.Tests.Support;
using Microsoft.AspNetCore.Authorization;
using Microsoft.EntityFrameworkCore;
using Xunit.Abstractions;
using RouteAttribute = Microsoft.AspNetCore.Components.RouteAttribute;

namespace Dashboard.Web.Tests.Auth;

/// <summary>
/// The dashboard's front door on a real dashboard (src/Web/Auth): every endpoint of the OpenAPI document and every
/// routable page refuses a caller without credentials (enumerated, so a new one cannot be forgotten), roles and token
/// states are enforced, and the setup link works once.
/// </summary>
public sealed class AccessPolicyTests(WebAppFixture fixture, ITestOutputHelper output) : IClassFixture<WebAppFixture>
{
    // Pages that open without an account, on purpose: sign-in, setup, sign-out, "not allowed", and the error pages.
    private static readonly string[] AnonymousPages = ["/account/login", "/setup", "/account/logout", "/account/denied", "/not-found", "/Error"];

    [Fact]
    public async Task Anonymous_EveryOpenApiEndpoint_Is401()
    {
        using var document = JsonDocument.Parse(await fixture.App.Http.GetStringAsync("/openapi/v1.json"));
        using var anonymous = fixture.App.NewAnonymousClient();
        var checkedEndpoints = new List<string>();
        foreach (var path in document.RootElement.GetProperty("paths").EnumerateObject())
        {
            foreach (var operation in path.Value.EnumerateObject())
            {
                var method = operation.Name.ToUpperInvariant();
                var url = System.Text.RegularExpressions.Regex.Replace(path.Name, @"\{[^}]+\}", "1");
                using var request = new HttpRequestMessage(new HttpMethod(method), url);
                if (method is "POST" or "PUT" or "PATCH")
                {
                    request.Content = new StringContent("{}", Encoding.UTF8, "application/json");
                }

                using var response = await anonymous.SendAsync(request);
                AssertRefused(response, $"{method} {url}");
                checkedEndpoints.Add($"{method} {path.Name}");
            }
        }

        output.WriteLine(string.Join("\n", checkedEndpoints));
        Assert.Contains("POST /api/runs", checkedEndpoints);
        Assert.Contains("GET /api/runs/{id}/levels.csv", checkedEndpoints);
        Assert.Contains("PATCH /api/users/{id}", checkedEndpoints);
        Assert.Contains("POST /api/users/setup-links", checkedEndpoints);
        Assert.True(checkedEndpoints.Count >= 20, $"only {checkedEndpoints.Count} endpoints in the OpenAPI document");

        foreach (var (method, url) in new[] { ("GET", "/openapi/v1.json"), ("GET", "/hangfire"), ("POST", "/_blazor/negotiate?negotiateVersion=1") })
        {
            using var response = await anonymous.SendAsync(new HttpRequestMessage(new HttpMethod(method), url));
            AssertRefused(response, $"{method} {url}");
        }
    }

    // Refused: 401, or a redirect to the sign-in page.
    private static void AssertRefused(HttpResponseMessage response, string what)
    {
        var location = response.Headers.Location is { } l ? (l.IsAbsoluteUri ? l.PathAndQuery : l.OriginalString) : "";
        Assert.True(
            response.StatusCode == HttpStatusCode.Unauthorized || (response.StatusCode == HttpStatusCode.Redirect && location.StartsWith("/account/login", StringComparison.Ordinal)),
            $"{what} answered {(int)response.StatusCode} {location} without credentials");
    }

    [Fact]
    public async Task Anonymous_EveryRoutablePage_RedirectsToSignIn()
    {
        var pages = typeof(Dashboard.Web.Components.App).Assembly.GetTypes()
            .SelectMany(t => t.GetCustomAttributes<RouteAttribute>().Select(r => (Type: t, r.Template)))
            .ToList();
        using var anonymous = fixture.App.NewAnonymousClient();
        foreach (var (type, template) in pages)
        {
            var url = System.Text.RegularExpressions.Regex.Replace(template, @"\{[^}]+\}", "1");
            using var response = await anonymous.GetAsync(url);
            output.WriteLine($"GET {template} ({type.Name}): {(int)response.StatusCode} {response.Headers.Location}");
            if (AnonymousPages.Contains(template, StringComparer.OrdinalIgnoreCase))
            {
                Assert.True(
                    type.GetCustomAttribute<AllowAnonymousAttribute>() is not null || AccessPolicy.RequiredRole(type) is null,
                    $"{template} is listed as anonymous but its page does not allow it");
                continue;
            }

            Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
            Assert.StartsWith("/account/login", response.Headers.Location!.IsAbsoluteUri ? response.Headers.Location.PathAndQuery : response.Headers.Location.OriginalString, StringComparison.Ordinal);
        }

        Assert.Contains(pages, p => p.Template == "/runs/{Id:int}");
        Assert.Contains(pages, p => p.Template == "/account/tokens");
    }

    [Fact]
    public async Task ViewerToken_QueueRun_Is403ButReadsRuns()
    {
        var (code, token, error) = await fixture.App.RunCommandAsync("token", "create", "--role", "Viewer", "--name", "reader");
        Assert.True(code == 0, error);
        using var viewer = fixture.App.NewClient(token.Trim());

        using var queue = await viewer.PostAsync("/api/runs", new StringContent(WebApp.Scenario("viewer"), Encoding.UTF8, "application/json"));
        using var list = await viewer.GetAsync("/api/runs");
        using var agents = await viewer.GetAsync("/api/agents");
        using var hosts = await viewer.GetAsync("/hosts");

        Assert.Equal(HttpStatusCode.Forbidden, queue.StatusCode);
        Assert.Equal(HttpStatusCode.OK, list.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, agents.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, hosts.StatusCode);
    }

    [Fact]
    public async Task OperatorToken_RevokedOrExpired_Is401()
    {
        var (_, revoked, _) = await fixture.App.RunCommandAsync("token", "create", "--role", "Operator", "--name", "revoked");
        var (_, expired, _) = await fixture.App.RunCommandAsync("token", "create", "--role", "Operator", "--name", "expired", "--expires", "30d");
        using var before = await fixture.App.NewClient(revoked.Trim()).GetAsync("/api/runs");
        Assert.Equal(HttpStatusCode.OK, before.StatusCode);

        await using (var db = ResultsStore.Sqlite(fixture.App.DatabasePath).OpenAccounts())
        {
            var revokedHash = Secrets.Hash(revoked.Trim());
            var expiredHash = Secrets.Hash(expired.Trim());
            await db.ApiTokens.Where(t => t.Hash == revokedHash).ExecuteUpdateAsync(s => s.SetProperty(t => t.RevokedUtc, DateTime.UtcNow));
            await db.ApiTokens.Where(t => t.Hash == expiredHash).ExecuteUpdateAsync(s => s.SetProperty(t => t.ExpiresUtc, DateTime.UtcNow.AddMinutes(-1)));
        }

        using var afterRevoke = await fixture.App.NewClient(revoked.Trim()).GetAsync("/api/runs");
        using var afterExpiry = await fixture.App.NewClient(expired.Trim()).GetAsync("/api/runs");
        using var page = await fixture.App.NewClient(expired.Trim()).GetAsync("/");
        using var made = await fixture.App.NewClient("dbt_" + new string('x', 43)).GetAsync("/api/runs");

        Assert.Equal(HttpStatusCode.Unauthorized, afterRevoke.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, afterExpiry.StatusCode);
        Assert.NotEqual(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, made.StatusCode);
    }

    [Fact]
    public async Task OpenApiDocument_DeclaresTheBearerScheme()
    {
        using var document = JsonDocument.Parse(await fixture.App.Http.GetStringAsync("/openapi/v1.json"));
        var scheme = document.RootElement.GetProperty("components").GetProperty("securitySchemes").GetProperty("Bearer");

        Assert.Equal("http", scheme.GetProperty("type").GetString());
        Assert.Equal("bearer", scheme.GetProperty("scheme").GetString());
    }

    [Fact]
    public async Task SetupLink_PrintedAtFirstStart_WorksOnce()
    {
        // The link is printed once the application has started, which can be after the fixture saw "listening": wait for it.
        string? line = null;
        var printed = await Eventually.HoldsAsync(() => (line = fixture.App.Log.Split('\n')
            .SingleOrDefault(l => l.StartsWith(AccountsInitializer.SetupLinePrefix, StringComparison.Ordinal))) is not null, TimeSpan.FromSeconds(60));
        Assert.True(printed, $"no setup link in the dashboard's output:\n{fixture.App.Log}");
        var link = new Uri(line![AccountsInitializer.SetupLinePrefix.Length..].Trim());
        Assert.Equal(fixture.App.BaseAddress.Port, link.Port);
        var secret = link.Query.Split("token=")[1];
        using var browser = new AccountClient(fixture.App);

        var first = await browser.PostFormAsync(link.PathAndQuery, "/account/setup",
            new() { ["token"] = secret, ["userName"] = "first-admin", ["password"] = "correct horse battery", ["confirm"] = "correct horse battery" });
        using var home = await browser.Client.GetAsync("/");
        var second = await browser.PostFormAsync("/account/login", "/account/setup",
            new() { ["token"] = secret, ["userName"] = "second-admin", ["password"] = "correct horse battery", ["confirm"] = "correct horse battery" });
        var again = await browser.Client.GetStringAsync(link.PathAndQuery);

        Assert.Equal("/", first.Headers.Location!.OriginalString);
        Assert.Equal(HttpStatusCode.OK, home.StatusCode);
        Assert.StartsWith("/setup?", second.Headers.Location!.OriginalString, StringComparison.Ordinal);
        Assert.Contains("error=", second.Headers.Location!.OriginalString, StringComparison.Ordinal);
        Assert.Contains("setup-invalid", again, StringComparison.Ordinal);
    }
}
