using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Data.Results;

/// <summary>
/// Classifies stored levels for the results views: a variant's security mode (docs/service-contract.md, <see cref="VariantCatalogue"/>)
/// and a payload's dataset class (docs/service-contract.md, <see cref="PayloadCatalogue"/>).
/// </summary>
public static class ResultsClassification
{
    /// <summary>What a variant or payload the catalogues do not list is classified as.</summary>
    public const string Unknown = "unknown";

    /// <summary>The scope name of a ranking over every payload class.</summary>
    public const string Overall = "overall";

    /// <summary>The variant's security mode, or <see cref="Unknown"/>.</summary>
    public static string SecurityMode(string variant) =>
        VariantCatalogue.TryGet(variant, out var v) ? v.SecurityMode : Unknown;

    /// <summary>True when the catalogue lists the variant with a security mode other than <c>None</c>.</summary>
    public static bool IsSecure(string variant) => VariantCatalogue.TryGet(variant, out var v) && v.IsSecure;

    /// <summary>The payload's dataset class name (<c>Small</c>, <c>Large</c>, <c>Whitepaper</c>, <c>Book</c>), or <see cref="Unknown"/>.</summary>
    public static string PayloadClass(string payload) =>
        PayloadCatalogue.TryGet(payload, out var p) ? p.Dataset.ToString() : Unknown;

    /// <summary>How a scope reads in a title: "small datasets" (thesis ch. 6.2.1), "whitepaper payloads", "all payloads".</summary>
    public static string DescribeScope(string scope) => scope switch
    {
        nameof(DatasetClass.Small) => "small datasets",
        nameof(DatasetClass.Large) => "large datasets",
        nameof(DatasetClass.Whitepaper) => "whitepaper payloads",
        nameof(DatasetClass.Book) => "book chapter payload",
        Overall => "all payloads",
        _ => scope + " payloads",
    };

    /// <summary>Order of scopes in tables: the catalogue's dataset classes in declaration order, unknown ones, then overall.</summary>
    internal static int ScopeOrder(string scope) =>
        scope == Overall ? int.MaxValue : Enum.TryParse<DatasetClass>(scope, out var c) ? (int)c : int.MaxValue - 1;
}
