using System.Security.Cryptography;
using System.Text;

namespace Dashboard.Web.Auth;

/// <summary>Random secrets (API tokens, setup links) and the hash they are stored as.</summary>
public static class Secrets
{
    /// <summary>The prefix of API tokens, so a leaked one is recognisable (e.g. by secret scanners).</summary>
    public const string TokenPrefix = "dbt_";

    /// <summary>A new secret: <paramref name="prefix"/> and 32 random bytes in base64url (43 characters).</summary>
    public static string New(string prefix = "") => prefix + Base64UrlEncode(RandomNumberGenerator.GetBytes(32));

    /// <summary>Lower-case hex SHA-256 of the UTF-8 bytes of <paramref name="secret"/> (64 characters): what is stored.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="secret"/> is null.</exception>
    public static string Hash(string secret)
    {
        ArgumentNullException.ThrowIfNull(secret);
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(secret)));
    }

    private static string Base64UrlEncode(byte[] bytes) =>
        Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
}
