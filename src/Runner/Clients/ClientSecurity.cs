using System.Text.Json.Serialization;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients;

/// <summary>
/// What a client needs to call one secure endpoint (docs/security.md, "Who reads what"): the CA certificate to trust
/// and the credentials of the scenario's profile. Drivers get it with the cell; the out-of-process drivers in their
/// job line (<c>caCertificate</c>, <c>credentials</c>).
/// </summary>
/// <param name="CaCertificate">PEM file of the CA to trust (<c>DIR/ca.crt</c>) for TLS and X.509 variants, else null.</param>
/// <param name="Credentials">Basic/UserName or certificate credentials, else null.</param>
public sealed record ClientSecurity(string? CaCertificate, DriverCredentials? Credentials)
{
    /// <summary>Nothing to trust, nothing to present: an unsecure variant (or the peer variant: the OS identity travels by itself).</summary>
    public static ClientSecurity None { get; } = new(null, null);
}

/// <summary>
/// The <c>credentials</c> object of a driver job (docs/driver-protocol.md): Basic/UserName
/// <c>{"profile","userName","password"}</c>, certificate <c>{"profile","certificate","password","serverCertificate"}</c>.
/// <see cref="ToString"/> never shows a password.
/// </summary>
/// <param name="Profile">The credential profile's name.</param>
/// <param name="UserName">User name (Basic, UserName), else null.</param>
/// <param name="Password">The user's password (Basic, UserName) or the key store password (certificate).</param>
/// <param name="Certificate">The client key store (<c>DIR/client.p12</c>) for certificate credentials, else null.</param>
/// <param name="ServerCertificate">The server certificate PEM (<c>DIR/server.crt</c>) for certificate credentials, else null.</param>
public sealed record DriverCredentials(
    string Profile,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? UserName,
    string Password,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Certificate,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? ServerCertificate)
{
    /// <summary>The profile and the kind of credential; no password.</summary>
    public override string ToString() => Certificate is null ? $"DriverCredentials {{ Profile = {Profile}, UserName = {UserName} }}" : $"DriverCredentials {{ Profile = {Profile}, Certificate = {Certificate} }}";
}

/// <summary>
/// The runner's view of a security folder (<c>--security-dir</c>, default the local host's
/// <see cref="HostDataDirectory.DefaultSecurityDirectory"/>): read once per run, then asked per endpoint.
/// </summary>
public sealed class SecurityFolder
{
    private readonly string _directory;
    private readonly string _profileName;
    private readonly CredentialProfile? _profile;
    private readonly string? _keyStorePassword;

    private SecurityFolder(string directory, string profileName, CredentialProfile? profile, string? keyStorePassword)
    {
        _directory = directory;
        _profileName = profileName;
        _profile = profile;
        _keyStorePassword = keyStorePassword;
    }

    /// <summary>The folder.</summary>
    public string Directory => _directory;

    /// <summary>True when a client of <paramref name="variant"/> must trust the host's CA: TLS transports and X.509 message security.</summary>
    public static bool NeedsCaCertificate(EndpointVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.Transport.Contains("TLS", StringComparison.Ordinal) || variant.CredentialType == "Certificate";
    }

    /// <summary>True when a client of <paramref name="variant"/> presents credentials from the profile (Basic, UserName) or the client certificate.</summary>
    public static bool NeedsCredentials(EndpointVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.CredentialType is "Basic" or "UserName" or "Certificate";
    }

    /// <summary>
    /// Reads what <paramref name="scenario"/>'s variants need from <paramref name="directory"/>: nothing when no variant is
    /// secure; <c>ca.crt</c> when one uses TLS or X.509; the scenario's <c>credentialProfile</c> from
    /// <c>credentials.json</c> when one takes credentials; <c>keystore.password</c> and <c>client.p12</c> for certificates.
    /// </summary>
    /// <returns>The folder, or null when the scenario needs nothing from it.</returns>
    /// <exception cref="ScenarioException">A file the scenario needs is missing or unreadable (field <c>credentialProfile</c>), or the profile is not in it; one line naming the folder or the profile.</exception>
    public static SecurityFolder? ForScenario(ScenarioDocument scenario, string directory)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(directory);
        var variants = scenario.Variants.Select(v => VariantCatalogue.TryGet(v, out var variant) ? variant : null).OfType<EndpointVariant>().ToArray();
        var needsCa = variants.Any(NeedsCaCertificate);
        var needsCredentials = variants.Any(NeedsCredentials);
        var needsCertificate = variants.Any(v => v.CredentialType == "Certificate");
        if (!needsCa && !needsCredentials)
        {
            return null;
        }

        var folder = Path.GetFullPath(directory);
        var hint = $"the security folder {folder} (the host makes it at start in <DataDirectory>/security; for a remote host copy its files and pass --security-dir)";
        if (needsCa)
        {
            Require(folder, SecurityFiles.CaCertificate, hint);
        }

        CredentialProfile? profile = null;
        string? keyStorePassword = null;
        if (needsCredentials)
        {
            var credentials = Require(folder, SecurityFiles.Credentials, hint);
            CredentialsDocument document;
            try
            {
                document = CredentialsDocument.Read(credentials);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
            {
                throw new ScenarioException("credentialProfile", $"cannot read {credentials}: {e.Message}", e);
            }

            profile = document.Profiles.GetValueOrDefault(scenario.CredentialProfile)
                ?? throw new ScenarioException("credentialProfile",
                    $"profile '{scenario.CredentialProfile}' is not in {credentials}; it has {string.Join(", ", document.Profiles.Keys.Order(StringComparer.Ordinal))} (profiles come from the host's ServiceHost:CredentialProfiles)");
        }

        if (needsCertificate)
        {
            Require(folder, SecurityFiles.ClientKeyStore, hint);
            Require(folder, SecurityFiles.ServerCertificate, hint);
            keyStorePassword = File.ReadAllText(Require(folder, SecurityFiles.KeyStorePassword, hint)).Trim();
        }

        return new SecurityFolder(folder, scenario.CredentialProfile, profile, keyStorePassword);
    }

    /// <summary>What a client of <paramref name="endpoint"/> gets: the CA when it needs one, the credentials its credential type takes.</summary>
    public ClientSecurity For(HostEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        var variant = VariantCatalogue.TryGet(endpoint.Name, out var known) ? known
            : new EndpointVariant(endpoint.Name, endpoint.Stack, endpoint.Transport, endpoint.Encoding, endpoint.SecurityMode, endpoint.CredentialType, "", false, false);
        var ca = NeedsCaCertificate(variant) ? Path.Combine(_directory, SecurityFiles.CaCertificate) : null;
        DriverCredentials? credentials = variant.CredentialType switch
        {
            "Basic" or "UserName" when _profile is not null => new DriverCredentials(_profileName, _profile.UserName, _profile.Password, null, null),
            "Certificate" when _keyStorePassword is not null => new DriverCredentials(_profileName, null, _keyStorePassword,
                Path.Combine(_directory, SecurityFiles.ClientKeyStore), Path.Combine(_directory, SecurityFiles.ServerCertificate)),
            _ => null,
        };
        return new ClientSecurity(ca, credentials);
    }

    private static string Require(string folder, string file, string hint)
    {
        var path = Path.Combine(folder, file);
        return File.Exists(path) ? path
            : throw new ScenarioException("credentialProfile", $"{file} is missing from {hint}");
    }
}
