namespace Dashboard.Data.Accounts;

/// <summary>A person who signs in to the dashboard (ASP.NET Core Identity's user, docs/security.md "The dashboard's side").</summary>
public sealed class UserEntity
{
    /// <summary>Key.</summary>
    public int Id { get; set; }

    /// <summary>The name the person signs in with, as typed.</summary>
    public string UserName { get; set; } = "";

    /// <summary>The name upper-cased by Identity's normalizer; unique.</summary>
    public string NormalizedUserName { get; set; } = "";

    /// <summary>Identity's password hash (PBKDF2, versioned); null until the setup link is used.</summary>
    public string? PasswordHash { get; set; }

    /// <summary>Viewer, Operator or Admin (each includes the ones before it).</summary>
    public string Role { get; set; } = "";

    /// <summary>Changes when the password changes; invalidates cookies issued before.</summary>
    public string SecurityStamp { get; set; } = "";

    /// <summary>Wrong passwords in a row since the last success.</summary>
    public int AccessFailedCount { get; set; }

    /// <summary>Locked out until this time (UTC); null when not locked out.</summary>
    public DateTime? LockoutEndUtc { get; set; }

    /// <summary>When the account was created (UTC).</summary>
    public DateTime CreatedUtc { get; set; }

    /// <summary>
    /// The OpenID Connect identity this account signs in with, <c>issuer|subject</c> (the <c>iss</c> and <c>sub</c> claims of
    /// the provider's ID token; docs/security.md, "Single sign-on"); null for an account with a password or a setup link.
    /// Unique. Such an account has no password and its role follows the provider's role claim at every sign-in.
    /// </summary>
    public string? ExternalLogin { get; set; }
}

/// <summary>An API token: a role, an expiry, and the SHA-256 of its secret (the secret itself is shown once and never stored).</summary>
public sealed class ApiTokenEntity
{
    /// <summary>Key.</summary>
    public int Id { get; set; }

    /// <summary>A label (e.g. "ci").</summary>
    public string Name { get; set; } = "";

    /// <summary>Viewer, Operator or Admin.</summary>
    public string Role { get; set; } = "";

    /// <summary>Lower-case hex SHA-256 of the whole token string; unique.</summary>
    public string Hash { get; set; } = "";

    /// <summary>Who created it (a user name, or "command line").</summary>
    public string CreatedBy { get; set; } = "";

    /// <summary>When it was created (UTC).</summary>
    public DateTime CreatedUtc { get; set; }

    /// <summary>When it stops working (UTC); null: never.</summary>
    public DateTime? ExpiresUtc { get; set; }

    /// <summary>When it was revoked (UTC); null: not revoked.</summary>
    public DateTime? RevokedUtc { get; set; }
}

/// <summary>A one-time link that sets an account's password (the first admin, <c>admin create</c>, <c>admin reset</c>).</summary>
public sealed class SetupLinkEntity
{
    /// <summary>Key.</summary>
    public int Id { get; set; }

    /// <summary>Lower-case hex SHA-256 of the link's token; unique.</summary>
    public string Hash { get; set; } = "";

    /// <summary>The account it sets up; null: the person chooses the name (first start).</summary>
    public string? UserName { get; set; }

    /// <summary>The role the account gets (Admin for the first start).</summary>
    public string Role { get; set; } = "";

    /// <summary>When it was made (UTC).</summary>
    public DateTime CreatedUtc { get; set; }

    /// <summary>When it stops working (UTC).</summary>
    public DateTime ExpiresUtc { get; set; }

    /// <summary>When it was used (UTC); null: not yet. A link works once.</summary>
    public DateTime? UsedUtc { get; set; }
}

/// <summary>One line of the audit log: who did what to what, and when.</summary>
public sealed class AuditEventEntity
{
    /// <summary>Key.</summary>
    public long Id { get; set; }

    /// <summary>When (UTC).</summary>
    public DateTime TimeUtc { get; set; }

    /// <summary>Who: a user name, <c>token:NAME</c>, <c>command line</c> or an address for anonymous attempts.</summary>
    public string Actor { get; set; } = "";

    /// <summary>What, e.g. <c>POST /api/runs</c>, <c>token created</c>, <c>sign-in failed</c>.</summary>
    public string Action { get; set; } = "";

    /// <summary>On what (a run id, a token name, a user name), or the answer's status code; may be empty.</summary>
    public string Target { get; set; } = "";
}
