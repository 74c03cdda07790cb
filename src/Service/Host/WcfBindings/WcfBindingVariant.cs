using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// How one variant of the wcfbindings stack is served ("WCF bindings served by .NET with WCF's own message encoders; the
/// dispatcher is ours; CoreWCF is not in this registry", docs/service-contract.md), from the catalogue's keys.
/// </summary>
/// <param name="Name">Variant id.</param>
/// <param name="Transport">net.tcp ([MC-NMF] on our TCP listener) or SOAP over HTTP (Kestrel: BasicHttp, WSHttp, binary over HTTP).</param>
/// <param name="Tls">True for security mode Transport: TLS with the host's server certificate (net.tcp: the framing's TLS upgrade).</param>
/// <param name="Basic">True for HTTP Basic against the credential profiles (BasicHttp TransportCredentialOnly / Transport + Basic).</param>
/// <param name="UserName">True for a WS-Security UsernameToken against the credential profiles (WSHttp TransportWithMessageCredential + UserName, over HTTPS).</param>
/// <param name="ClientCertificate">True for net.tcp Transport with client credential Certificate: the TLS upgrade asks for a
/// client certificate and accepts only one the host's CA issued for client authentication.</param>
public sealed record WcfBindingVariant(string Name, WcfBindingTransport Transport, bool Tls, bool Basic = false, bool UserName = false, bool ClientCertificate = false)
{
    /// <summary>Stack id of the catalogue.</summary>
    public const string Stack = "wcfbindings";

    /// <summary>The catalogue's codec key of net.tcp's binary session encoding (<c>application/soap+msbinsession1</c>).</summary>
    public const string NetTcpCodec = "msbin-session";

    /// <summary>The catalogue's codec key of WCF's sessionless binary encoding over HTTP (<c>application/soap+msbin1</c>).</summary>
    public const string BinaryHttpCodec = "msbin";

    /// <summary>The wcfbindings variants this build serves: the catalogue's, each mapped by <see cref="From"/>.</summary>
    public static IReadOnlyList<WcfBindingVariant> All { get; } =
        [.. VariantCatalogue.All.Where(v => v.Stack == Stack && v.IsAvailable).Select(From)];

    /// <summary>How the host serves <paramref name="variant"/>, from its codec, TLS flag and credential type.</summary>
    /// <exception cref="ArgumentException">A codec or credential the stack does not serve.</exception>
    public static WcfBindingVariant From(EndpointVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        var transport = variant.Codec switch
        {
            NetTcpCodec => WcfBindingTransport.NetTcp,
            "soap11" => WcfBindingTransport.BasicHttp,
            "soap12-wsa" => WcfBindingTransport.WsHttp,
            BinaryHttpCodec => WcfBindingTransport.BinaryHttp,
            _ => throw new ArgumentException($"{variant.Name}: the wcfbindings stack has no codec '{variant.Codec}'", nameof(variant)),
        };
        var (basic, userName, certificate) = (transport, variant.CredentialType, variant.Tls) switch
        {
            (_, "None", _) => (false, false, false),
            (WcfBindingTransport.BasicHttp, "Basic", _) => (true, false, false),
            (WcfBindingTransport.WsHttp, "UserName", true) => (false, true, false),
            (WcfBindingTransport.NetTcp, "Certificate", true) => (false, false, true),
            _ => throw new ArgumentException($"{variant.Name}: the wcfbindings stack has no credential '{variant.CredentialType}' on {transport}{(variant.Tls ? " over TLS" : "")}", nameof(variant)),
        };
        return new WcfBindingVariant(variant.Name, transport, variant.Tls, basic, userName, certificate);
    }
}

/// <summary>The transport of a wcfbindings variant.</summary>
public enum WcfBindingTransport
{
    /// <summary>net.tcp: [MC-NMF] duplex session with WCF's binary session encoder.</summary>
    NetTcp,

    /// <summary>BasicHttp: SOAP 1.1 with WCF's text encoder on HTTP/1.1 (Kestrel).</summary>
    BasicHttp,

    /// <summary>WSHttp, security None: SOAP 1.2 + WS-Addressing 1.0 with WCF's text encoder on HTTP/1.1 (Kestrel).</summary>
    WsHttp,

    /// <summary>Binary over HTTP: SOAP 1.2 + WS-Addressing 1.0 with WCF's sessionless binary encoder ([MC-NBFS]) on HTTP/1.1 (Kestrel).</summary>
    BinaryHttp,
}
