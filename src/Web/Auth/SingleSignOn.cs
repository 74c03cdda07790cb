using System.Security.Claims;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.Extensions.Options;
using Microsoft.IdentityModel.Protocols.OpenIdConnect;
using HttpResults = Microsoft.AspNetCore.Http.Results;

namespace Dashboard.Web.Auth;

/// <summary>
/// Single sign-on (docs/security.md, "Single sign-on"): ASP.NET Core's OpenID Connect handler, authorization code flow
/// with PKCE, configured by <see cref="SingleSignOnOptions"/>. A person the provider vouches for gets a dashboard account
/// of their own (<see cref="AccountService.SignInExternalAsync"/>: keyed by issuer and subject, role from the provider's
/// role claim at every sign-in), then the same sign-in cookie as a password sign-in, so sessions, roles, the audit log
/// and the Users page work alike.
/// </summary>
public static class SingleSignOn
{
    /// <summary>The sign-in page's error code when the provider's token carries no mapped role and there is no default.</summary>
    public const string NoRole = "sso-norole";

    /// <summary>The sign-in page's error code when the account is disabled.</summary>
    public const string Disabled = "sso-disabled";

    /// <summary>The sign-in page's error code when the provider's answer failed (refused, expired, invalid); the log says why.</summary>
    public const string Failed = "sso-failed";

    /// <summary>
    /// Adds the OpenID Connect scheme <see cref="SingleSignOnOptions.Scheme"/> when <c>Dashboard:Auth:OpenIdConnect:Authority</c>
    /// is set (read once here; the section is validated at start either way).
    /// </summary>
    public static AuthenticationBuilder AddSingleSignOn(this AuthenticationBuilder authentication, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(authentication);
        ArgumentNullException.ThrowIfNull(configuration);
        authentication.Services.AddOptions<SingleSignOnOptions>().Bind(configuration.GetSection(SingleSignOnOptions.Section))
            .ValidateDataAnnotations().ValidateOnStart();
        var sso = configuration.GetSection(SingleSignOnOptions.Section).Get<SingleSignOnOptions>() ?? new SingleSignOnOptions();
        if (!sso.Enabled)
        {
            return authentication;
        }

        return authentication.AddOpenIdConnect(SingleSignOnOptions.Scheme, sso.DisplayName, o =>
        {
            o.Authority = sso.Authority!.ToString();
            o.ClientId = sso.ClientId;
            o.ClientSecret = sso.ClientSecret;
            o.RequireHttpsMetadata = sso.RequireHttpsMetadata;
            o.CallbackPath = sso.CallbackPath;
            o.ResponseType = OpenIdConnectResponseType.Code;
            o.UsePkce = true;
            // The code comes back in the query of a top-level GET, so the correlation and nonce cookies can be SameSite=Lax
            // and work on a dashboard served over plain HTTP inside a trusted network (form_post needs SameSite=None; Secure).
            o.ResponseMode = OpenIdConnectResponseMode.Query;
            o.CorrelationCookie.SameSite = SameSiteMode.Lax;
            o.CorrelationCookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            o.NonceCookie.SameSite = SameSiteMode.Lax;
            o.NonceCookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            o.SignInScheme = CookieAuthenticationDefaults.AuthenticationScheme;
            o.MapInboundClaims = false;
            o.GetClaimsFromUserInfoEndpoint = false;
            o.SaveTokens = false;
            o.Scope.Clear();
            o.Scope.Add("openid");
            foreach (var scope in sso.Scopes)
            {
                o.Scope.Add(scope);
            }

            o.Events.OnTokenValidated = OnTokenValidatedAsync;
            o.Events.OnRemoteFailure = OnRemoteFailure;
        });
    }

    /// <summary>
    /// Maps <c>GET /account/sso?returnUrl=PATH</c>: sends the browser to the provider (404 when single sign-on is off).
    /// </summary>
    public static IEndpointRouteBuilder MapSingleSignOn(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapGet("/account/sso", ChallengeAsync).AllowAnonymous().RequireRateLimiting(AuthExtensions.SignInLimit).ExcludeFromDescription();
        return app;
    }

