using System.Diagnostics.CodeAnalysis;

namespace Dashboard.Service.Contracts.Variants;

/// <summary>The endpoint variants (README.md, docs/service-contract.md): the thesis's Table 7.2 on the stacks available here, and gRPC.</summary>
public static class VariantCatalogue
{
    /// <summary>Stack id of ASP.NET Core on Kestrel, served by the host's own process.</summary>
    public const string AspNet = "aspnet";

    /// <summary>Stack id of JAX-WS RI "Metro" (+ WSS4J), served by the JVM service process.</summary>
    public const string Metro = "metro";

    /// <summary>Stack id of ZeroC Ice 3.7, served by the JVM service process.</summary>
    public const string Ice = "ice";

    /// <summary>Stack id of CoreWCF: not available in this build.</summary>
    public const string CoreWcf = "corewcf";

    private const string SecureLater = "not built yet: the secure variants come with issue #12";
    private const string CoreWcfMissing = "not available in this build: no CoreWCF package in the NuGet registry (docs/dependencies.md)";

    /// <summary>Every variant, aspnet first, then metro, ice and the unavailable CoreWCF row.</summary>
    public static IReadOnlyList<EndpointVariant> All { get; } =
    [
        new("AspNetUdsBinXml", AspNet, "HTTP/1.1 over a Unix domain socket", "binary XML (MC-NBFX)", "None", "None", "PipeNoSec (local IPC, binary)", IsLocalIpc: true, IsBinary: true),
        new("AspNetUdsBinXmlPeer", AspNet, "HTTP/1.1 over a Unix domain socket", "binary XML (MC-NBFX)", "TransportCredentialOnly", "OsIdentity", "PipeTptSgnWin (nearest)", IsLocalIpc: true, IsBinary: true),
        new("AspNetH2BinXml", AspNet, "HTTP/2 cleartext (prior knowledge)", "binary XML (MC-NBFX)", "None", "None", "TcpNoSec (binary, persistent connection)", IsLocalIpc: false, IsBinary: true),
        new("AspNetH2TlsBinXmlCert", AspNet, "HTTP/2 over TLS (ALPN)", "binary XML (MC-NBFX)", "Transport", "Certificate", "TcpTptEncCert", IsLocalIpc: false, IsBinary: true),
        new("AspNetHttpXml", AspNet, "HTTP/1.1", "text XML (DataContractSerializer)", "None", "None", "HttpNoSec without the envelope", IsLocalIpc: false, IsBinary: false),
        new("AspNetHttpJson", AspNet, "HTTP/1.1", "JSON (System.Text.Json)", "None", "None", "REST baseline, beyond the thesis", IsLocalIpc: false, IsBinary: false),
        new("AspNetHttpsJson", AspNet, "HTTP/1.1 over TLS", "JSON (System.Text.Json)", "Transport", "None", "HttpsTpt", IsLocalIpc: false, IsBinary: false),
        new("AspNetHttpsJsonBasic", AspNet, "HTTP/1.1 over TLS", "JSON (System.Text.Json)", "Transport", "Basic", "HttpsTptBasic", IsLocalIpc: false, IsBinary: false),
        new("AspNetGrpc", AspNet, "HTTP/2 cleartext (prior knowledge), gRPC", "protobuf (gRPC)", "None", "None", "NetTcp's successor in Microsoft's WCF migration guidance", IsLocalIpc: false, IsBinary: true),
        new("AspNetGrpcTls", AspNet, "HTTP/2 over TLS (ALPN), gRPC", "protobuf (gRPC)", "Transport", "Certificate", "TcpTptEncCert's successor (gRPC, mutual TLS)", IsLocalIpc: false, IsBinary: true),
        new("MetroSoap11", Metro, "HTTP/1.1", "SOAP 1.1 text XML", "None", "None", "HttpNoSec (BasicHttpBinding)", IsLocalIpc: false, IsBinary: false),
        new("MetroSoap11Basic", Metro, "HTTP/1.1", "SOAP 1.1 text XML", "TransportCredentialOnly", "Basic", "WTCOBasic / JTCOBasic", IsLocalIpc: false, IsBinary: false),
        new("MetroSoap11Https", Metro, "HTTP/1.1 over TLS", "SOAP 1.1 text XML", "Transport", "None", "HttpsTpt", IsLocalIpc: false, IsBinary: false),
        new("MetroSoap11HttpsBasic", Metro, "HTTP/1.1 over TLS", "SOAP 1.1 text XML", "Transport", "Basic", "HttpsTptBasic", IsLocalIpc: false, IsBinary: false),
        new("MetroSoap11FastInfoset", Metro, "HTTP/1.1", "SOAP 1.1 FastInfoset (binary XML)", "None", "None", "binary encoding over HTTP", IsLocalIpc: false, IsBinary: true),
        new("MetroSoap12Wsa", Metro, "HTTP/1.1", "SOAP 1.2 + WS-Addressing, text XML", "None", "None", "WsNoSec (WSHttpBinding)", IsLocalIpc: false, IsBinary: false),
        new("MetroSoap12WsaUserNameHttps", Metro, "HTTP/1.1 over TLS", "SOAP 1.2 + WS-Addressing + WS-Security UsernameToken", "TransportWithMessageCredential", "UserName", "WsMixUName / TcpMsgUName", IsLocalIpc: false, IsBinary: false),
        new("MetroSoap12WsaX509", Metro, "HTTP/1.1", "SOAP 1.2 + WS-Addressing + WS-Security X.509 sign + encrypt", "Message", "Certificate", "TcpMsgCert (message security)", IsLocalIpc: false, IsBinary: false),
        new("IceTcp", Ice, "Ice protocol over TCP", "Ice binary encoding 1.1", "None", "None", "TcpNoSec (NetTcpBinding)", IsLocalIpc: false, IsBinary: true),
        new("IceSsl", Ice, "Ice protocol over TLS (IceSSL)", "Ice binary encoding 1.1", "Transport", "None", "TcpTptEnc", IsLocalIpc: false, IsBinary: true),
        new("CoreWcf", CoreWcf, "—", "—", "—", "—", "every WCF binding of Table 7.2", IsLocalIpc: false, IsBinary: false, CoreWcfMissing),
    ];

    /// <summary>Finds a variant by its id (case-sensitive).</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out EndpointVariant? variant)
    {
        variant = All.FirstOrDefault(v => v.Name == name);
        return variant is not null;
    }
}
