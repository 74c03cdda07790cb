namespace Dashboard.Service.Contracts.Security;

/// <summary>The file names of the security folder (docs/security.md's table), shared by the host, the runner and the tests.</summary>
public static class SecurityFiles
{
    /// <summary>PEM: the local CA's certificate (public).</summary>
    public const string CaCertificate = "ca.crt";

    /// <summary>PKCS#12: the CA's key and certificate (0600).</summary>
    public const string CaKeyStore = "ca.p12";

    /// <summary>PKCS#12: server key, certificate and CA chain, alias <see cref="ServerAlias"/> (0600).</summary>
    public const string ServerKeyStore = "server.p12";

    /// <summary>PEM: the server certificate (public; WS-Security encrypts to it).</summary>
    public const string ServerCertificate = "server.crt";

    /// <summary>PKCS#12: client key, certificate and CA chain, alias <see cref="ClientAlias"/> (0600).</summary>
    public const string ClientKeyStore = "client.p12";

    /// <summary>PEM: the client certificate (public).</summary>
    public const string ClientCertificate = "client.crt";

    /// <summary>One line: the password of every <c>.p12</c> file of the folder (0600).</summary>
    public const string KeyStorePassword = "keystore.password";

    /// <summary>JSON: the credential profiles with their passwords (0600), see <see cref="CredentialsDocument"/>.</summary>
    public const string Credentials = "credentials.json";

    /// <summary>The alias (PKCS#12 friendly name) of the server's key entry.</summary>
    public const string ServerAlias = "server";

    /// <summary>The alias (PKCS#12 friendly name) of the client's key entry.</summary>
    public const string ClientAlias = "client";

    /// <summary>The client certificate's common name.</summary>
    public const string ClientCommonName = "dashboard-client";

    /// <summary>The files a runner on another machine needs (copy them and pass <c>--security-dir</c>).</summary>
    public static IReadOnlyList<string> ForRemoteRunners { get; } = [CaCertificate, ClientKeyStore, ServerCertificate, KeyStorePassword, Credentials];

    /// <summary>The files that hold secrets: written with mode 0600.</summary>
    public static IReadOnlyList<string> Private { get; } = [CaKeyStore, ServerKeyStore, ClientKeyStore, KeyStorePassword, Credentials];
}
