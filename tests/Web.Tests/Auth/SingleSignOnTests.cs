using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Auth;

/// <summary>
/// Single sign-on (src/Web/Auth/SingleSignOn.cs) between a real dashboard and a real OpenID Connect provider
/// (<see cref="OidcProvider"/>: OpenIddict, authorization code flow with PKCE), over real HTTP with a cookie-keeping
/// client that follows the redirects as a browser does.
/// </summary>
public sealed class SingleSignOnTests(SingleSignOnTests.Fixture fixture) : IClassFixture<SingleSignOnTests.Fixture>
{
    [Fact]
    public async Task SignIn_ProviderVouchesForAViewer_AccountOfTheirOwnWithTheMappedRole()
    {
        fixture.Provider.NextUser = ("sub-dana", "dana", ["bench-viewers"]);
        using var browser = NewBrowser();

        using var landing = await browser.GetAsync("/account/sso?returnUrl=%2Fcompare");

        Assert.Equal(HttpStatusCode.OK, landing.StatusCode);
        Assert.Equal(fixture.App.BaseAddress + "compare", landing.RequestMessage!.RequestUri!.ToString());
        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/api/runs")).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await browser.PostAsJsonAsync("/api/runs", new { name = "x" })).StatusCode);
        var dana = await UserAsync("dana");
        Assert.Equal("Viewer", dana.GetProperty("role").GetString());
        Assert.False(dana.GetProperty("hasPassword").GetBoolean());
        Assert.NotEqual(JsonValueKind.Null, dana.GetProperty("lastSignInUtc").ValueKind);
    }

    [Fact]
    public async Task SignIn_ProviderRoleChanges_SameAccountTakesTheNewRole()
    {
        fixture.Provider.NextUser = ("sub-omar", "omar", ["bench-viewers"]);
        using (var first = NewBrowser())
        {
            Assert.Equal(HttpStatusCode.OK, (await first.GetAsync("/account/sso")).StatusCode);
        }

        fixture.Provider.NextUser = ("sub-omar", "omar renamed", ["bench-viewers", "bench-operators"]);
        using var second = NewBrowser();
        Assert.Equal(HttpStatusCode.OK, (await second.GetAsync("/account/sso")).StatusCode);

        var users = await UsersAsync();
        Assert.Single(users, u => u.GetProperty("userName").GetString()!.StartsWith("omar", StringComparison.Ordinal));
        Assert.Equal("Operator", (await UserAsync("omar")).GetProperty("role").GetString());
        // An Operator may queue: the request gets past authorization (a 400 for the empty scenario, not a 403).
        Assert.NotEqual(HttpStatusCode.Forbidden, (await second.PostAsJsonAsync("/api/runs", new { name = "x" })).StatusCode);
    }

