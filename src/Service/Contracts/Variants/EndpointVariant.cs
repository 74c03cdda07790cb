namespace Dashboard.Service.Contracts.Variants;

/// <summary>
/// One endpoint variant of docs/service-contract.md: stack × transport/encoding × security mode × client credential type,
/// named <c>&lt;Stack&gt;&lt;Transport/Encoding&gt;&lt;Security&gt;</c>.
/// </summary>
/// <param name="Name">The variant id used in scenarios and charts (e.g. <c>AspNetH2BinXml</c>).</param>
/// <param name="Stack">Stack id: <c>aspnet</c>, <c>metro</c>, <c>ice</c> or <c>corewcf</c>.</param>
/// <param name="Transport">Transport, e.g. <c>HTTP/1.1 over a Unix domain socket</c>.</param>
/// <param name="Encoding">Message encoding, e.g. <c>binary XML (MC-NBFX)</c>.</param>
/// <param name="SecurityMode">WCF's security mode term: <c>None</c>, <c>Transport</c>, <c>Message</c>, <c>TransportWithMessageCredential</c>, <c>TransportCredentialOnly</c>.</param>
/// <param name="CredentialType">WCF's client credential type term: <c>None</c>, <c>Basic</c>, <c>Certificate</c>, <c>UserName</c>, <c>OsIdentity</c>.</param>
/// <param name="ThesisCounterpart">The thesis scenario (Table 7.2) or document it stands for.</param>
/// <param name="IsLocalIpc">True for on-machine communication (Unix domain sockets), false for network transports.</param>
/// <param name="IsBinary">True for binary encodings (binary XML, FastInfoset, the Ice protocol), false for text (XML, JSON).</param>
/// <param name="UnavailableReason">Why this build does not serve the variant, or null when it does.</param>
public sealed record EndpointVariant(
    string Name,
    string Stack,
    string Transport,
    string Encoding,
    string SecurityMode,
    string CredentialType,
    string ThesisCounterpart,
    bool IsLocalIpc,
    bool IsBinary,
    string? UnavailableReason = null)
{
    /// <summary>True when the variant protects or authenticates anything (security mode other than None); the thesis's secure panels.</summary>
    public bool IsSecure => SecurityMode != "None";

    /// <summary>True when this build serves the variant.</summary>
    public bool IsAvailable => UnavailableReason is null;

    /// <summary>
    /// The message codec as a key the code dispatches on: <c>binxml</c>, <c>xml</c>, <c>json</c>, <c>protobuf</c>,
    /// <c>soap11</c>, <c>soap11-fastinfoset</c>, <c>soap12-wsa</c>, <c>ice</c> (<c>none</c> for an unavailable variant).
    /// </summary>
    public string Codec { get; init; } = "none";

    /// <summary>HTTP version on the wire: <c>1.1</c>, <c>2</c> (prior knowledge on cleartext, ALPN over TLS), or null (Ice).</summary>
    public string? Http { get; init; }

    /// <summary>True when the transport is TLS (HTTPS, HTTP/2 over TLS, IceSSL).</summary>
    public bool Tls { get; init; }

    /// <summary>The TCP port the service host serves it on by default (<c>ServiceHost:Ports:NAME</c> overrides); null for socket variants.</summary>
    public int? DefaultPort { get; init; }

    /// <summary>The Unix socket's file name in the host's socket folder, for the local-IPC variants; else null.</summary>
    public string? SocketFile { get; init; }
}
