using System.Diagnostics.CodeAnalysis;
using Dashboard.Service.Contracts.Catalogue;

namespace Dashboard.Service.Contracts.Variants;

/// <summary>The endpoint variants (README.md, docs/service-contract.md): the thesis's Table 7.2 on the stacks available here, and gRPC; read from the catalogue file (<see cref="ContractCatalogue"/>).</summary>
public static class VariantCatalogue
{
    /// <summary>Stack id of ASP.NET Core on Kestrel, served by the host's own process.</summary>
    public const string AspNet = "aspnet";

    /// <summary>Stack id of JAX-WS RI "Metro" (+ WSS4J), served by the JVM service process.</summary>
    public const string Metro = "metro";

    /// <summary>Stack id of ZeroC Ice 3.7, served by the JVM service process.</summary>
    public const string Ice = "ice";

    /// <summary>Stack id of WCF bindings served by .NET with WCF's own message encoders (our dispatcher; CoreWCF is not in this registry), in the host's process.</summary>
    public const string WcfBindings = "wcfbindings";

    /// <summary>Stack id of CoreWCF: not available in this build.</summary>
    public const string CoreWcf = "corewcf";

    /// <summary>Every variant in catalogue order (aspnet, metro, ice, then the unavailable CoreWCF row): <see cref="ContractCatalogue.Variants"/>.</summary>
    public static IReadOnlyList<EndpointVariant> All => ContractCatalogue.Current.Variants;

    /// <summary>Finds a variant by its id (case-sensitive).</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out EndpointVariant? variant)
    {
        variant = All.FirstOrDefault(v => v.Name == name);
        return variant is not null;
    }
}