    [Fact]
    public async Task SignIn_NoMappedRole_RefusedWithTheReasonAndNoAccount()
    {
        fixture.Provider.NextUser = ("sub-nils", "nils", ["someone-else"]);
        using var browser = NewBrowser();

        using var page = await browser.GetAsync("/account/sso");

        Assert.Equal("/account/login", page.RequestMessage!.RequestUri!.AbsolutePath);
        Assert.Contains("error=sso-norole", page.RequestMessage.RequestUri.Query, StringComparison.Ordinal);
        Assert.Contains("gave you no role on this dashboard", await page.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.DoesNotContain(await UsersAsync(), u => u.GetProperty("userName").GetString() == "nils");
        Assert.Equal(HttpStatusCode.Unauthorized, (await browser.GetAsync("/api/runs")).StatusCode);
    }

    [Fact]
    public async Task SignIn_AccountDisabledOnTheUsersPage_Refused()
    {
        fixture.Provider.NextUser = ("sub-dora", "dora", ["bench-viewers"]);
        using (var first = NewBrowser())
        {
            Assert.Equal(HttpStatusCode.OK, (await first.GetAsync("/account/sso")).StatusCode);
        }

        var id = (await UserAsync("dora")).GetProperty("id").GetInt32();
        using (var disable = await fixture.App.Http.PatchAsJsonAsync($"/api/users/{id}", new { disabled = true }))
        {
            Assert.Equal(HttpStatusCode.NoContent, disable.StatusCode);
        }

        using var browser = NewBrowser();
        using var page = await browser.GetAsync("/account/sso");

        Assert.Contains("error=sso-disabled", page.RequestMessage!.RequestUri!.Query, StringComparison.Ordinal);
        Assert.Contains("This account is disabled", await page.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, (await browser.GetAsync("/api/runs")).StatusCode);
    }

    [Fact]
    public async Task SignIn_NameOfALocalAccount_GetsAnAccountOfItsOwnNotTheLocalOne()
    {
        var setup = new Uri(await SessionValidationTests.SetupLinkAsync(fixture.App, "lena", "Admin"));
        using (var owner = new AccountClient(fixture.App))
        using (var set = await owner.PostFormAsync(setup.PathAndQuery, "/account/setup",
                   new() { ["token"] = setup.Query.Split("token=")[1], ["password"] = "a good long password", ["confirm"] = "a good long password" }))
        {
            Assert.Equal("/", set.Headers.Location?.OriginalString);
        }

        fixture.Provider.NextUser = ("sub-lena", "lena", ["bench-viewers"]);
        using var browser = NewBrowser();

        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/account/sso")).StatusCode);

        Assert.Equal("Admin", (await UserAsync("lena")).GetProperty("role").GetString());
        Assert.Equal("Viewer", (await UserAsync("lena-sso")).GetProperty("role").GetString());
        Assert.Equal(HttpStatusCode.Forbidden, (await browser.GetAsync("/api/users")).StatusCode);
    }

    [Fact]
    public async Task LoginPage_SingleSignOnConfigured_OffersTheProviderByName()
    {
        using var browser = NewBrowser();

        var html = await browser.GetStringAsync("/account/login?returnUrl=%2Fruns%2F1");

        Assert.Contains("data-testid=\"sso-link\"", html, StringComparison.Ordinal);
        Assert.Contains("href=\"/account/sso?returnUrl=%2Fruns%2F1\"", html, StringComparison.Ordinal);
        Assert.Contains("Sign in with Test provider", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SignIn_ProviderUnreachable_BackOnTheSignInPageWithTheReason()
    {
        var app = await WebApp.StartAsync(null, null,
            "--Dashboard:Auth:OpenIdConnect:Authority=http://127.0.0.1:9/", "--Dashboard:Auth:OpenIdConnect:ClientId=dashboard",
            "--Dashboard:Auth:OpenIdConnect:RequireHttpsMetadata=false", "--Dashboard:Auth:OpenIdConnect:DisplayName=Down provider");
        try
        {
            using var browser = new HttpClient(new HttpClientHandler { AllowAutoRedirect = true, CookieContainer = new CookieContainer() }) { BaseAddress = app.BaseAddress };

            using var page = await browser.GetAsync("/account/sso");

            Assert.Equal("/account/login", page.RequestMessage!.RequestUri!.AbsolutePath);
            Assert.Contains("error=sso-unreachable", page.RequestMessage.RequestUri.Query, StringComparison.Ordinal);
            Assert.Contains("Down provider cannot be reached just now", await page.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    private HttpClient NewBrowser() =>
        new(new HttpClientHandler { AllowAutoRedirect = true, CookieContainer = new CookieContainer() }) { BaseAddress = fixture.App.BaseAddress, Timeout = TimeSpan.FromSeconds(60) };

    private async Task<List<JsonElement>> UsersAsync() => [.. (await fixture.App.Http.GetFromJsonAsync<JsonElement>("/api/users")).EnumerateArray()];

    private async Task<JsonElement> UserAsync(string name) => (await UsersAsync()).Single(u => u.GetProperty("userName").GetString() == name);

    /// <summary>A provider, and a dashboard whose single sign-on points at it (roles mapped from <c>bench-*</c> values, no default role).</summary>
    public sealed class Fixture : IAsyncLifetime
    {
        private const string ClientSecret = "test-client-secret";

        /// <summary>The provider.</summary>
        public OidcProvider Provider { get; private set; } = null!;

        /// <summary>The dashboard.</summary>
        public WebApp App { get; private set; } = null!;

        /// <inheritdoc />
        public async Task InitializeAsync()
        {
            Provider = await OidcProvider.StartAsync();
            // The client secret from a file, as docker-compose secrets give it (docs/security.md, "docker-compose secrets").
            var root = WebApp.NewRoot();
            var secretFile = Path.Combine(root, "sso-secret");
            await File.WriteAllTextAsync(secretFile, ClientSecret + "\n");
            App = await WebApp.StartAsync(root, new Dictionary<string, string> { ["Dashboard__Auth__OpenIdConnect__ClientSecret_FILE"] = secretFile },
                $"--Dashboard:Auth:OpenIdConnect:Authority={Provider.Issuer}",
                "--Dashboard:Auth:OpenIdConnect:ClientId=dashboard",
                "--Dashboard:Auth:OpenIdConnect:RequireHttpsMetadata=false",
                "--Dashboard:Auth:OpenIdConnect:DisplayName=Test provider",
                "--Dashboard:Auth:OpenIdConnect:Roles:bench-viewers=Viewer",
                "--Dashboard:Auth:OpenIdConnect:Roles:bench-operators=Operator",
                "--Dashboard:Auth:SignInPermitsPerMinute=1000");
            await Provider.RegisterClientAsync("dashboard", ClientSecret, new Uri(App.BaseAddress, "/signin-oidc"));
        }

        /// <inheritdoc />
        public async Task DisposeAsync()
        {
            var root = App.Root;
            await App.DisposeAsync();
            WebApp.DeleteRoot(root);
            await Provider.DisposeAsync();
        }
    }
}
