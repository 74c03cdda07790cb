using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.Pkcs;
using System.Security.Cryptography.X509Certificates;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Host.Settings;

namespace Dashboard.Service.Host.Security;

/// <summary>
/// The host's security material (docs/security.md): a local CA, a server certificate, a client certificate, their
/// PKCS#12 key stores under one random password, and the credential profiles with their passwords, all in
/// <c>&lt;DataDirectory&gt;/security/</c> (folder 0700, secrets 0600). Made with .NET's <see cref="CertificateRequest"/>
/// when the host starts, before any hosted service (the JVM supervisor hands the folder to the JVM service); material that
/// exists and is still valid is reused, so clients' trust in the CA survives restarts.
/// </summary>
/// <remarks>
/// Keys are RSA 2048 (the WS-Security X.509 variant encrypts keys to the server's and the client's certificates, which
/// needs RSA; Java and IceSSL read them as they are). Key stores are PKCS#12 with PBES2/AES-256/SHA-256 and a SHA-256 MAC,
/// each key entry with its friendly name (<c>server</c>, <c>client</c>: the Java key store alias) and the CA certificate
/// as its chain. Files are written to a temporary name created 0600 and renamed, so a reader never sees half a file and
/// a secret is never readable by others, not even for a moment.
/// </remarks>
public sealed class SecurityMaterial
{
    private const int KeySize = 2048;
    private const UnixFileMode FolderMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private const UnixFileMode PrivateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    private const UnixFileMode PublicMode = PrivateMode | UnixFileMode.GroupRead | UnixFileMode.OtherRead;
    private static readonly TimeSpan CaLifetime = TimeSpan.FromDays(3650);
    private static readonly TimeSpan LeafLifetime = TimeSpan.FromDays(825);

    /// <summary>Material that expires within this margin is made again rather than reused.</summary>
    public static readonly TimeSpan RenewalMargin = TimeSpan.FromDays(7);

    private SecurityMaterial(string directory, X509Certificate2 ca, X509Certificate2 server, X509Certificate2 client, string keyStorePassword, IReadOnlyDictionary<string, CredentialProfile> profiles, IReadOnlyList<string> made)
    {
        SecurityDirectory = directory;
        CaCertificate = ca;
        ServerCertificate = server;
        ClientCertificate = client;
        KeyStorePassword = keyStorePassword;
        Profiles = profiles;
        Made = made;
    }

    /// <summary>The security folder, <c>&lt;DataDirectory&gt;/security</c>, absolute.</summary>
    public string SecurityDirectory { get; }

    /// <summary>The local CA's certificate (with its private key: the host issues nothing with it after start, tests may).</summary>
    public X509Certificate2 CaCertificate { get; }

    /// <summary>The server certificate with its private key: Kestrel's TLS certificate for every aspnet TLS variant.</summary>
    public X509Certificate2 ServerCertificate { get; }

    /// <summary>The client certificate with its private key (what drivers present to the mutual TLS variant).</summary>
    public X509Certificate2 ClientCertificate { get; }

    /// <summary>The password of every <c>.p12</c> file of the folder. Never logged.</summary>
    public string KeyStorePassword { get; }

    /// <summary>The credential profiles: profile name → user name and password (the accepted users of the Basic and UsernameToken variants).</summary>
    public IReadOnlyDictionary<string, CredentialProfile> Profiles { get; }

    /// <summary>The files made (or remade) by this start; empty when everything was reused.</summary>
    public IReadOnlyList<string> Made { get; }

    /// <summary>Path of a file of the folder, e.g. <see cref="SecurityFiles.CaCertificate"/>.</summary>
    public string PathOf(string file) => Path.Combine(SecurityDirectory, file);

