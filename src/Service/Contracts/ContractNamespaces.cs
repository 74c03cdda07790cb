namespace Dashboard.Service.Contracts;

/// <summary>XML namespaces of the service and data contracts; fixed, since WSDL-generated clients depend on them.</summary>
public static class ContractNamespaces
{
    /// <summary>Namespace of the service contract's operations.</summary>
    public const string Service = "urn:dashboard:benchmark:2026";

    /// <summary>Namespace of the data contracts.</summary>
    public const string Data = "urn:dashboard:benchmark:2026:data";
}
