using Dashboard.Data.Accounts;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Identity;
using Microsoft.AspNetCore.Mvc;
using HttpResults = Microsoft.AspNetCore.Http.Results;

namespace Dashboard.Web.Auth;

/// <summary>
/// The form posts of the account pages (antiforgery-checked, as every form post with form binding is): sign in
/// (rate-limited, wrong passwords counted and locked out), sign out, and a setup link's password.
/// </summary>
public static class AccountEndpoints
{
    /// <summary>Maps <c>POST /account/signin</c>, <c>POST /account/signout</c> and <c>POST /account/setup</c> (the pages are <c>/account/login</c> and <c>/setup</c>, whose own GET and POST routes these must not share).</summary>
    public static IEndpointRouteBuilder MapAccountEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapPost("/account/signin", SignInAsync).AllowAnonymous().RequireRateLimiting(AuthExtensions.SignInLimit).ExcludeFromDescription();
        app.MapPost("/account/signout", (Func<HttpContext, Task<IResult>>)SignOutAsync).ExcludeFromDescription();
        app.MapPost("/account/setup", SetUpAsync).AllowAnonymous().RequireRateLimiting(AuthExtensions.SignInLimit).ExcludeFromDescription();
        app.MapSingleSignOn();
        app.MapShareEndpoints();
        app.MapUsersApi();
        return app;
    }

    private static async Task<IResult> SignInAsync(
        [FromForm] string? userName, [FromForm] string? password, [FromForm] string? returnUrl,
        HttpContext http, UserManager<UserEntity> users, AccountService accounts, ILoggerFactory logs)
    {
        var log = logs.CreateLogger("Dashboard.Web.Auth.SignIn");
        var user = string.IsNullOrWhiteSpace(userName) ? null : await users.FindByNameAsync(userName.Trim());
        var address = http.Connection.RemoteIpAddress?.ToString() ?? "?";
        if (user is not null && AccountService.IsDisabled(user))
        {
            log.LogWarning("Sign-in refused: {User} is disabled (from {Address})", user.UserName, address);
            await accounts.AuditAsync(address, "sign-in refused (disabled)", user.UserName);
            return HttpResults.Redirect(LoginPage("disabled", returnUrl));
        }

        if (user is not null && await users.IsLockedOutAsync(user))
        {
            log.LogWarning("Sign-in refused: {User} is locked out (from {Address})", user.UserName, address);
            await accounts.AuditAsync(address, "sign-in refused (locked out)", user.UserName);
            return HttpResults.Redirect(LoginPage("locked", returnUrl));
        }

        if (user is null || string.IsNullOrEmpty(password) || !await users.CheckPasswordAsync(user, password))
        {
            if (user is not null)
            {
                await users.AccessFailedAsync(user);
            }

            log.LogWarning("Sign-in failed for {User} from {Address}", userName, address);
            await accounts.AuditAsync(address, "sign-in failed", userName ?? "");
            return HttpResults.Redirect(LoginPage("failed", returnUrl));
        }

        await users.ResetAccessFailedCountAsync(user);
        await http.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, AuthExtensions.PrincipalOf(user));
        await accounts.AuditAsync(user.UserName, AccountService.SignedIn, address);
        return HttpResults.LocalRedirect(IsLocal(returnUrl) ? returnUrl! : "/");
    }

    private static async Task<IResult> SignOutAsync(HttpContext http)
    {
        await http.SignOutAsync(CookieAuthenticationDefaults.AuthenticationScheme);
        return HttpResults.LocalRedirect("/account/login");
    }

    private static async Task<IResult> SetUpAsync(
        [FromForm] string? token, [FromForm] string? userName, [FromForm] string? password, [FromForm] string? confirm,
        HttpContext http, AccountService accounts)
    {
        if (password != confirm)
        {
            return HttpResults.Redirect($"/setup?token={Uri.EscapeDataString(token ?? "")}&error={Uri.EscapeDataString("The two passwords differ.")}");
        }

        var (user, errors) = await accounts.UseSetupLinkAsync(token, userName, password);
        if (user is null)
        {
            return HttpResults.Redirect($"/setup?token={Uri.EscapeDataString(token ?? "")}&error={Uri.EscapeDataString(string.Join(" ", errors))}");
        }

        await http.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, AuthExtensions.PrincipalOf(user));
        await accounts.AuditAsync(user.UserName, AccountService.SignedIn, http.Connection.RemoteIpAddress?.ToString() ?? "?");
        return HttpResults.LocalRedirect("/");
    }

    private static string LoginPage(string error, string? returnUrl) =>
        $"/account/login?error={error}" + (IsLocal(returnUrl) ? "&returnUrl=" + Uri.EscapeDataString(returnUrl!) : "");

    /// <summary>True when <paramref name="url"/> is a local path (no scheme, no host, no <c>//</c> or <c>/\\</c> start): safe to redirect to.</summary>
    internal static bool IsLocal(string? url) =>
        !string.IsNullOrEmpty(url) && url.StartsWith('/') && !url.StartsWith("//", StringComparison.Ordinal) && !url.StartsWith("/\\", StringComparison.Ordinal);
}
