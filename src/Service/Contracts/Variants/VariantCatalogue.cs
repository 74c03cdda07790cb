using System.Diagnostics.CodeAnalysis;

namespace Dashboard.Service.Contracts.Variants;

/// <summary>The endpoint variants of DESIGN.md §6, Linux equivalents of the thesis's Table 7.2.</summary>
public static class VariantCatalogue
{
    /// <summary>Every variant, on-machine first, then cross-machine, then interoperability.</summary>
    public static IReadOnlyList<EndpointVariant> All { get; } =
    [
        new("UdsNoSec", "UnixDomainSocketBinding", "None", "None", VariantGroup.OnMachine, "PipeNoSec"),
        new("UdsPosix", "UnixDomainSocketBinding", "TransportCredentialOnly", "PosixIdentity", VariantGroup.OnMachine, "PipeTptSgnWin (nearest)"),
        new("UdsTptTls", "UnixDomainSocketBinding", "Transport", "None", VariantGroup.OnMachine, "PipeTptEncWin"),
        new("TcpNoSec", "NetTcpBinding", "None", "None", VariantGroup.CrossMachine, "TcpNoSec"),
        new("TcpTptTls", "NetTcpBinding", "Transport", "None", VariantGroup.CrossMachine, "TcpTptEncWin (no Windows login)"),
        new("TcpTptCert", "NetTcpBinding", "Transport", "Certificate", VariantGroup.CrossMachine, "TcpTptEncCert"),
        new("TcpMixUName", "NetTcpBinding", "TransportWithMessageCredential", "UserName", VariantGroup.CrossMachine, "TcpMsgUName"),
        new("HttpNoSec", "BasicHttpBinding", "None", "None", VariantGroup.Interoperability, "WCF/ASMX/Java-No-Security"),
        new("HttpTcoBasic", "BasicHttpBinding", "TransportCredentialOnly", "Basic", VariantGroup.Interoperability, "WTCOBasic / ATCOBasic / JTCOBasic"),
        new("HttpsTpt", "BasicHttpBinding", "Transport", "None", VariantGroup.Interoperability, "whitepaper transport security"),
        new("HttpsTptBasic", "BasicHttpBinding", "Transport", "Basic", VariantGroup.Interoperability, "secure Basic"),
        new("WsNoSec", "WSHttpBinding", "None", "None", VariantGroup.Interoperability, "book chapter wsHttpBinding"),
        new("WsMixUName", "WSHttpBinding", "TransportWithMessageCredential", "UserName", VariantGroup.Interoperability, "whitepaper message credentials"),
    ];

    /// <summary>Finds a variant by its id (case-sensitive).</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out EndpointVariant? variant)
    {
        variant = All.FirstOrDefault(v => v.Name == name);
        return variant is not null;
    }
}
