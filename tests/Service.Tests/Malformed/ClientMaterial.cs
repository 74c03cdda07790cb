using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;

namespace Dashboard.Service.Tests.Malformed;

/// <summary>
/// What a correct client of the secure variants holds, read from the host's security folder (docs/security.md, "Where
/// the material lives"): the CA to trust (<c>ca.crt</c>), the client certificate and key (<c>client.p12</c> with
/// <c>keystore.password</c>) and the <c>bench</c> profile's user name and password (<c>credentials.json</c>).
/// </summary>
public sealed class ClientMaterial : IDisposable
{
    private ClientMaterial(string securityDirectory, X509Certificate2 ca, X509Certificate2 clientCertificate, string userName, string password)
    {
        SecurityDirectory = securityDirectory;
        Ca = ca;
        ClientCertificate = clientCertificate;
        UserName = userName;
        Password = password;
    }

    /// <summary>The host's security folder.</summary>
    public string SecurityDirectory { get; }

    /// <summary>The host's CA certificate: the only trust anchor for the server certificates.</summary>
    public X509Certificate2 Ca { get; }

    /// <summary>The client certificate (CN <c>dashboard-client</c>, clientAuth) with its private key.</summary>
    public X509Certificate2 ClientCertificate { get; }

    /// <summary>The <c>bench</c> profile's user name (Basic, UsernameToken).</summary>
    public string UserName { get; }

    /// <summary>The <c>bench</c> profile's password.</summary>
    public string Password { get; }

    /// <summary>The <c>Authorization</c> header value of HTTP Basic (RFC 7617) for the <c>bench</c> profile.</summary>
    public string BasicAuthorization => "Basic " + Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes($"{UserName}:{Password}"));

    /// <summary>Reads the material from <paramref name="securityDirectory"/>.</summary>
    public static ClientMaterial Load(string securityDirectory)
    {
        var ca = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(securityDirectory, "ca.crt"));
        var keyStorePassword = File.ReadAllText(Path.Combine(securityDirectory, "keystore.password")).Trim();
        var client = X509CertificateLoader.LoadPkcs12FromFile(Path.Combine(securityDirectory, "client.p12"), keyStorePassword);
        using var credentials = JsonDocument.Parse(File.ReadAllText(Path.Combine(securityDirectory, "credentials.json")));
        var bench = credentials.RootElement.GetProperty("profiles").GetProperty("bench");
        return new ClientMaterial(securityDirectory, ca, client, bench.GetProperty("userName").GetString()!, bench.GetProperty("password").GetString()!);
    }

    /// <summary>
    /// TLS client options for host name <c>localhost</c>: the server's chain must end at <see cref="Ca"/> alone (no system
    /// roots); the client certificate when <paramref name="clientCertificate"/>; ALPN <paramref name="protocols"/> when given.
    /// </summary>
    public SslClientAuthenticationOptions TlsOptions(bool clientCertificate, params SslApplicationProtocol[] protocols)
    {
        var policy = new X509ChainPolicy { TrustMode = X509ChainTrustMode.CustomRootTrust, RevocationMode = X509RevocationMode.NoCheck };
        policy.CustomTrustStore.Add(Ca);
        return new SslClientAuthenticationOptions
        {
            TargetHost = "localhost",
            CertificateChainPolicy = policy,
            ClientCertificates = clientCertificate ? [ClientCertificate] : null,
            ApplicationProtocols = protocols.Length > 0 ? [.. protocols] : null,
        };
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Ca.Dispose();
        ClientCertificate.Dispose();
    }
}
