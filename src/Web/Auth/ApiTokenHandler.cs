using System.Security.Claims;
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Auth;

/// <summary>
/// <c>Authorization: Bearer &lt;token&gt;</c> (RFC 6750) with an API token (<see cref="AccountService.CreateTokenAsync"/>):
/// the principal is named <c>token:NAME</c> and holds the token's role. No header: no result (the cookie decides);
/// an unknown, revoked or expired token: failure, so the request is answered 401.
/// </summary>
public sealed class ApiTokenHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder, AccountService accounts)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    /// <summary>The scheme's name (also the OpenAPI document's security scheme).</summary>
    public const string SchemeName = "Bearer";

    /// <summary>The secret of <c>Authorization: Bearer SECRET</c>, or null when the header is absent or another scheme.</summary>
    public static string? BearerToken(HttpRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var header = request.Headers.Authorization.ToString();
        return header.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase) ? header["Bearer ".Length..].Trim() : null;
    }

    /// <inheritdoc />
    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        var secret = BearerToken(Request);
        if (secret is null)
        {
            return AuthenticateResult.NoResult();
        }

        var token = await accounts.FindActiveTokenAsync(secret, Context.RequestAborted);
        if (token is null)
        {
            Logger.LogWarning("Refused an unknown, revoked or expired API token from {Address}", Context.Connection.RemoteIpAddress);
            return AuthenticateResult.Fail("unknown, revoked or expired API token");
        }

        var identity = new ClaimsIdentity(
            [new Claim(ClaimTypes.Name, $"token:{token.Name}"), new Claim(ClaimTypes.Role, token.Role), new Claim("token_id", token.Id.ToString(System.Globalization.CultureInfo.InvariantCulture))],
            SchemeName);
        return AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(identity), SchemeName));
    }
}
