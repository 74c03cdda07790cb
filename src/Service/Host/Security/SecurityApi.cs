using Dashboard.Service.Contracts.Security;

namespace Dashboard.Service.Host.Security;

/// <summary>
/// <c>GET /security</c>, the companion of <c>GET /endpoints</c> (docs/security.md): where a client gets the CA
/// certificate, the credential profile names (never their passwords), the files a remote runner needs, and the thesis
/// scenarios with no equivalent here and why. <c>GET /security/ca.crt</c>: the CA certificate (PEM).
/// </summary>
public static class SecurityApi
{
    /// <summary>The media type of <c>GET /security/ca.crt</c>.</summary>
    public const string PemMediaType = "application/x-pem-file";

    /// <summary>Maps both routes on <paramref name="app"/>.</summary>
    public static WebApplication MapSecurityApi(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapGet("/security", (SecurityMaterial material) => Results.Ok(Describe(material)));
        app.MapGet("/security/ca.crt", (SecurityMaterial material) =>
            Results.Text(material.CaCertificate.ExportCertificatePem() + "\n", PemMediaType));
        return app;
    }

    /// <summary>The answer of <c>GET /security</c>.</summary>
    public static SecurityDescription Describe(SecurityMaterial material)
    {
        ArgumentNullException.ThrowIfNull(material);
        var ca = material.CaCertificate;
        return new SecurityDescription(
            new CaCertificateDescription("/security/ca.crt", material.PathOf(SecurityFiles.CaCertificate), ca.Subject,
                ca.GetCertHashString(System.Security.Cryptography.HashAlgorithmName.SHA256), ca.NotAfter.ToUniversalTime()),
            material.SecurityDirectory,
            [.. material.Profiles.Keys],
            SecurityFiles.ForRemoteRunners,
            NoEquivalentScenario.All);
    }
}

/// <summary>The answer of <c>GET /security</c> (camelCase JSON).</summary>
/// <param name="CaCertificate">Where the CA certificate is and which one it is.</param>
/// <param name="SecurityDirectory">The host's security folder on its machine (pass it as the runner's <c>--security-dir</c> there).</param>
/// <param name="Profiles">The credential profile names a scenario may name in <c>credentialProfile</c>.</param>
/// <param name="RemoteRunnerFiles">The files of the folder a runner on another machine needs (copy them, pass <c>--security-dir</c>).</param>
/// <param name="NoEquivalent">The thesis scenarios with no equivalent here and why.</param>
public sealed record SecurityDescription(
    CaCertificateDescription CaCertificate,
    string SecurityDirectory,
    IReadOnlyList<string> Profiles,
    IReadOnlyList<string> RemoteRunnerFiles,
    IReadOnlyList<NoEquivalentScenario> NoEquivalent);

/// <summary>The CA certificate clients trust.</summary>
/// <param name="Url">Path on the control API that serves it as PEM.</param>
/// <param name="Path">The PEM file on the host's machine.</param>
/// <param name="Subject">Its subject.</param>
/// <param name="Sha256">SHA-256 fingerprint (hex).</param>
/// <param name="NotAfter">End of validity (UTC).</param>
public sealed record CaCertificateDescription(string Url, string Path, string Subject, string Sha256, DateTime NotAfter);
