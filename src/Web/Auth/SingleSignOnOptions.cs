using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Auth;

/// <summary>
/// Section <c>Dashboard:Auth:OpenIdConnect</c>: single sign-on with an organisation's OpenID Connect provider
/// (authorization code flow with PKCE; docs/security.md, "Single sign-on"). Off while <see cref="Authority"/> is unset;
/// accounts with passwords and API tokens keep working beside it.
/// </summary>
public sealed class SingleSignOnOptions : IValidatableObject
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard:Auth:OpenIdConnect";

    /// <summary>The authentication scheme's name (the callback is <see cref="CallbackPath"/>).</summary>
    public const string Scheme = "OpenIdConnect";

    /// <summary>The provider's issuer address (its <c>/.well-known/openid-configuration</c> is read from there); null: single sign-on is off.</summary>
    public Uri? Authority { get; set; }

    /// <summary>The dashboard's client id at the provider.</summary>
    public string? ClientId { get; set; }

    /// <summary>The client secret (a confidential client); null for a public client (PKCE only). <c>ClientSecret_FILE</c> reads it from a file.</summary>
    public string? ClientSecret { get; set; }

    /// <summary>The provider's name on the sign-in page's button ("Sign in with …").</summary>
    [Required]
    public string DisplayName { get; set; } = "single sign-on";

    /// <summary>The scopes asked for, beside <c>openid</c>.</summary>
    public List<string> Scopes { get; set; } = ["profile"];

    /// <summary>The ID token claim whose value becomes the account's name (falling back to <c>name</c>, <c>email</c>, then <c>sub</c>).</summary>
    [Required]
    public string UserNameClaim { get; set; } = "preferred_username";

    /// <summary>The ID token claim that carries the person's roles (one claim per value, or a JSON array).</summary>
    [Required]
    public string RoleClaim { get; set; } = "roles";

    /// <summary>
    /// The provider's role values → dashboard roles (Viewer, Operator, Admin), e.g. <c>"bench-admins": "Admin"</c>; the
    /// highest mapped role wins. Empty: the claim's values are read as the dashboard's role names themselves.
    /// </summary>
    public Dictionary<string, string> Roles { get; set; } = new(StringComparer.Ordinal);

    /// <summary>The role of a person whose token carries no mapped role; null (the default): such a person is refused.</summary>
    public string? DefaultRole { get; set; }

    /// <summary>Whether the provider's metadata must come over HTTPS (default true; false only for a provider on a trusted network or in tests).</summary>
    public bool RequireHttpsMetadata { get; set; } = true;

    /// <summary>Where the provider sends the browser back (default <c>/signin-oidc</c>); register <c>{public address}{CallbackPath}</c> at the provider.</summary>
    [Required]
    public string CallbackPath { get; set; } = "/signin-oidc";

    /// <summary>True when single sign-on is configured.</summary>
    public bool Enabled => Authority is not null;

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!Enabled)
        {
            yield break;
        }

        if (string.IsNullOrWhiteSpace(ClientId))
        {
            yield return new ValidationResult($"{Section}:ClientId is required when {Section}:Authority is set", [nameof(ClientId)]);
        }

        if (DefaultRole is not null && DashboardRoles.Parse(DefaultRole) is null)
        {
            yield return new ValidationResult($"{Section}:DefaultRole: unknown role '{DefaultRole}': Viewer, Operator or Admin", [nameof(DefaultRole)]);
        }

        foreach (var (value, role) in Roles)
        {
            if (DashboardRoles.Parse(role) is null)
            {
                yield return new ValidationResult($"{Section}:Roles:{value}: unknown role '{role}': Viewer, Operator or Admin", [nameof(Roles)]);
            }
        }

        if (!CallbackPath.StartsWith('/'))
        {
            yield return new ValidationResult($"{Section}:CallbackPath must start with '/' (got '{CallbackPath}')", [nameof(CallbackPath)]);
        }
    }

    /// <summary>
    /// The dashboard role of a person whose token carries <paramref name="values"/> in <see cref="RoleClaim"/>: the highest
    /// mapped one, else <see cref="DefaultRole"/> (canonical spelling), else null (refused).
    /// </summary>
    public string? RoleOf(IEnumerable<string> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var mapped = values.Select(v => Roles.Count == 0 ? DashboardRoles.Parse(v) : Roles.TryGetValue(v, out var r) ? DashboardRoles.Parse(r) : null)
            .Where(r => r is not null).MaxBy(DashboardRoles.Rank);
        return mapped ?? DashboardRoles.Parse(DefaultRole);
    }
}