    /// <summary>
    /// Makes or reuses the material of <paramref name="options"/>' data folder. Holds an exclusive lock file in the folder
    /// while it works, so two hosts sharing a folder do not both write it.
    /// </summary>
    /// <param name="options">Data folder, advertised host name and credential profiles.</param>
    /// <param name="logger">Logs what was made or reused (file names and certificate subjects, never a password).</param>
    /// <param name="now">The current time (tests pass another); default the system clock.</param>
    /// <exception cref="IOException">The folder cannot be created or written, or another process holds its lock for more than 30 s.</exception>
    public static SecurityMaterial LoadOrCreate(ServiceHostOptions options, ILogger logger, DateTimeOffset? now = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(logger);
        var at = now ?? DateTimeOffset.UtcNow;
        var directory = Path.GetFullPath(HostDataDirectory.SecurityDirectoryOf(options.EffectiveDataDirectory));
        Directory.CreateDirectory(directory, FolderMode);
        File.SetUnixFileMode(directory, FolderMode);
        using var folderLock = AcquireLock(Path.Combine(directory, ".lock"));

        var made = new List<string>();
        var password = ReadLine(Path.Combine(directory, SecurityFiles.KeyStorePassword));
        if (string.IsNullOrEmpty(password))
        {
            password = RandomSecret();
            WriteText(directory, SecurityFiles.KeyStorePassword, password + "\n", PrivateMode);
            made.Add(SecurityFiles.KeyStorePassword);
        }

        var serverNames = ServerNames([options.AdvertisedHost, options.PublicName], MachineAddresses());
        var ca = LoadKeyStore(directory, SecurityFiles.CaKeyStore, password);
        var caMade = false;
        if (ca is null || !IsUsableCa(ca, at))
        {
            ca = CreateCa(at);
            WriteKeyStore(directory, SecurityFiles.CaKeyStore, ca, null, "ca", password);
            made.Add(SecurityFiles.CaKeyStore);
            caMade = true;
        }

        EnsurePem(directory, SecurityFiles.CaCertificate, ca, caMade, made);

        var server = caMade ? null : LoadKeyStore(directory, SecurityFiles.ServerKeyStore, password);
        var serverMade = false;
        if (server is null || !IsUsableLeaf(server, ca, at, ServerAuth) || !Covers(server, serverNames))
        {
            // Only a name missing (a new address or public name): the new certificate keeps the old names and the old key,
            // so a host still running with the old one (same data folder, another namespace) keeps working for clients
            // that encrypt WS-Security messages to server.crt, and the name set only grows (docs/topologies.md).
            using var reuse = server is not null && IsUsableLeaf(server, ca, at, ServerAuth) ? server.GetRSAPrivateKey() : null;
            if (reuse is not null)
            {
                serverNames = Union(serverNames, server!);
            }

            server = CreateLeaf(ca, "CN=localhost, O=Middleware benchmark dashboard", ServerAuth, serverNames, at, reuse);
            WriteKeyStore(directory, SecurityFiles.ServerKeyStore, server, ca, SecurityFiles.ServerAlias, password);
            made.Add(SecurityFiles.ServerKeyStore);
            serverMade = true;
        }

        EnsurePem(directory, SecurityFiles.ServerCertificate, server, serverMade, made);

        var client = caMade ? null : LoadKeyStore(directory, SecurityFiles.ClientKeyStore, password);
        var clientMade = false;
        if (client is null || !IsUsableLeaf(client, ca, at, ClientAuth))
        {
            client = CreateLeaf(ca, $"CN={SecurityFiles.ClientCommonName}, O=Middleware benchmark dashboard", ClientAuth, new Names([], []), at);
            WriteKeyStore(directory, SecurityFiles.ClientKeyStore, client, ca, SecurityFiles.ClientAlias, password);
            made.Add(SecurityFiles.ClientKeyStore);
            clientMade = true;
        }

        EnsurePem(directory, SecurityFiles.ClientCertificate, client, clientMade, made);

        var profiles = EnsureProfiles(directory, options.EffectiveCredentialProfiles, made);
        foreach (var file in SecurityFiles.Private)
        {
            File.SetUnixFileMode(Path.Combine(directory, file), PrivateMode);
        }

        logger.LogInformation(
            "Security material in {Directory}: {Made}; CA {CaSubject} (SHA-256 {CaThumbprint}, until {CaNotAfter:yyyy-MM-dd}); server certificate for {ServerNames} until {ServerNotAfter:yyyy-MM-dd}; credential profiles {Profiles}",
            directory, made.Count == 0 ? "all reused" : "made " + string.Join(", ", made), ca.Subject, ca.GetCertHashString(HashAlgorithmName.SHA256),
            ca.NotAfter.ToUniversalTime(), string.Join(", ", serverNames.Dns.Concat(serverNames.Ip.Select(ip => ip.ToString()))), server.NotAfter.ToUniversalTime(),
            string.Join(", ", profiles.Keys));
        return new SecurityMaterial(directory, ca, server, client, password, profiles, made);
    }

    /// <summary>
    /// True when <paramref name="certificate"/> chains to this host's CA alone (custom root trust, no system roots),
    /// is within its validity period and carries the client-authentication EKU: the check of the mutual TLS variant.
    /// </summary>
    public bool IsTrustedClientCertificate(X509Certificate2 certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        return ChainsTo(certificate, CaCertificate, DateTimeOffset.UtcNow) && HasEku(certificate, ClientAuth);
    }

