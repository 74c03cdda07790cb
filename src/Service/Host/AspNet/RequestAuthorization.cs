using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;
using Dashboard.Service.Contracts.Security;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The per-request credential checks of the aspnet variants (docs/security.md): HTTP Basic against the credential
/// profiles (401 with <c>WWW-Authenticate</c> when missing or wrong), the client certificate of the TLS connection
/// (403 when missing, not issued by the host's CA or not valid now) and the Unix socket peer's uid (403 when not
/// allowed). The certificate and the uid are checked once per connection and the verdict kept in the connection's items.
/// </summary>
public static class RequestAuthorization
{
    /// <summary>The realm of the Basic challenge.</summary>
    public const string Realm = "dashboard-benchmark";

    private const string PeerUidKey = "dashboard.peer-uid";
    private const string ClientCertificateKey = "dashboard.client-certificate-trusted";

    /// <summary>
    /// True when the connection's client certificate (presented in the handshake, key possession proven there) passes
    /// <paramref name="isTrusted"/>; else writes 403 and returns false. The verdict is kept per connection.
    /// </summary>
    public static bool CheckClientCertificate(HttpContext context, Func<System.Security.Cryptography.X509Certificates.X509Certificate2, bool> isTrusted)
    {
        if (IsClientCertificateTrusted(context, isTrusted))
        {
            return true;
        }

        context.Response.StatusCode = StatusCodes.Status403Forbidden;
        return false;
    }

    /// <summary>
    /// True when the connection's client certificate passes <paramref name="isTrusted"/>; the verdict is kept per
    /// connection. Writes nothing (the gRPC variant answers with a status instead of 403).
    /// </summary>
    public static bool IsClientCertificateTrusted(HttpContext context, Func<System.Security.Cryptography.X509Certificates.X509Certificate2, bool> isTrusted)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(isTrusted);
        var items = context.Features.Get<IConnectionItemsFeature>()?.Items;
        if (items is null || !items.TryGetValue(ClientCertificateKey, out var verdict) || verdict is not bool trusted)
        {
            trusted = context.Connection.ClientCertificate is { } certificate && isTrusted(certificate);
            if (items is not null)
            {
                items[ClientCertificateKey] = trusted;
            }
        }

        return trusted;
    }

    /// <summary>
    /// Checks <c>Authorization: Basic base64(user:password)</c> against <paramref name="profiles"/> (user name exact,
    /// password compared in constant time). Writes 401 and returns false when it does not match.
    /// </summary>
    public static bool CheckBasic(HttpContext context, IReadOnlyDictionary<string, byte[]> passwordsByUser)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(passwordsByUser);
        if (IsValidBasic(context.Request.Headers.Authorization.ToString(), passwordsByUser))
        {
            return true;
        }

        context.Response.StatusCode = StatusCodes.Status401Unauthorized;
        context.Response.Headers.WWWAuthenticate = $"Basic realm=\"{Realm}\", charset=\"UTF-8\"";
        return false;
    }

    /// <summary>The password bytes (UTF-8) of each profile's user name, for <see cref="CheckBasic"/>.</summary>
    public static IReadOnlyDictionary<string, byte[]> PasswordsByUser(IReadOnlyDictionary<string, CredentialProfile> profiles)
    {
        ArgumentNullException.ThrowIfNull(profiles);
        var byUser = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (var profile in profiles.Values)
        {
            byUser[profile.UserName] = Encoding.UTF8.GetBytes(profile.Password);
        }

        return byUser;
    }

    /// <summary>True when <paramref name="header"/> is <c>Basic</c> credentials of a known user with its password.</summary>
    public static bool IsValidBasic(string header, IReadOnlyDictionary<string, byte[]> passwordsByUser)
    {
        ArgumentNullException.ThrowIfNull(header);
        ArgumentNullException.ThrowIfNull(passwordsByUser);
        const string scheme = "Basic ";
        if (!header.StartsWith(scheme, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        var encoded = header.AsSpan(scheme.Length).Trim();
        var room = (encoded.Length * 3 / 4) + 3;
        Span<byte> decoded = room <= 512 ? stackalloc byte[room] : new byte[room];
        if (!Convert.TryFromBase64Chars(encoded, decoded, out var length))
        {
            return false;
        }

        var pair = decoded[..length];
        var colon = pair.IndexOf((byte)':');
        if (colon <= 0)
        {
            return false;
        }

        var user = Encoding.UTF8.GetString(pair[..colon]);
        return passwordsByUser.TryGetValue(user, out var expected) && CryptographicOperations.FixedTimeEquals(pair[(colon + 1)..], expected);
    }

    /// <summary>
    /// Connection middleware of the peer variant: reads the caller's uid once per accepted Unix socket
    /// (<c>getsockopt(SO_PEERCRED)</c>) and keeps it in the connection's items for <see cref="CheckPeer"/>.
    /// </summary>
    public static Func<ConnectionDelegate, ConnectionDelegate> ReadPeerUid => next => connection =>
    {
        var socket = connection.Features.Get<IConnectionSocketFeature>()?.Socket;
        connection.Items[PeerUidKey] = socket is null ? null : PeerCredentials.UidOf(socket);
        return next(connection);
    };

    /// <summary>True when the connection's peer uid is one of <paramref name="allowedUids"/>; else writes 403 and returns false.</summary>
    public static bool CheckPeer(HttpContext context, IReadOnlySet<int> allowedUids)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(allowedUids);
        var items = context.Features.Get<IConnectionItemsFeature>()?.Items;
        if (items is not null && items.TryGetValue(PeerUidKey, out var uid) && uid is int peer && allowedUids.Contains(peer))
        {
            return true;
        }

        context.Response.StatusCode = StatusCodes.Status403Forbidden;
        return false;
    }
}

/// <summary><c>SO_PEERCRED</c> of a connected Unix domain socket (Linux <c>struct ucred</c>: pid, uid, gid).</summary>
public static class PeerCredentials
{
    private const int SolSocket = 1;
    private const int SoPeerCred = 17;

    /// <summary>The uid of the process at the other end of <paramref name="socket"/>, or null when the kernel does not say.</summary>
    public static int? UidOf(System.Net.Sockets.Socket socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        Span<byte> ucred = stackalloc byte[12];
        try
        {
            var length = socket.GetRawSocketOption(SolSocket, SoPeerCred, ucred);
            return length >= 8 ? MemoryMarshal.Read<int>(ucred[4..8]) : null;
        }
        catch (System.Net.Sockets.SocketException)
        {
            return null;
        }
    }

    /// <summary>The effective uid of this process (second field of the <c>Uid:</c> line of <c>/proc/self/status</c>).</summary>
    public static int CurrentUid
    {
        get
        {
            var line = File.ReadLines("/proc/self/status").First(l => l.StartsWith("Uid:", StringComparison.Ordinal));
            return int.Parse(line.Split('\t', StringSplitOptions.RemoveEmptyEntries)[2], System.Globalization.CultureInfo.InvariantCulture);
        }
    }
}
