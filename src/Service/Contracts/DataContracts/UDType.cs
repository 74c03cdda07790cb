using System.Runtime.Serialization;
using Dashboard.Service.Contracts.Catalogue;
using System.Xml.Serialization;

namespace Dashboard.Service.Contracts.DataContracts;

/// <summary>
/// The thesis's user-defined type (ch. 6.2.1): a data contract that "encapsulated the primitive data
/// types with maximum values". <see cref="WithMaximumValues"/> builds the instance the payload cases send.
/// </summary>
[DataContract(Namespace = ContractNamespaces.Data)]
[XmlType(Namespace = ContractNamespaces.Data)] // the same shape for XmlSerializer (the wcf client, which calls the Metro WSDL as svcutil would)
public sealed record UDType
{
    [DataMember(Order = 0)] public byte ByteValue { get; init; }
    [DataMember(Order = 1)] public short ShortValue { get; init; }
    [DataMember(Order = 2)] public int IntValue { get; init; }
    [DataMember(Order = 3)] public long LongValue { get; init; }
    [DataMember(Order = 4)] public float FloatValue { get; init; }
    [DataMember(Order = 5)] public double DoubleValue { get; init; }
    [DataMember(Order = 6)] public decimal DecimalValue { get; init; }
    [DataMember(Order = 7)] public bool BoolValue { get; init; }

    /// <summary>Every member at its type's maximum value (<c>bool</c>: true).</summary>
    public static UDType WithMaximumValues() => Maximum;

    /// <summary>The catalogue's <c>UDTypeMax</c>, built once (the type is immutable).</summary>
    private static readonly UDType Maximum = CatalogueValues.Named<UDType>(ContractCatalogue.Current, "UDTypeMax");
}