    /// <summary>The sign-in page's error code when the provider's metadata cannot be read (down, wrong address); the log says why.</summary>
    public const string Unreachable = "sso-unreachable";

    // Sends the browser to the provider. The handler reads the provider's metadata first: when that fails (provider down,
    // wrong Authority) the person lands on the sign-in page with the reason instead of an error page.
    private static async Task<IResult> ChallengeAsync(string? returnUrl, HttpContext http, IOptions<SingleSignOnOptions> options, ILoggerFactory logs)
    {
        if (!options.Value.Enabled)
        {
            return HttpResults.NotFound();
        }

        try
        {
            await http.ChallengeAsync(SingleSignOnOptions.Scheme, new AuthenticationProperties { RedirectUri = AccountEndpoints.IsLocal(returnUrl) ? returnUrl : "/" });
            return HttpResults.Empty;
        }
        catch (InvalidOperationException e) when (!http.Response.HasStarted)
        {
            logs.CreateLogger("Dashboard.Web.Auth.SingleSignOn").LogWarning(e, "Single sign-on: the provider's metadata at {Authority} cannot be read: {Reason}", options.Value.Authority, e.Message);
            http.Response.Clear();
            return HttpResults.Redirect($"/account/login?error={Unreachable}");
        }
    }

    private static async Task OnTokenValidatedAsync(TokenValidatedContext context)
    {
        var http = context.HttpContext;
        var options = http.RequestServices.GetRequiredService<IOptions<SingleSignOnOptions>>().Value;
        var log = http.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger("Dashboard.Web.Auth.SingleSignOn");
        var principal = context.Principal!;
        var issuer = Value(principal, "iss") ?? context.SecurityToken.Issuer;
        var subject = Value(principal, "sub");
        if (string.IsNullOrEmpty(subject))
        {
            context.Fail("the ID token has no 'sub' claim");
            return;
        }

        var name = Value(principal, options.UserNameClaim) ?? Value(principal, "name") ?? Value(principal, "email") ?? subject;
        var role = options.RoleOf(principal.FindAll(options.RoleClaim).Select(c => c.Value));
        var accounts = http.RequestServices.GetRequiredService<AccountService>();
        var address = http.Connection.RemoteIpAddress?.ToString() ?? "?";
        if (role is null)
        {
            log.LogWarning("Single sign-on refused for {Name} ({Issuer}|{Subject}): no role in claim '{Claim}' maps to a dashboard role, and there is no DefaultRole", name, issuer, subject, options.RoleClaim);
            await accounts.AuditAsync(address, "sign-in refused (single sign-on: no role)", name);
            Refuse(context, NoRole);
            return;
        }

        var (user, refusal) = await accounts.SignInExternalAsync($"{issuer}|{subject}", name, role, http.RequestAborted);
        if (user is null)
        {
            log.LogWarning("Single sign-on refused for {Name}: {Refusal}", name, refusal);
            await accounts.AuditAsync(address, "sign-in refused (disabled)", name);
            Refuse(context, Disabled);
            return;
        }

        context.Principal = AuthExtensions.PrincipalOf(user);
        await accounts.AuditAsync(user.UserName, AccountService.SignedIn, $"{address} (single sign-on)");
    }

    private static string? Value(ClaimsPrincipal principal, string type) => principal.FindFirst(type)?.Value;

    private static void Refuse(TokenValidatedContext context, string error)
    {
        context.HandleResponse();
        context.Response.Redirect($"/account/login?error={error}");
    }

    private static Task OnRemoteFailure(RemoteFailureContext context)
    {
        context.HttpContext.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger("Dashboard.Web.Auth.SingleSignOn")
            .LogWarning(context.Failure, "Single sign-on failed: {Reason}", context.Failure?.Message);
        context.HandleResponse();
        context.Response.Redirect($"/account/login?error={Failed}");
        return Task.CompletedTask;
    }
}
