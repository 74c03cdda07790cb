namespace Dashboard.Service.Contracts.Security;

/// <summary>
/// One credential profile (docs/security.md): the user name and password a client sends to the Basic and UsernameToken
/// variants. Scenarios name a profile; the password lives only in the host's <c>credentials.json</c>.
/// <see cref="ToString"/> never shows the password, so a profile that reaches a log line leaks nothing.
/// </summary>
/// <param name="UserName">The user name (no colon: Basic joins user and password with one).</param>
/// <param name="Password">The password.</param>
public sealed record CredentialProfile(string UserName, string Password)
{
    /// <summary>The profile scenarios name by default (<c>"credentialProfile": "bench"</c>) and the one profile of the host's default configuration.</summary>
    public const string DefaultName = "bench";

    /// <summary>The user name; the password is redacted.</summary>
    public override string ToString() => $"CredentialProfile {{ UserName = {UserName}, Password = *** }}";
}
