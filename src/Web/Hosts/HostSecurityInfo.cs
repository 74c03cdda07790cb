namespace Dashboard.Web.Hosts;

/// <summary>
/// A host's <c>GET /security</c> answer as the dashboard reads it (docs/security.md, docs/topologies.md "Remote hosts"):
/// never a password.
/// </summary>
/// <param name="CaCertificate">The CA certificate clients trust: where the control API serves it and which one it is.</param>
/// <param name="SecurityDirectory">The host's security folder on its own machine.</param>
/// <param name="Profiles">The credential profile names a scenario may name.</param>
/// <param name="RemoteRunnerFiles">The files of that folder a runner on another machine needs (copy them, pass <c>--security-dir</c>).</param>
public sealed record HostSecurityInfo(HostCaCertificate CaCertificate, string SecurityDirectory, IReadOnlyList<string> Profiles, IReadOnlyList<string> RemoteRunnerFiles);

/// <summary>The CA certificate of a host.</summary>
/// <param name="Url">Path on the control API that serves it as PEM (<c>/security/ca.crt</c>).</param>
/// <param name="Path">The PEM file on the host's machine.</param>
/// <param name="Subject">Its subject.</param>
/// <param name="Sha256">SHA-256 fingerprint (hex), to compare with a copy.</param>
/// <param name="NotAfter">End of validity (UTC).</param>
public sealed record HostCaCertificate(string Url, string Path, string Subject, string Sha256, DateTime NotAfter);
