using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients;

/// <summary>Builds the load clients of one client technology (DESIGN.md §7) for one endpoint and payload case.</summary>
public interface IClientDriver
{
    /// <summary>The client technology id this driver implements (<c>wcf</c>, <c>soap</c>, ...).</summary>
    string ClientId { get; }

    /// <summary>Creates the factory of one cell's clients: <paramref name="endpoint"/> as the host listed it, calling <paramref name="payload"/>.</summary>
    /// <exception cref="LoadClientException">The endpoint's address or binding cannot be used by this client.</exception>
    ILoadClientFactory CreateFactory(HostEndpoint endpoint, PayloadCase payload);
}

/// <summary>The client drivers this build has, and why the others are missing.</summary>
public sealed class ClientDriverRegistry
{
    private readonly Dictionary<string, IClientDriver> _drivers;

    /// <summary>Creates the registry from the drivers available in this build.</summary>
    public ClientDriverRegistry(IEnumerable<IClientDriver> drivers)
    {
        _drivers = drivers.ToDictionary(d => d.ClientId, StringComparer.Ordinal);
    }

    /// <summary>The driver for <paramref name="clientId"/>.</summary>
    /// <exception cref="ClientUnavailableException">This build has no driver for it; the message says why.</exception>
    public IClientDriver Get(string clientId) =>
        _drivers.TryGetValue(clientId, out var driver) ? driver : throw new ClientUnavailableException(clientId, UnavailableReason(clientId));

    /// <summary>Why a client technology is not available in this build (docs/dependencies.md has the details).</summary>
    public static string UnavailableReason(string clientId) => clientId switch
    {
        "wcf" => "the System.ServiceModel client packages cannot be restored here (System.ServiceModel.Primitives is missing from the NuGet registry; see docs/dependencies.md)",
        "soap" or "java" or "node" => "this client technology is not built yet (issue #5), and needs a service host to call",
        _ => "unknown client technology",
    };
}

/// <summary>A scenario names a client technology this build cannot run; the message is one line.</summary>
public sealed class ClientUnavailableException : Exception
{
    /// <summary>Creates the error for <paramref name="clientId"/> with the <paramref name="reason"/>.</summary>
    public ClientUnavailableException(string clientId, string reason)
        : base($"client technology '{clientId}' is not available in this build: {reason}")
    {
        ClientId = clientId;
    }

    /// <summary>The client technology id.</summary>
    public string ClientId { get; }
}
