using Bunit;
using Dashboard.Data.Accounts;
using Dashboard.Web.Auth;
using Dashboard.Web.Components.Pages.Account;
using Dashboard.Web.Extensions;
using Dashboard.Web.Options;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using MudBlazor.Services;

namespace Dashboard.Web.Tests.Components.Pages.Account;

/// <summary>The Users page rendered by bunit over a real SQLite accounts store (AccountService, Identity's UserManager).</summary>
public sealed class UsersComponentTests : IAsyncDisposable
{
    private readonly BunitContext _context = new();
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "users-component-tests", Guid.NewGuid().ToString("N"));
    private readonly WebApplication _host;
    private readonly AsyncServiceScope _scope;

    public UsersComponentTests()
    {
        Directory.CreateDirectory(_folder);
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = [$"--Dashboard:DataFolder={_folder}"] });
        builder.AddDashboardOptions();
        builder.AddAccounts();
        _host = builder.Build();
        using (_host.Services.GetRequiredService<IOptions<DashboardOptions>>().Value.CreateResultsStore().OpenAccounts())
        {
            // Creates the accounts' tables.
        }

        _scope = _host.Services.CreateAsyncScope();
        Accounts = _scope.ServiceProvider.GetRequiredService<AccountService>();
        _context.Services.AddMudServices();
        _context.Services.AddSingleton(Accounts);
        _context.Services.AddSingleton(_host.Services.GetRequiredService<IOptions<AuthOptions>>());
        _context.JSInterop.Mode = JSRuntimeMode.Loose;
        _context.AddAuthorization().SetAuthorized("root").SetRoles(DashboardRoles.Admin);
    }

    private AccountService Accounts { get; }

    [Fact]
    public async Task RoleButton_OperatorClicksViewer_AccountIsViewerAndTheRowSaysSo()
    {
        var secret = await Accounts.CreateSetupLinkAsync("otto", DashboardRoles.Operator, "test");
        var (user, errors) = await Accounts.UseSetupLinkAsync(secret, null, "otto's long password");
        Assert.True(user is not null, string.Join(" ", errors));
        var page = _context.Render<Users>();
        page.WaitForAssertion(() => Assert.Contains("otto", page.Find("[data-testid=user-otto]").TextContent, StringComparison.Ordinal));

        page.FindAll("[data-testid=user-role-otto] button").Single(b => b.TextContent.Trim() == "Viewer").Click();

        page.WaitForAssertion(() => Assert.Equal("true", page.FindAll("[data-testid=user-role-otto] button").Single(b => b.TextContent.Trim() == "Viewer").GetAttribute("aria-pressed")));
        Assert.Equal(DashboardRoles.Viewer, (await Accounts.ListUsersAsync()).Single(u => u.UserName == "otto").Role);
        Assert.Contains((await Accounts.ListAuditAsync(5)), a => a.Action == "account changed" && a.Actor == "root" && a.Target.Contains("Operator → Viewer", StringComparison.Ordinal));
    }

    [Fact]
    public void CreateSetupLink_NewName_ShowsALinkToTheSetupPage()
    {
        var page = _context.Render<Users>();

        page.Find("[data-testid=users-create-link]").Click();

        page.WaitForAssertion(() => Assert.Contains("/setup?token=", page.Find("[data-testid=users-setup-url]").TextContent, StringComparison.Ordinal));
    }

    public async ValueTask DisposeAsync()
    {
        await _context.DisposeAsync();
        await _scope.DisposeAsync();
        await _host.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }
}
