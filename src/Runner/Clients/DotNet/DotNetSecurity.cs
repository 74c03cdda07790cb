using System.Net.Http.Headers;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// What the <c>dotnet</c> client needs for one secure endpoint (docs/security.md), loaded once per cell: the host's CA
/// as the only trusted root (custom root trust in <see cref="SslClientAuthenticationOptions.CertificateChainPolicy"/>;
/// the host name is checked too, nothing accepts any certificate), the client certificate from <c>client.p12</c> for
/// mutual TLS, and the <c>Authorization: Basic</c> header of the scenario's credential profile.
/// </summary>
public sealed class DotNetSecurity : IDisposable
{
    private readonly X509Certificate2? _ca;
    private readonly X509Certificate2? _clientCertificate;

    private DotNetSecurity(X509Certificate2? ca, X509Certificate2? clientCertificate, AuthenticationHeaderValue? authorization)
    {
        _ca = ca;
        _clientCertificate = clientCertificate;
        Authorization = authorization;
    }

    /// <summary>Nothing: an unsecure endpoint (or the peer variant, where the OS identity travels by itself).</summary>
    public static DotNetSecurity None { get; } = new(null, null, null);

    /// <summary>The client certificate (with its private key) of an endpoint whose client credential is Certificate, or null; owned by this object.</summary>
    public X509Certificate2? ClientCertificate => _clientCertificate;

    /// <summary>The <c>Authorization</c> header of every request (Basic), or null.</summary>
    public AuthenticationHeaderValue? Authorization { get; }

    /// <summary>Loads what <paramref name="endpoint"/> needs from <paramref name="security"/>.</summary>
    /// <exception cref="LoadClientException">The endpoint needs a CA or credentials that <paramref name="security"/> lacks, or a file cannot be read.</exception>
    public static DotNetSecurity For(HostEndpoint endpoint, ClientSecurity? security)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        // HTTPS, or net.tcp with Transport security (TLS after the framing's upgrade: the wcfbindings stack).
        var tls = endpoint.Address.StartsWith("https:", StringComparison.OrdinalIgnoreCase)
            || (endpoint.Address.StartsWith("net.tcp:", StringComparison.OrdinalIgnoreCase) && endpoint.SecurityMode == "Transport");
        var basic = endpoint.CredentialType == "Basic";
        var certificate = endpoint.CredentialType == "Certificate";
        if (!tls && !basic && !certificate)
        {
            return None;
        }

        X509Certificate2? ca = null;
        X509Certificate2? client = null;
        try
        {
            if (tls)
            {
                var path = security?.CaCertificate ?? throw new LoadClientException($"{endpoint.Name} uses TLS and no CA certificate was given (the runner's --security-dir)");
                ca = X509CertificateLoader.LoadCertificateFromFile(path);
            }

            // Credentials missing: the client calls without them and the service's refusals are counted (Authentication),
            // as a misconfigured client would see them. The runner always passes them (SecurityFolder).
            var credentials = security?.Credentials;
            if (certificate && credentials?.Certificate is { } keyStore)
            {
                client = X509CertificateLoader.LoadPkcs12FromFile(keyStore, credentials.Password);
            }

            AuthenticationHeaderValue? authorization = null;
            if (basic && credentials?.UserName is { } user)
            {
                authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes($"{user}:{credentials.Password}")));
            }

            return new DotNetSecurity(ca, client, authorization);
        }
        catch (Exception e) when (e is CryptographicException or IOException or UnauthorizedAccessException)
        {
            ca?.Dispose();
            client?.Dispose();
            throw new LoadClientException($"cannot load the security material of {endpoint.Name}: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    /// <summary>Sets the handler's TLS options: our CA as the only root, the host name checked, the client certificate when there is one.</summary>
    public void Configure(SocketsHttpHandler handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        if (CreateSslOptions() is { } options)
        {
            handler.SslOptions = options;
        }
    }

    /// <summary>
    /// The TLS options <see cref="Configure"/> gives a handler, for clients that run <see cref="SslStream"/> themselves (the
    /// <c>lean</c> generator): our CA as the only root, the client certificate when there is one; the caller sets
    /// <see cref="SslClientAuthenticationOptions.TargetHost"/> (checked against the server's certificate). Null without a CA
    /// (an endpoint without TLS).
    /// </summary>
    public SslClientAuthenticationOptions? CreateSslOptions()
    {
        if (_ca is null)
        {
            return null;
        }

        var policy = new X509ChainPolicy
        {
            TrustMode = X509ChainTrustMode.CustomRootTrust,
            RevocationMode = X509RevocationMode.NoCheck,
        };
        policy.CustomTrustStore.Add(_ca);
        return new SslClientAuthenticationOptions
        {
            EnabledSslProtocols = SslProtocols.Tls12 | SslProtocols.Tls13,
            CertificateChainPolicy = policy,
            CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
            ClientCertificates = _clientCertificate is null ? null : new X509CertificateCollection { _clientCertificate },
        };
    }

    /// <summary>
    /// True when <paramref name="certificate"/> chains to our CA alone (no revocation check), as <see cref="Configure"/>'s
    /// handshake checks it; false without a CA. For clients that validate the server's certificate themselves (WCF's net.tcp).
    /// </summary>
    public bool IsTrustedServerCertificate(X509Certificate2 certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        if (_ca is null)
        {
            return false;
        }

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.CustomTrustStore.Add(_ca);
        return chain.Build(certificate);
    }

    /// <summary>
    /// True when <paramref name="error"/> is a TLS refusal: a handshake that failed (our validation of the server's
    /// certificate, or the server's alert refusing ours) or, with TLS 1.3, the server's alert right after the handshake.
    /// </summary>
    public static bool IsTlsRefusal(HttpRequestException error)
    {
        ArgumentNullException.ThrowIfNull(error);
        if (error.HttpRequestError == HttpRequestError.SecureConnectionError)
        {
            return true;
        }

        for (Exception? e = error; e is not null; e = e.InnerException)
        {
            if (e is AuthenticationException)
            {
                return true;
            }
        }

        return false;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _ca?.Dispose();
        _clientCertificate?.Dispose();
    }
}
