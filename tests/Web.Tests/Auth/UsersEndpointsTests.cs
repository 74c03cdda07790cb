using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Auth;

/// <summary><c>/api/users</c> (src/Web/Auth/UsersEndpoints.cs) on a real dashboard: Admin only, audit-logged, never without an enabled Admin.</summary>
public sealed class UsersEndpointsTests(WebAppFixture fixture) : IClassFixture<WebAppFixture>
{
    private const string Password = "a good long password";

    [Fact]
    public async Task UsersApi_OperatorToken_Is403()
    {
        var (code, token, error) = await fixture.App.RunCommandAsync("token", "create", "--role", "Operator", "--name", "op");
        Assert.True(code == 0, error);
        using var operatorClient = fixture.App.NewClient(token.Trim());

        using var list = await operatorClient.GetAsync("/api/users");
        using var link = await operatorClient.PostAsJsonAsync("/api/users/setup-links", new { userName = "eve", role = "Admin" });

        Assert.Equal(HttpStatusCode.Forbidden, list.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, link.StatusCode);
    }

    [Fact]
    public async Task UpdateUser_LastEnabledAdmin_RefusedUntilAnotherAdminExists()
    {
        await SignUpAsync("ada", "Admin");
        var ada = await SessionValidationTests.UserIdAsync(fixture.App, "ada");
        await DemoteOtherAdminsAsync(ada);

        using var demote = await fixture.App.Http.PatchAsJsonAsync($"/api/users/{ada}", new { role = "Viewer" });
        using var delete = await fixture.App.Http.DeleteAsync($"/api/users/{ada}");
        Assert.Equal(HttpStatusCode.BadRequest, demote.StatusCode);
        Assert.Contains("last enabled Admin", await demote.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.BadRequest, delete.StatusCode);

        await SignUpAsync("bea", "Admin");
        using var demoted = await fixture.App.Http.PatchAsJsonAsync($"/api/users/{ada}", new { role = "Viewer" });
        Assert.Equal(HttpStatusCode.NoContent, demoted.StatusCode);
        var row = (await fixture.App.Http.GetFromJsonAsync<JsonElement>("/api/users")).EnumerateArray().Single(u => u.GetProperty("userName").GetString() == "ada");
        Assert.Equal("Viewer", row.GetProperty("role").GetString());
        Assert.NotEqual(JsonValueKind.Null, row.GetProperty("lastSignInUtc").ValueKind);
        Assert.False(row.GetProperty("disabled").GetBoolean());
    }

    [Fact]
    public async Task CreateSetupLink_TakenNameOrUnknownRole_Refused()
    {
        await SignUpAsync("cid", "Viewer");

        using var taken = await fixture.App.Http.PostAsJsonAsync("/api/users/setup-links", new { userName = "cid", role = "Viewer" });
        using var role = await fixture.App.Http.PostAsJsonAsync("/api/users/setup-links", new { userName = "dan", role = "Root" });
        using var missing = await fixture.App.Http.PatchAsJsonAsync("/api/users/99999", new { role = "Viewer" });

        Assert.Equal(HttpStatusCode.Conflict, taken.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, role.StatusCode);
        Assert.Contains("role:", await role.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Fact]
    public async Task SetupLink_AccountDisabledBeforeTheLinkIsUsed_RefusedAndStaysDisabled()
    {
        await SignUpAsync("gus", "Operator");
        var gus = await SessionValidationTests.UserIdAsync(fixture.App, "gus");
        var (code, link, error) = await fixture.App.RunCommandAsync("admin", "reset", "--user", "gus");
        Assert.True(code == 0, error);
        using (var disable = await fixture.App.Http.PatchAsJsonAsync($"/api/users/{gus}", new { disabled = true }))
        {
            Assert.Equal(HttpStatusCode.NoContent, disable.StatusCode);
        }

        var setup = new Uri(link.Trim());
        using var client = new AccountClient(fixture.App);
        using var set = await client.PostFormAsync(setup.PathAndQuery, "/account/setup",
            new() { ["token"] = setup.Query.Split("token=")[1], ["password"] = "another long password", ["confirm"] = "another long password" });

        Assert.NotEqual("/", set.Headers.Location?.OriginalString);
        Assert.Contains("disabled", Uri.UnescapeDataString(set.Headers.Location?.OriginalString ?? ""), StringComparison.Ordinal);
        var row = (await fixture.App.Http.GetFromJsonAsync<JsonElement>("/api/users")).EnumerateArray().Single(u => u.GetProperty("userName").GetString() == "gus");
        Assert.True(row.GetProperty("disabled").GetBoolean());

        // The console is trusted: admin reset re-enables the account at once.
        var (again, _, againError) = await fixture.App.RunCommandAsync("admin", "reset", "--user", "gus");
        Assert.True(again == 0, againError);
        row = (await fixture.App.Http.GetFromJsonAsync<JsonElement>("/api/users")).EnumerateArray().Single(u => u.GetProperty("userName").GetString() == "gus");
        Assert.False(row.GetProperty("disabled").GetBoolean());
    }

    // Uses a setup link for a new account (which signs in: the Users page's "last sign-in"; one sign-in post of the 5 a minute).
    private async Task SignUpAsync(string name, string role)
    {
        var setup = new Uri(await SessionValidationTests.SetupLinkAsync(fixture.App, name, role));
        using var client = new AccountClient(fixture.App);
        using var set = await client.PostFormAsync(setup.PathAndQuery, "/account/setup",
            new() { ["token"] = setup.Query.Split("token=")[1], ["password"] = Password, ["confirm"] = Password });
        Assert.True(set.Headers.Location?.OriginalString == "/", $"{(int)set.StatusCode} {set.Headers.Location}");
    }

    // Other tests of the class may have made Admins: leave ada the only enabled one.
    private async Task DemoteOtherAdminsAsync(int keep)
    {
        foreach (var user in (await fixture.App.Http.GetFromJsonAsync<JsonElement>("/api/users")).EnumerateArray())
        {
            var id = user.GetProperty("id").GetInt32();
            if (id != keep && user.GetProperty("role").GetString() == "Admin" && !user.GetProperty("disabled").GetBoolean())
            {
                using var response = await fixture.App.Http.PatchAsJsonAsync($"/api/users/{id}", new { disabled = true });
                Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
            }
        }
    }
}
