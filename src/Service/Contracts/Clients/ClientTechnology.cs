using Dashboard.Service.Contracts.Catalogue;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Contracts.Clients;

/// <summary>A client technology (docs/driver-protocol.md, "Client technologies") and which endpoint variants it can call.</summary>
/// <param name="Id">The id used in scenarios: <c>dotnet</c>, <c>java</c>, <c>node</c> or <c>wcf</c>.</param>
/// <param name="Description">What the client is, for people.</param>
/// <param name="Callable">The variant ids this client can call.</param>
/// <param name="Refusals">Variant id → why this client cannot call it, for the variants where the reason is worth saying
/// (the scenario validator and the UI show it); null when there are none.</param>
public sealed record ClientTechnology(string Id, string Description, IReadOnlySet<string> Callable, IReadOnlyDictionary<string, string>? Refusals = null)
{
    /// <summary>The client technologies of the catalogue file (<see cref="ContractCatalogue.Clients"/>): <c>dotnet</c>, <c>java</c>, <c>node</c>, <c>wcf</c>.</summary>
    public static IReadOnlyList<ClientTechnology> All { get; } =
        [.. ContractCatalogue.Current.Clients.Select(c => new ClientTechnology(c.Id, c.Description, c.Variants, c.Refusals.Count > 0 ? c.Refusals : null))];

    /// <summary>The client technology <paramref name="id"/> (case-sensitive).</summary>
    /// <exception cref="KeyNotFoundException">The catalogue has no such client.</exception>
    public static ClientTechnology Get(string id) =>
        All.FirstOrDefault(c => c.Id == id) ?? throw new KeyNotFoundException($"the catalogue has no client technology '{id}'");

    /// <summary>Why this client cannot call <paramref name="variant"/>, when the catalogue says; else null.</summary>
    public string? RefusalOf(string variant) => Refusals?.GetValueOrDefault(variant);

    /// <summary>True when this client can call <paramref name="variant"/>.</summary>
    public bool Supports(EndpointVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return Callable.Contains(variant.Name);
    }
}
