using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Auth;

/// <summary>
/// Sessions follow their account (src/Web/Auth/SessionValidation.cs) on a real dashboard whose circuits revalidate every
/// second: an Operator signed in with the cookie in Chromium is demoted by an Admin, then disabled.
/// </summary>
public sealed class SessionValidationTests
{
    private const string Password = "olga's long password";

    [Fact]
    public async Task ValidateCookie_OperatorDemotedThenDisabled_NextWriteRefusedPageShowsViewerThenSessionEnds()
    {
        var app = await WebApp.StartAsync(null, null, "--Dashboard:Auth:CircuitRevalidationInterval=00:00:01");
        try
        {
            using var playwright = await Playwright.CreateAsync();
            await using var browser = await BrowserFixture.LaunchAsync(playwright);
            await using var context = await browser.NewContextAsync(new BrowserNewContextOptions { BaseURL = app.BaseAddress.ToString() });
            context.SetDefaultNavigationTimeout(60_000);
            var page = await context.NewPageAsync();
            await SignUpAsync(page, await SetupLinkAsync(app, "olga", "Operator"));
            await Expect(page.GetByTestId("user-role")).ToHaveTextAsync("olga · Operator");
            await Expect(page.GetByTestId("nav-new-run")).ToBeVisibleAsync();
            var queued = await PostRunAsync(context);
            Assert.True(queued.Status is 201 or 202, $"{queued.Status} {await queued.TextAsync()}");
            var id = await UserIdAsync(app, "olga");

            using (var demote = await app.Http.PatchAsJsonAsync($"/api/users/{id}", new { role = "Viewer" }))
            {
                Assert.Equal(HttpStatusCode.NoContent, demote.StatusCode);
            }

            Assert.Equal(403, (await PostRunAsync(context)).Status);
            Assert.Equal(200, (await context.APIRequest.GetAsync("api/runs")).Status);
            await Expect(page.GetByTestId("user-role")).ToHaveTextAsync("olga · Viewer");
            await Expect(page.GetByTestId("nav-new-run")).ToHaveCountAsync(0);

            using (var disable = await app.Http.PatchAsJsonAsync($"/api/users/{id}", new { disabled = true }))
            {
                Assert.Equal(HttpStatusCode.NoContent, disable.StatusCode);
            }

            Assert.Equal(401, (await context.APIRequest.GetAsync("api/runs")).Status);
            await Expect(page.GetByTestId("user-role")).ToHaveCountAsync(0);
            Assert.Contains("Ended the session of olga", app.Log, StringComparison.Ordinal);
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    [Fact]
    public async Task DeleteUser_SignedInWithTheCookie_NextRequestIsRefused()
    {
        var app = await WebApp.StartAsync();
        try
        {
            using var client = new AccountClient(app);
            var setup = new Uri(await SetupLinkAsync(app, "vic", "Viewer"));
            using (var set = await client.PostFormAsync(setup.PathAndQuery, "/account/setup",
                       new() { ["token"] = setup.Query.Split("token=")[1], ["password"] = Password, ["confirm"] = Password }))
            {
                Assert.Equal("/", set.Headers.Location!.OriginalString);
            }

            Assert.Equal(HttpStatusCode.OK, (await client.Client.GetAsync("/api/runs")).StatusCode);
            using (var delete = await app.Http.DeleteAsync($"/api/users/{await UserIdAsync(app, "vic")}"))
            {
                Assert.Equal(HttpStatusCode.NoContent, delete.StatusCode);
            }

            Assert.Equal(HttpStatusCode.Unauthorized, (await client.Client.GetAsync("/api/runs")).StatusCode);
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    /// <summary>A setup link for a new account made by the Admin token through <c>POST /api/users/setup-links</c>.</summary>
    internal static async Task<string> SetupLinkAsync(WebApp app, string userName, string role)
    {
        using var response = await app.Http.PostAsJsonAsync("/api/users/setup-links", new { userName, role });
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, body);
        return JsonDocument.Parse(body).RootElement.GetProperty("url").GetString()!;
    }

    /// <summary>The id <c>GET /api/users</c> gives <paramref name="userName"/>.</summary>
    internal static async Task<int> UserIdAsync(WebApp app, string userName)
    {
        var users = await app.Http.GetFromJsonAsync<JsonElement>("/api/users");
        return users.EnumerateArray().Single(u => u.GetProperty("userName").GetString() == userName).GetProperty("id").GetInt32();
    }

    /// <summary>Opens a setup link in <paramref name="page"/>, sets <see cref="Password"/> and waits for the home page.</summary>
    internal static async Task SignUpAsync(IPage page, string url)
    {
        await page.GotoAsync(url);
        await page.Locator("input[name=password]").FillAsync(Password);
        await page.Locator("input[name=confirm]").FillAsync(Password);
        await page.Locator("form[data-testid=setup-form] button[type=submit]").ClickAsync();
        await Expect(page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex("/$"));
    }

    private static Task<IAPIResponse> PostRunAsync(IBrowserContext context) =>
        context.APIRequest.PostAsync("api/runs", new APIRequestContextOptions
        {
            DataString = WebApp.Scenario("from olga"),
            Headers = new Dictionary<string, string> { ["Content-Type"] = "application/json" },
        });
}
