using System.Globalization;
using System.Runtime.Serialization;
using Dashboard.Service.Contracts.Catalogue;
using System.Xml.Serialization;

namespace Dashboard.Service.Contracts.DataContracts;

/// <summary>
/// The whitepaper's "order message" for the Enterprise Services comparison (seed 001): a product list of
/// about 512 bytes per detail. <see cref="Create"/> fills it as the whitepaper's <c>CreateProductInfo</c>.
/// </summary>
[DataContract(Namespace = ContractNamespaces.Data)]
[XmlType(Namespace = ContractNamespaces.Data)] // the same shape for XmlSerializer (the wcf client, which calls the Metro WSDL as svcutil would)
public sealed record ProductInfo
{
    [DataMember(Order = 0)] public string TotalResults { get; init; } = "";
    [DataMember(Order = 1)] public string TotalPages { get; init; } = "";
    [DataMember(Order = 2)] public string ListName { get; init; } = "";
    [DataMember(Order = 3)] public ProductDetails[] Details { get; init; } = [];

    /// <summary>A product list with <paramref name="count"/> identical details.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public static ProductInfo Create(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        return new ProductInfo
        {
            TotalResults = count.ToString(CultureInfo.InvariantCulture),
            TotalPages = "1",
            ListName = "Books",
            Details = Enumerable.Range(0, count).Select(_ => ProductDetails.Create()).ToArray(),
        };
    }
}

/// <summary>One product of a <see cref="ProductInfo"/>.</summary>
[DataContract(Namespace = ContractNamespaces.Data)]
[XmlType(Namespace = ContractNamespaces.Data)] // the same shape for XmlSerializer (the wcf client, which calls the Metro WSDL as svcutil would)
public sealed record ProductDetails
{
    [DataMember(Order = 0)] public string Url { get; init; } = "";
    [DataMember(Order = 1)] public string Asin { get; init; } = "";
    [DataMember(Order = 2)] public string ProductName { get; init; } = "";
    [DataMember(Order = 3)] public string Catalog { get; init; } = "";
    [DataMember(Order = 4)] public string ReleaseDate { get; init; } = "";
    [DataMember(Order = 5)] public string Manufacturer { get; init; } = "";
    [DataMember(Order = 6)] public string Distributor { get; init; } = "";
    [DataMember(Order = 7)] public string ImageUrlSmall { get; init; } = "";
    [DataMember(Order = 8)] public string ImageUrlMedium { get; init; } = "";
    [DataMember(Order = 9)] public string ImageUrlLarge { get; init; } = "";
    [DataMember(Order = 10)] public string ListPrice { get; init; } = "";
    [DataMember(Order = 11)] public string OurPrice { get; init; } = "";
    [DataMember(Order = 12)] public string UsedPrice { get; init; } = "";
    [DataMember(Order = 13)] public string Isbn { get; init; } = "";
    [DataMember(Order = 14)] public string MpaaRating { get; init; } = "";

    /// <summary>The whitepaper's <c>GetDetail()</c>; its elided image URLs are filled with same-length placeholders.</summary>
    public static ProductDetails Create() => Template;

    /// <summary>The catalogue's <c>ProductDetails</c>, built once (the type is immutable): the service's hot path hands it out.</summary>
    private static readonly ProductDetails Template = CatalogueValues.Named<ProductDetails>(ContractCatalogue.Current, "ProductDetails");
}
