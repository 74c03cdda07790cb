using System.Security.Claims;
using Dashboard.Data.Accounts;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Components.Authorization;
using Microsoft.AspNetCore.Components.Server;
using Microsoft.AspNetCore.Identity;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Auth;

/// <summary>
/// Keeps a signed-in person's session in step with their account (docs/security.md, "Sessions follow the account"):
/// the sign-in cookie is checked against the account at every request, the Blazor circuit every
/// <see cref="AuthOptions.CircuitRevalidationInterval"/>. A changed role replaces the session's role; a deleted or
/// disabled account, or a changed security stamp (new password, disabled), ends the session.
/// </summary>
public static class SessionValidation
{
    /// <summary>The claim that holds the account's security stamp when the session began.</summary>
    public const string StampClaim = "stamp";

    /// <summary>
    /// The principal <paramref name="principal"/> should be now: itself when it is not a person's session (a token, a share
    /// link: no <see cref="StampClaim"/>) or nothing changed; a new principal with the account's current role when only the
    /// role changed; null when the account is gone, disabled, or its security stamp changed.
    /// </summary>
    public static async Task<ClaimsPrincipal?> CurrentAsync(UserManager<UserEntity> users, ClaimsPrincipal principal)
    {
        ArgumentNullException.ThrowIfNull(users);
        ArgumentNullException.ThrowIfNull(principal);
        var stamp = principal.FindFirst(StampClaim)?.Value;
        if (stamp is null)
        {
            return principal;
        }

        var name = principal.Identity?.Name;
        var user = string.IsNullOrEmpty(name) ? null : await users.FindByNameAsync(name);
        if (user is null || AccountService.IsDisabled(user) || !string.Equals(user.SecurityStamp, stamp, StringComparison.Ordinal))
        {
            return null;
        }

        return principal.IsInRole(user.Role) && principal.FindAll(ClaimTypes.Role).Count() == 1 ? principal : AuthExtensions.PrincipalOf(user);
    }

    /// <summary>The sign-in cookie's check at every request (<see cref="CookieAuthenticationEvents.OnValidatePrincipal"/>).</summary>
    public static async Task ValidateCookieAsync(CookieValidatePrincipalContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Principal is null)
        {
            return;
        }

        var users = context.HttpContext.RequestServices.GetRequiredService<UserManager<UserEntity>>();
        var current = await CurrentAsync(users, context.Principal);
        if (current is null)
        {
            context.HttpContext.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(SessionValidation))
                .LogInformation("Ended the session of {User}: the account was deleted, disabled or its password changed", context.Principal.Identity?.Name);
            context.RejectPrincipal();
            await context.HttpContext.SignOutAsync(CookieAuthenticationDefaults.AuthenticationScheme);
        }
        else if (!ReferenceEquals(current, context.Principal))
        {
            context.ReplacePrincipal(current);
            context.ShouldRenew = true;
        }
    }
}

/// <summary>
/// The Blazor circuit's authentication state, checked every <see cref="AuthOptions.CircuitRevalidationInterval"/> with
/// <see cref="SessionValidation.CurrentAsync"/>: a changed role reaches the open pages (their menus and buttons), a
/// deleted or disabled account signs the circuit out.
/// </summary>
public sealed class RevalidatingSessionStateProvider(
    ILoggerFactory loggerFactory, IServiceScopeFactory scopes, IOptions<AuthOptions> options)
    : RevalidatingServerAuthenticationStateProvider(loggerFactory)
{
    /// <inheritdoc />
    protected override TimeSpan RevalidationInterval => options.Value.CircuitRevalidationInterval;

    /// <inheritdoc />
    protected override async Task<bool> ValidateAuthenticationStateAsync(AuthenticationState authenticationState, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(authenticationState);
        await using var scope = scopes.CreateAsyncScope();
        var users = scope.ServiceProvider.GetRequiredService<UserManager<UserEntity>>();
        var current = await SessionValidation.CurrentAsync(users, authenticationState.User);
        if (current is null)
        {
            return false;
        }

        if (!ReferenceEquals(current, authenticationState.User))
        {
            // A new state restarts the revalidation loop with it.
            SetAuthenticationState(Task.FromResult(new AuthenticationState(current)));
        }

        return true;
    }
}