    private static readonly Oid ServerAuth = new("1.3.6.1.5.5.7.3.1", "Server Authentication");
    private static readonly Oid ClientAuth = new("1.3.6.1.5.5.7.3.2", "Client Authentication");

    private sealed record Names(IReadOnlyList<string> Dns, IReadOnlyList<IPAddress> Ip);

    /// <summary>
    /// The names the server certificate must carry (docs/topologies.md): <c>localhost</c>, the loopback addresses, the
    /// machine name, the advertised host and public name, and every address of this machine's (or network namespace's)
    /// interfaces, so a runner that reached the host at any of them verifies the certificate. A name or address not yet in
    /// the certificate makes a new one (same CA) at the host's next start.
    /// </summary>
    private static Names ServerNames(IEnumerable<string?> configuredNames, IEnumerable<IPAddress> machineAddresses)
    {
        var dns = new List<string> { "localhost" };
        var ip = new List<IPAddress> { IPAddress.Loopback, IPAddress.IPv6Loopback };
        foreach (var name in configuredNames.Prepend(Environment.MachineName))
        {
            if (string.IsNullOrWhiteSpace(name))
            {
                continue;
            }

            if (IPAddress.TryParse(name.Trim('[', ']'), out var address))
            {
                if (!ip.Contains(address))
                {
                    ip.Add(address);
                }
            }
            else if (!dns.Contains(name, StringComparer.OrdinalIgnoreCase))
            {
                dns.Add(name);
            }
        }

        foreach (var address in machineAddresses.Where(a => !ip.Contains(a)))
        {
            ip.Add(address);
        }

        return new Names(dns, ip);
    }

    /// <summary>The unicast addresses of the interfaces that are up (IPv4, and IPv6 except link-local), in a stable order.</summary>
    private static IReadOnlyList<IPAddress> MachineAddresses()
    {
        try
        {
            return [.. System.Net.NetworkInformation.NetworkInterface.GetAllNetworkInterfaces()
                .Where(n => n.OperationalStatus is System.Net.NetworkInformation.OperationalStatus.Up or System.Net.NetworkInformation.OperationalStatus.Unknown)
                .SelectMany(n => n.GetIPProperties().UnicastAddresses.Select(u => u.Address))
                .Where(a => a.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork || (a.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 && !a.IsIPv6LinkLocal))
                .Select(a => a.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? new IPAddress(a.GetAddressBytes()) : a)
                .Distinct()
                .OrderBy(a => a.ToString(), StringComparer.Ordinal)];
        }
        catch (System.Net.NetworkInformation.NetworkInformationException)
        {
            return [];
        }
    }

    private static X509Certificate2 CreateCa(DateTimeOffset now)
    {
        using var key = RSA.Create(KeySize);
        var request = new CertificateRequest("CN=Dashboard benchmark local CA, O=Middleware benchmark dashboard", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(certificateAuthority: true, hasPathLengthConstraint: true, pathLengthConstraint: 0, critical: true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign | X509KeyUsageFlags.DigitalSignature, critical: true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, critical: false));
        // From a day back: clock skew, and tests issue certificates that have already expired under this CA.
        return request.CreateSelfSigned(now.AddDays(-1), now + CaLifetime);
    }

    private static Names Union(Names required, X509Certificate2 existing)
    {
        var san = existing.Extensions.OfType<X509SubjectAlternativeNameExtension>().FirstOrDefault();
        if (san is null)
        {
            return required;
        }

        var dns = required.Dns.Concat(san.EnumerateDnsNames()).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
        var ip = required.Ip.Concat(san.EnumerateIPAddresses()).Distinct().ToList();
        return new Names(dns, ip);
    }

