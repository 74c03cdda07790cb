using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Auth;

/// <summary>Section <c>Dashboard:Auth</c>: sign-in, setup links, tokens and rate limits (docs/security.md, "The dashboard's side").</summary>
public sealed class AuthOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard:Auth";

    /// <summary>
    /// The address people open the dashboard at, for links printed on the console (setup links); null: the address the
    /// dashboard listens on (<c>localhost</c> for a wildcard), or <c>http://localhost:5080</c> from the command line.
    /// </summary>
    public Uri? PublicAddress { get; set; }

    /// <summary>How long a setup link works (default 24 h).</summary>
    [Range(typeof(TimeSpan), "00:01:00", "30.00:00:00")]
    public TimeSpan SetupLinkLifetime { get; set; } = TimeSpan.FromHours(24);

    /// <summary>How long a sign-in lasts without activity (sliding; default 8 h).</summary>
    [Range(typeof(TimeSpan), "00:01:00", "30.00:00:00")]
    public TimeSpan SessionLifetime { get; set; } = TimeSpan.FromHours(8);

    /// <summary>Sign-in attempts per client address per minute before 429 (default 5).</summary>
    [Range(1, 10_000)]
    public int SignInPermitsPerMinute { get; set; } = 5;

    /// <summary>API requests per caller (user, token or address) per minute before 429 (default 3000).</summary>
    [Range(1, 1_000_000)]
    public int ApiPermitsPerMinute { get; set; } = 3000;

    /// <summary>Wrong passwords in a row before an account is locked out for <see cref="LockoutDuration"/> (default 5).</summary>
    [Range(1, 100)]
    public int MaxFailedSignIns { get; set; } = 5;

    /// <summary>How long an account stays locked out (default 5 min).</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan LockoutDuration { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>
    /// How often an open Blazor circuit checks its account (role changed, account deleted or disabled; default 30 s). The
    /// sign-in cookie is checked at every request.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan CircuitRevalidationInterval { get; set; } = TimeSpan.FromSeconds(30);
}
