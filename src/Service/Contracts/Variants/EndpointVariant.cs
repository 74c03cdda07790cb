namespace Dashboard.Service.Contracts.Variants;

/// <summary>Where client and service sit, as the thesis groups its scenarios (Table 7.2).</summary>
public enum VariantGroup
{
    /// <summary>On-machine communication (thesis: NetNamedPipeBinding; here Unix domain sockets).</summary>
    OnMachine,

    /// <summary>Cross-machine communication (NetTcpBinding).</summary>
    CrossMachine,

    /// <summary>Interoperability (HTTP bindings, reachable by ASMX, Java and Node clients).</summary>
    Interoperability,
}

/// <summary>
/// One endpoint variant of DESIGN.md §6: binding × security mode × client credential type.
/// </summary>
/// <param name="Name">The variant id used in scenarios and charts (e.g. <c>TcpTptTls</c>).</param>
/// <param name="Binding">The CoreWCF binding (e.g. <c>NetTcpBinding</c>).</param>
/// <param name="SecurityMode">The binding's security mode (<c>None</c>, <c>Transport</c>, ...).</param>
/// <param name="ClientCredentialType">The client credential type (<c>None</c>, <c>Basic</c>, <c>Certificate</c>, ...).</param>
/// <param name="Group">On-machine, cross-machine or interoperability.</param>
/// <param name="ThesisCounterpart">The thesis scenario (Table 7.2) or document it stands for.</param>
public sealed record EndpointVariant(
    string Name,
    string Binding,
    string SecurityMode,
    string ClientCredentialType,
    VariantGroup Group,
    string ThesisCounterpart)
{
    /// <summary>True when the variant protects or authenticates anything (security mode other than None).</summary>
    public bool IsSecure => SecurityMode != "None";

    /// <summary>True for the <c>Http*</c> variants (BasicHttpBinding, SOAP 1.1), the ones raw SOAP, Java and Node clients can call (DESIGN.md §7).</summary>
    public bool IsBasicHttp => Binding == "BasicHttpBinding";
}