    private static X509Certificate2 CreateLeaf(X509Certificate2 ca, string subject, Oid usage, Names names, DateTimeOffset now, RSA? existingKey = null)
    {
        using var made = existingKey is null ? RSA.Create(KeySize) : null;
        var key = existingKey ?? made!;
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(certificateAuthority: false, hasPathLengthConstraint: false, pathLengthConstraint: 0, critical: true));
        // Key encipherment as well as signatures: TLS with RSA key transport and WS-Security's encrypted keys need it.
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyEncipherment | X509KeyUsageFlags.DataEncipherment, critical: true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([usage], critical: false));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, critical: false));
        request.CertificateExtensions.Add(X509AuthorityKeyIdentifierExtension.CreateFromCertificate(ca, includeKeyIdentifier: true, includeIssuerAndSerial: false));
        if (names.Dns.Count + names.Ip.Count > 0)
        {
            var san = new SubjectAlternativeNameBuilder();
            foreach (var dns in names.Dns)
            {
                san.AddDnsName(dns);
            }

            foreach (var ip in names.Ip)
            {
                san.AddIpAddress(ip);
            }

            request.CertificateExtensions.Add(san.Build());
        }

        var serial = RandomNumberGenerator.GetBytes(16);
        serial[0] &= 0x7F;
        var notAfter = now + LeafLifetime < ca.NotAfter ? now + LeafLifetime : new DateTimeOffset(ca.NotAfter.ToUniversalTime());
        using var certificate = request.Create(ca, now.AddMinutes(-5), notAfter, serial);
        return certificate.CopyWithPrivateKey(key);
    }

    private static bool IsUsableCa(X509Certificate2 ca, DateTimeOffset now) =>
        ca.HasPrivateKey
        && ca.Extensions.OfType<X509BasicConstraintsExtension>().Any(b => b.CertificateAuthority)
        && ca.NotBefore.ToUniversalTime() <= now.UtcDateTime
        && ca.NotAfter.ToUniversalTime() > (now + RenewalMargin).UtcDateTime;

    private static bool IsUsableLeaf(X509Certificate2 leaf, X509Certificate2 ca, DateTimeOffset now, Oid usage) =>
        leaf.HasPrivateKey
        && leaf.NotAfter.ToUniversalTime() > (now + RenewalMargin).UtcDateTime
        && HasEku(leaf, usage)
        && ChainsTo(leaf, ca, now);

    private static bool HasEku(X509Certificate2 certificate, Oid usage) =>
        certificate.Extensions.OfType<X509EnhancedKeyUsageExtension>().Any(e => e.EnhancedKeyUsages.Cast<Oid>().Any(o => o.Value == usage.Value));

    private static bool ChainsTo(X509Certificate2 certificate, X509Certificate2 ca, DateTimeOffset at)
    {
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(ca);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.VerificationTime = at.UtcDateTime;
        chain.ChainPolicy.VerificationTimeIgnored = false;
        try
        {
            return chain.Build(certificate) && chain.ChainElements[^1].Certificate.RawDataMemory.Span.SequenceEqual(ca.RawDataMemory.Span);
        }
        finally
        {
            foreach (var element in chain.ChainElements)
            {
                element.Certificate.Dispose();
            }
        }
    }

    private static bool Covers(X509Certificate2 server, Names names)
    {
        var san = server.Extensions.OfType<X509SubjectAlternativeNameExtension>().FirstOrDefault();
        if (san is null)
        {
            return false;
        }

        var dns = san.EnumerateDnsNames().ToHashSet(StringComparer.OrdinalIgnoreCase);
        var ips = san.EnumerateIPAddresses().ToHashSet();
        return names.Dns.All(dns.Contains) && names.Ip.All(ips.Contains);
    }

    private static X509Certificate2? LoadKeyStore(string directory, string file, string password)
    {
        var path = Path.Combine(directory, file);
        if (!File.Exists(path))
        {
            return null;
        }

        try
        {
            // The key entry is the one certificate with a private key; the others are its chain.
            var all = X509CertificateLoader.LoadPkcs12CollectionFromFile(path, password, X509KeyStorageFlags.Exportable);
            X509Certificate2? keyed = null;
            foreach (var certificate in all)
            {
                if (keyed is null && certificate.HasPrivateKey)
                {
                    keyed = certificate;
                }
                else
                {
                    certificate.Dispose();
                }
            }

            return keyed;
        }
        catch (CryptographicException)
        {
            // Wrong password (keystore.password was remade) or a damaged file: made again.
            return null;
        }
    }

    private static void WriteKeyStore(string directory, string file, X509Certificate2 certificate, X509Certificate2? issuer, string alias, string password)
    {
        var localKeyId = new Pkcs9LocalKeyId(certificate.GetCertHash(HashAlgorithmName.SHA256));
        var friendlyName = new Pkcs9AttributeObject(new Oid("1.2.840.113549.1.9.20", "friendlyName"), EncodeBmpString(alias));
        var pbe = new PbeParameters(PbeEncryptionAlgorithm.Aes256Cbc, HashAlgorithmName.SHA256, 20_000);

        var keys = new Pkcs12SafeContents();
        using (var key = certificate.GetRSAPrivateKey() ?? throw new CryptographicException($"{file}: the certificate has no RSA private key"))
        {
            var keyBag = keys.AddShroudedKey(key, password, pbe);
            keyBag.Attributes.Add(localKeyId);
            keyBag.Attributes.Add(friendlyName);
        }

        var certificates = new Pkcs12SafeContents();
        var certificateBag = certificates.AddCertificate(certificate);
        certificateBag.Attributes.Add(localKeyId);
        certificateBag.Attributes.Add(friendlyName);
        if (issuer is not null)
        {
            certificates.AddCertificate(issuer);
        }

        var builder = new Pkcs12Builder();
        builder.AddSafeContentsEncrypted(certificates, password, pbe);
        builder.AddSafeContentsUnencrypted(keys);
        builder.SealWithMac(password, HashAlgorithmName.SHA256, 20_000);
        WriteBytes(directory, file, builder.Encode(), PrivateMode);
    }

    private static byte[] EncodeBmpString(string text)
    {
        var writer = new System.Formats.Asn1.AsnWriter(System.Formats.Asn1.AsnEncodingRules.DER);
        writer.WriteCharacterString(System.Formats.Asn1.UniversalTagNumber.BMPString, text);
        return writer.Encode();
    }

    private static void EnsurePem(string directory, string file, X509Certificate2 certificate, bool remade, List<string> made)
    {
        var path = Path.Combine(directory, file);
        var pem = certificate.ExportCertificatePem() + "\n";
        if (remade || !File.Exists(path) || File.ReadAllText(path) != pem)
        {
            WriteText(directory, file, pem, PublicMode);
            made.Add(file);
        }
    }

    private static Dictionary<string, CredentialProfile> EnsureProfiles(string directory, IReadOnlyDictionary<string, CredentialProfileOptions> configured, List<string> made)
    {
        var path = Path.Combine(directory, SecurityFiles.Credentials);
        IReadOnlyDictionary<string, CredentialProfile> stored = new Dictionary<string, CredentialProfile>();
        string? storedJson = null;
        if (File.Exists(path))
        {
            try
            {
                storedJson = File.ReadAllText(path);
                stored = CredentialsDocument.Parse(storedJson, path).Profiles;
            }
            catch (InvalidDataException)
            {
                storedJson = null;
            }
        }

        // Configured profiles only; a configured password wins, else the stored one is kept, else one is made.
        var profiles = new Dictionary<string, CredentialProfile>(StringComparer.Ordinal);
        foreach (var (name, entry) in configured.OrderBy(p => p.Key, StringComparer.Ordinal))
        {
            var password = entry.Password ?? (stored.TryGetValue(name, out var old) ? old.Password : RandomSecret());
            profiles[name] = new CredentialProfile(entry.UserName, password);
        }

        var json = new CredentialsDocument(profiles).ToJson() + "\n";
        if (json != storedJson)
        {
            WriteText(directory, SecurityFiles.Credentials, json, PrivateMode);
            made.Add(SecurityFiles.Credentials);
        }

        return profiles;
    }

    private static string RandomSecret() => Convert.ToBase64String(RandomNumberGenerator.GetBytes(24)).Replace('+', '-').Replace('/', '_');

    private static string? ReadLine(string path) => File.Exists(path) ? File.ReadAllText(path).Trim() : null;

    private static void WriteText(string directory, string file, string text, UnixFileMode mode) =>
        WriteBytes(directory, file, System.Text.Encoding.UTF8.GetBytes(text), mode);

    private static void WriteBytes(string directory, string file, byte[] bytes, UnixFileMode mode)
    {
        var temporary = Path.Combine(directory, $".{file}.{Environment.ProcessId}.tmp");
        var create = new FileStreamOptions { Mode = FileMode.Create, Access = FileAccess.Write, UnixCreateMode = PrivateMode };
        using (var stream = new FileStream(temporary, create))
        {
            stream.Write(bytes);
            stream.Flush(flushToDisk: true);
        }

        File.SetUnixFileMode(temporary, mode);
        File.Move(temporary, Path.Combine(directory, file), overwrite: true);
    }

    private static FileStream AcquireLock(string path)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (true)
        {
            try
            {
                return new FileStream(path, new FileStreamOptions { Mode = FileMode.OpenOrCreate, Access = FileAccess.ReadWrite, Share = FileShare.None, UnixCreateMode = PrivateMode });
            }
            catch (IOException) when (DateTime.UtcNow < deadline)
            {
                Thread.Sleep(100);
            }
        }
    }
}
