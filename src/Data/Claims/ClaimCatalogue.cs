using System.Diagnostics.CodeAnalysis;

namespace Dashboard.Data.Claims;

/// <summary>
/// Every claim of the source documents the product checks (docs/claims.md): the claims file <c>claims.json</c> (shape in
/// <c>claims.schema.json</c>), copied beside the binaries as <see cref="DefaultPath"/> and read once, on first use; the
/// dashboard reads it at start, so a broken entry stops it with its file, claim id and field
/// (<see cref="ClaimCatalogueException"/>). A user adds a claim by editing that file and restarting (docs/claims.md,
/// "Adding a claim"). Quotes are copied from the documents' text; where a claim names technologies this build does not
/// have, the claim either compares the nearest equivalents the variant catalogue lists (docs/web.md) or says why it is
/// not measurable here.
/// </summary>
public static class ClaimCatalogue
{
    /// <summary>Key of the master's thesis.</summary>
    public const string Thesis = "thesis";

    /// <summary>Key of Microsoft's whitepaper.</summary>
    public const string Whitepaper = "whitepaper";

    /// <summary>Key of the Ice paper.</summary>
    public const string IcePaper = "ice-paper";

    /// <summary>Key of the latency harness blog post.</summary>
    public const string LatencyHarness = "latency-harness";

    /// <summary>Key of the book chapter.</summary>
    public const string Book = "book";

    /// <summary>Topology of a run on one machine (loopback, Unix sockets).</summary>
    public const string SameMachine = "same-machine";

    /// <summary>Topology of a run whose host is in its own network namespace behind a shaped link (the thesis's cross-machine).</summary>
    public const string EmulatedLan = "emulated-lan";

    /// <summary>The claims file this build reads: <c>Claims/claims.json</c> beside the binaries (copied from src/Data/Claims).</summary>
    public static string DefaultPath => Path.Combine(AppContext.BaseDirectory, "Claims", "claims.json");

    private static readonly Lazy<ClaimCatalogueDocument> Loaded = new(() => ClaimCatalogueFile.Load(DefaultPath));

    /// <summary>The documents' titles by key, as the claims file lists them.</summary>
    /// <exception cref="ClaimCatalogueException">The claims file is missing or broken.</exception>
    public static IReadOnlyDictionary<string, string> Titles => Loaded.Value.Titles;

    /// <summary>Every claim, in the file's order (thesis first, then whitepaper, Ice paper, latency harness, book chapter).</summary>
    /// <exception cref="ClaimCatalogueException">The claims file is missing or broken.</exception>
    public static IReadOnlyList<Claim> All => Loaded.Value.Claims;

    /// <summary>Finds a claim by id.</summary>
    public static bool TryGet(string id, [NotNullWhen(true)] out Claim? claim)
    {
        claim = All.FirstOrDefault(c => c.Id == id);
        return claim is not null;
    }
}
