using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>A variant × client pair of a scenario that runs: the client technology can call the endpoint variant.</summary>
/// <param name="Variant">Endpoint variant id, e.g. <c>IceTcp</c>.</param>
/// <param name="Client">Client technology id, e.g. <c>java</c>.</param>
public sealed record CellPair(string Variant, string Client);

/// <summary>A variant × client pair of a scenario that is skipped, and why, in a user's terms.</summary>
/// <param name="Variant">Endpoint variant id, e.g. <c>AspNetHttpJson</c>.</param>
/// <param name="Client">Client technology id, e.g. <c>java</c>.</param>
/// <param name="Reason">One sentence, e.g. "the java client calls only the Metro (SOAP) and Ice variants".</param>
public sealed record SkippedPair(string Variant, string Client, string Reason);

/// <summary>
/// The one rule for a scenario's cross product of endpoint variants × client technologies: every variant is called by
/// every chosen client that can call it (<see cref="ClientTechnology.Callable"/>); a pair that cannot work is skipped
/// with its reason; a scenario is refused only when no pair works. The validator, the New run page and the runner
/// all use it, so what the page lists as skipped is what the runner leaves out.
/// </summary>
public sealed class ScenarioCells
{
    private ScenarioCells(IReadOnlyList<CellPair> runnable, IReadOnlyList<SkippedPair> skipped)
    {
        Runnable = runnable;
        Skipped = skipped;
    }

    /// <summary>The pairs that run, variant order first, then client order, as the scenario lists them.</summary>
    public IReadOnlyList<CellPair> Runnable { get; }

    /// <summary>The pairs left out, in the same order, each with its reason.</summary>
    public IReadOnlyList<SkippedPair> Skipped { get; }

    /// <summary>
    /// The pairs of <paramref name="variants"/> × <paramref name="clients"/>. Null entries, unknown ids and unavailable
    /// variants are left out of both lists (the validator names them at their own fields); repeated ids count once.
    /// </summary>
    public static ScenarioCells Of(IEnumerable<string?>? variants, IEnumerable<string?>? clients)
    {
        var knownVariants = (variants ?? []).Distinct()
            .Select(v => v is not null && VariantCatalogue.TryGet(v, out var variant) && variant.IsAvailable ? variant : null)
            .OfType<EndpointVariant>()
            .ToList();
        var knownClients = (clients ?? []).Distinct()
            .Select(c => ClientTechnology.All.FirstOrDefault(t => t.Id == c))
            .OfType<ClientTechnology>()
            .ToList();
        var runnable = new List<CellPair>();
        var skipped = new List<SkippedPair>();
        foreach (var variant in knownVariants)
        {
            foreach (var client in knownClients)
            {
                if (client.Supports(variant))
                {
                    runnable.Add(new CellPair(variant.Name, client.Id));
                }
                else
                {
                    skipped.Add(new SkippedPair(variant.Name, client.Id, client.RefusalOf(variant.Name) ?? Reason(client)));
                }
            }
        }

        return new ScenarioCells(runnable, skipped);
    }

    /// <summary>True when the client technology <paramref name="client"/> can call the variant <paramref name="variant"/> (both ids).</summary>
    public static bool CanCall(string variant, string client) =>
        VariantCatalogue.TryGet(variant, out var v) && ClientTechnology.All.FirstOrDefault(t => t.Id == client) is { } c && c.Supports(v);

    /// <summary>Why <paramref name="client"/> is skipped for a variant it cannot call: which stacks it does call.</summary>
    public static string Reason(ClientTechnology client)
    {
        ArgumentNullException.ThrowIfNull(client);
        var stacks = VariantCatalogue.All.Where(client.Supports).Select(GroupName).Distinct().ToList();
        var list = stacks.Count switch
        {
            0 => "no variant",
            1 => stacks[0],
            _ => string.Join(", ", stacks.Take(stacks.Count - 1)) + " and " + stacks[^1],
        };
        return $"the {client.Id} client calls only the {list} variants";
    }

    /// <summary>How a variant's group is said in a reason: its stack's name, or "gRPC" for the gRPC variants of the aspnet stack.</summary>
    private static string GroupName(EndpointVariant variant) =>
        variant.Encoding.Contains("gRPC", StringComparison.Ordinal) ? "gRPC" : StackName(variant.Stack);

    /// <summary>A stack id as people say it: <c>aspnet</c> → "ASP.NET Core", <c>metro</c> → "Metro (SOAP)", <c>ice</c> → "Ice".</summary>
    public static string StackName(string stack) => stack switch
    {
        VariantCatalogue.AspNet => "ASP.NET Core",
        VariantCatalogue.Metro => "Metro (SOAP)",
        VariantCatalogue.Ice => "Ice",
        VariantCatalogue.WcfBindings => "WCF bindings",
        VariantCatalogue.CoreWcf => "CoreWCF",
        _ => stack,
    };
}
