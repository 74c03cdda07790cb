using System.Net.Http.Headers;
using System.Security.Cryptography;

namespace Dashboard.Service.Contracts.Security;

/// <summary>
/// The service host's control token (docs/security.md, "The control API's token"): every control API route but
/// <c>GET /healthz</c> asks for <c>Authorization: Bearer &lt;token&gt;</c>. The host takes it from
/// <c>ServiceHost:ControlToken</c> or makes one at first start into its security folder (<see cref="FileName"/>, 0600);
/// the runner and the dashboard send it. Shared by the host, the runner, the dashboard and the tests.
/// </summary>
public static class HostControlToken
{
    /// <summary>The file of the security folder the host writes its generated token to (one line, mode 0600).</summary>
    public const string FileName = "control-token";

    /// <summary>The environment variable the runner (and a load agent) reads the token of the host it calls from.</summary>
    public const string EnvironmentVariable = "DASHBOARD_HOST_TOKEN";

    /// <summary>The authorization scheme.</summary>
    public const string Scheme = "Bearer";

    /// <summary>Bytes of randomness of a generated token (256 bits, written as 43 base64url characters).</summary>
    public const int RandomBytes = 32;

    /// <summary>A new random token: 43 base64url characters (no padding), safe in a header, a file and an environment variable.</summary>
    public static string Generate() =>
        Convert.ToBase64String(RandomNumberGenerator.GetBytes(RandomBytes)).TrimEnd('=').Replace('+', '-').Replace('/', '_');

    /// <summary>The token in the security folder <paramref name="securityDirectory"/> (<see cref="FileName"/>, trimmed), or null when there is none or it cannot be read.</summary>
    public static string? ReadFile(string securityDirectory)
    {
        ArgumentNullException.ThrowIfNull(securityDirectory);
        try
        {
            var text = File.ReadAllText(Path.Combine(securityDirectory, FileName)).Trim();
            return text.Length == 0 ? null : text;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The <c>Authorization</c> header value for <paramref name="token"/>.</summary>
    public static AuthenticationHeaderValue Header(string token) => new(Scheme, token);

    /// <summary>
    /// True when <paramref name="presented"/> (the whole <c>Authorization</c> header value, or null) is <c>Bearer</c> and
    /// <paramref name="expected"/>. Both are hashed first (SHA-256) and the hashes compared in constant time, so neither
    /// the token's content nor its length shows in the time it takes.
    /// </summary>
    public static bool Matches(string? presented, string expected)
    {
        ArgumentNullException.ThrowIfNull(expected);
        if (presented is null || !presented.StartsWith(Scheme + " ", StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        var given = SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(presented[(Scheme.Length + 1)..].Trim()));
        var wanted = SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(expected));
        return CryptographicOperations.FixedTimeEquals(given, wanted);
    }
}
