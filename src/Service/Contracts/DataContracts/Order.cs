using System.Runtime.Serialization;
using Dashboard.Service.Contracts.Catalogue;
using System.Xml.Serialization;

namespace Dashboard.Service.Contracts.DataContracts;

/// <summary>
/// The whitepaper's order (seed 001, "ASMX" section): about 256 bytes of data, two order lines.
/// <see cref="Create"/> fills it exactly as the whitepaper's <c>GetOrders</c> does.
/// </summary>
[DataContract(Namespace = ContractNamespaces.Data)]
[XmlType(Namespace = ContractNamespaces.Data)] // the same shape for XmlSerializer (the wcf client, which calls the Metro WSDL as svcutil would)
public sealed record Order
{
    [DataMember(Order = 0)] public int CustomerId { get; init; }
    [DataMember(Order = 1)] public string ShippingAddress1 { get; init; } = "";
    [DataMember(Order = 2)] public string ShippingAddress2 { get; init; } = "";
    [DataMember(Order = 3)] public string ShippingCity { get; init; } = "";
    [DataMember(Order = 4)] public string ShippingState { get; init; } = "";
    [DataMember(Order = 5)] public string ShippingZip { get; init; } = "";
    [DataMember(Order = 6)] public string ShippingCountry { get; init; } = "";
    [DataMember(Order = 7)] public string ShipType { get; init; } = "";
    [DataMember(Order = 8)] public string CreditCardType { get; init; } = "";
    [DataMember(Order = 9)] public string CreditCardNumber { get; init; } = "";
    [DataMember(Order = 10)] public DateTime CreditCardExpiration { get; init; }
    [DataMember(Order = 11)] public string CreditCardName { get; init; } = "";
    [DataMember(Order = 12)] public OrderLine[] OrderItems { get; init; } = [];

    /// <summary>One order as the whitepaper builds it; <paramref name="expiration"/> stands for its <c>DateTime.UtcNow</c>.</summary>
    public static Order Create(DateTime expiration) => Template with { CreditCardExpiration = expiration };

    /// <summary>The catalogue's <c>Order</c>, built once: the service's hot path copies it (its lines are shared, never written).</summary>
    private static readonly Order Template = CatalogueValues.Named<Order>(ContractCatalogue.Current, "Order");
}

/// <summary>One line of an <see cref="Order"/>.</summary>
[DataContract(Namespace = ContractNamespaces.Data)]
[XmlType(Namespace = ContractNamespaces.Data)] // the same shape for XmlSerializer (the wcf client, which calls the Metro WSDL as svcutil would)
public sealed record OrderLine
{
    [DataMember(Order = 0)] public int ItemId { get; init; }
    [DataMember(Order = 1)] public int Quantity { get; init; }
}
