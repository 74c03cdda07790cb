using System.Text.RegularExpressions;
using Dashboard.Web.Tests.Auth;
using Dashboard.Web.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Dashboard.Web.Tests.Components.Pages.Account;

/// <summary>
/// The Users page (src/Web/Components/Pages/Account/Users.razor) in Chromium on a real dashboard, by clicking: an Admin
/// makes a setup link for an Operator, the new user signs up in another browser, the Admin demotes, disables and
/// deletes them; the user's next requests follow, and the audit log has each change.
/// </summary>
[Collection(SharedDashboardGroup.Name)]
public sealed class UsersPageTests(BrowserFixture fixture) : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    // The shared browser keeps no page of this test.
    public Task DisposeAsync() => fixture.CloseContextsAsync();

    [Fact]
    public async Task UsersPage_SetupLinkThenDemoteDisableDelete_UserFollowsAndAuditLogged()
    {
        var admin = await fixture.NewPageAsync();
        await admin.GotoAsync("account/users");
        await admin.Locator("input[data-testid=users-new-name], [data-testid=users-new-name] input").First.FillAsync("pia");
        await admin.GetByTestId("users-new-role").GetByText("Operator").ClickAsync();
        await admin.GetByTestId("users-create-link").ClickAsync();
        var url = (await admin.GetByTestId("users-setup-url").InnerTextAsync()).Trim();
        Assert.StartsWith(fixture.App.BaseAddress.ToString().TrimEnd('/') + "/setup?token=", url, StringComparison.Ordinal);

        await using var other = await fixture.Browser.NewContextAsync(new BrowserNewContextOptions { BaseURL = fixture.App.BaseAddress.ToString() });
        other.SetDefaultNavigationTimeout(60_000);
        var pia = await other.NewPageAsync();
        await SessionValidationTests.SignUpAsync(pia, url);
        await Expect(pia.GetByTestId("user-role")).ToHaveTextAsync("pia · Operator");

        await admin.ReloadAsync();
        await Expect(admin.GetByTestId("user-status-pia")).ToHaveTextAsync("active");
        await admin.GetByTestId("user-role-pia").GetByRole(AriaRole.Button, new() { Name = "Viewer" }).ClickAsync();
        await Expect(admin.GetByTestId("user-role-pia").GetByRole(AriaRole.Button, new() { Name = "Viewer" })).ToHaveAttributeAsync("aria-pressed", "true");
        Assert.Equal(403, (await other.APIRequest.PostAsync("api/runs", new() { DataString = WebApp.Scenario("pia"), Headers = new Dictionary<string, string> { ["Content-Type"] = "application/json" } })).Status);

        await admin.GetByTestId("user-disable-pia").ClickAsync();
        await Expect(admin.GetByTestId("user-status-pia")).ToHaveTextAsync("disabled");
        Assert.Equal(401, (await other.APIRequest.GetAsync("api/runs")).Status);

        await admin.GetByTestId("user-delete-pia").ClickAsync();
        await admin.Locator(".mud-dialog").GetByRole(AriaRole.Button, new() { Name = "Delete", Exact = true }).ClickAsync();
        await Expect(admin.GetByTestId("user-pia")).ToHaveCountAsync(0);

        await admin.GotoAsync("account/audit");
        await Expect(admin.Locator("body")).ToContainTextAsync("pia: role Operator → Viewer");
        await Expect(admin.Locator("body")).ToContainTextAsync(new Regex("account deleted"));
    }
}
