using System.ServiceModel;
using System.Xml.Serialization;
using Dashboard.Service.Contracts;
using Dashboard.Service.Contracts.DataContracts;

namespace Dashboard.Runner.Clients.Wcf;

/// <summary>
/// The Metro service's port type (<c>Benchmark</c>, document/literal wrapped, namespace <c>urn:dashboard:benchmark:2026</c>)
/// as a WCF service contract, written the way <c>svcutil</c> would generate it from the WSDL (docs/service-contract.md):
/// <see cref="XmlSerializerFormatAttribute"/> so data types are qualified in the data namespace; a top-level array is repeated
/// elements (<c>&lt;value&gt;1&lt;/value&gt;&lt;value&gt;2…</c>), which WCF writes only from a message contract with an
/// <see cref="XmlElementAttribute"/> member (svcutil's shape for such wrappers: <see cref="IntArrayRequest"/> and its siblings); each operation's WS-Addressing action is JAX-WS's default
/// <c>{namespace}:Benchmark:{Operation}Request</c> / <c>…Response</c> (SOAP 1.1 sends it as <c>SOAPAction</c>, which Metro
/// does not need for dispatch: every <c>soapAction</c> of the WSDL is empty, so it dispatches on the body's element).
/// </summary>
[ServiceContract(Name = "Benchmark", Namespace = ContractNamespaces.Service)]
[XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal, SupportFaults = false)]
public interface IBenchmarkSoap
{
#pragma warning disable CS1591 // one operation per service operation of docs/service-contract.md; the names say it
    [OperationContract(Action = Ns + "EmptyMethodRequest", ReplyAction = Ns + "EmptyMethodResponse")]
    Task EmptyMethod();

    [OperationContract(Action = Ns + "ByteSimpleRequest", ReplyAction = Ns + "ByteSimpleResponse")]
    Task<byte> ByteSimple(byte value);

    [OperationContract(Action = Ns + "IntSimpleRequest", ReplyAction = Ns + "IntSimpleResponse")]
    Task<int> IntSimple(int value);

    [OperationContract(Action = Ns + "DoubleSimpleRequest", ReplyAction = Ns + "DoubleSimpleResponse")]
    Task<double> DoubleSimple(double value);

    [OperationContract(Action = Ns + "StringSimpleRequest", ReplyAction = Ns + "StringSimpleResponse")]
    Task<string> StringSimple(string value);

    [OperationContract(Action = Ns + "ObjectSimpleRequest", ReplyAction = Ns + "ObjectSimpleResponse")]
    Task<EmptyObject> ObjectSimple(EmptyObject value);

    [OperationContract(Action = Ns + "UDTypeSimpleRequest", ReplyAction = Ns + "UDTypeSimpleResponse")]
    Task<UDType> UDTypeSimple(UDType value);

    [OperationContract(Action = Ns + "ByteArrayRequest", ReplyAction = Ns + "ByteArrayResponse")]
    [return: XmlElement(DataType = "base64Binary")]
    Task<byte[]> ByteArray([XmlElement(DataType = "base64Binary")] byte[] value);

    [OperationContract(Action = Ns + "IntArrayRequest", ReplyAction = Ns + "IntArrayResponse")]
    Task<IntArrayResponse> IntArray(IntArrayRequest request);

    [OperationContract(Action = Ns + "DoubleArrayRequest", ReplyAction = Ns + "DoubleArrayResponse")]
    Task<DoubleArrayResponse> DoubleArray(DoubleArrayRequest request);

    [OperationContract(Action = Ns + "ObjectArrayRequest", ReplyAction = Ns + "ObjectArrayResponse")]
    Task<ObjectArrayResponse> ObjectArray(ObjectArrayRequest request);

    [OperationContract(Action = Ns + "UDTypeArrayRequest", ReplyAction = Ns + "UDTypeArrayResponse")]
    Task<UDTypeArrayResponse> UDTypeArray(UDTypeArrayRequest request);

    [OperationContract(Action = Ns + "GetOrdersRequest", ReplyAction = Ns + "GetOrdersResponse")]
    Task<GetOrdersResponse> GetOrders(GetOrdersRequest request);

    [OperationContract(Action = Ns + "TransferFundsRequest", ReplyAction = Ns + "TransferFundsResponse")]
    Task<string> TransferFunds(int fromAccount, int toAccount, decimal amount);

    [OperationContract(Action = Ns + "CreateProductInfoRequest", ReplyAction = Ns + "CreateProductInfoResponse")]
    Task<ProductInfo> CreateProductInfo(int count);

    [OperationContract(Action = Ns + "GetRBytesRequest", ReplyAction = Ns + "GetRBytesResponse")]
    [return: XmlElement(DataType = "base64Binary")]
    Task<byte[]> GetRBytes(int size);

    [OperationContract(Action = Ns + "Get256BytesRequest", ReplyAction = Ns + "Get256BytesResponse")]
    Task<string> Get256Bytes();
#pragma warning restore CS1591

    /// <summary>The prefix of every action: <c>urn:dashboard:benchmark:2026:Benchmark:</c>.</summary>
    const string Ns = ContractNamespaces.Service + ":Benchmark:";
}

#pragma warning disable CS1591, SA1402, SA1649, CA1819 // message contracts of the WSDL's wrappers, as svcutil writes them: public array properties named as the elements
[MessageContract(WrapperName = "IntArray", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class IntArrayRequest
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("value")] public int[]? value { get; set; }
}

[MessageContract(WrapperName = "IntArrayResponse", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class IntArrayResponse
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("IntArrayResult")] public int[]? IntArrayResult { get; set; }
}

[MessageContract(WrapperName = "DoubleArray", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class DoubleArrayRequest
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("value")] public double[]? value { get; set; }
}

[MessageContract(WrapperName = "DoubleArrayResponse", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class DoubleArrayResponse
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("DoubleArrayResult")] public double[]? DoubleArrayResult { get; set; }
}

[MessageContract(WrapperName = "ObjectArray", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class ObjectArrayRequest
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("value")] public EmptyObject[]? value { get; set; }
}

[MessageContract(WrapperName = "ObjectArrayResponse", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class ObjectArrayResponse
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("ObjectArrayResult")] public EmptyObject[]? ObjectArrayResult { get; set; }
}

[MessageContract(WrapperName = "UDTypeArray", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class UDTypeArrayRequest
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("value")] public UDType[]? value { get; set; }
}

[MessageContract(WrapperName = "UDTypeArrayResponse", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class UDTypeArrayResponse
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("UDTypeArrayResult")] public UDType[]? UDTypeArrayResult { get; set; }
}

[MessageContract(WrapperName = "GetOrders", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class GetOrdersRequest
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] public int count { get; set; }
}

[MessageContract(WrapperName = "GetOrdersResponse", WrapperNamespace = ContractNamespaces.Service, IsWrapped = true)]
public sealed class GetOrdersResponse
{
    [MessageBodyMember(Namespace = ContractNamespaces.Service, Order = 0)] [XmlElement("GetOrdersResult")] public Order[]? GetOrdersResult { get; set; }
}
#pragma warning restore CS1591, SA1402, SA1649, CA1819

/// <summary>The WSDL's <c>EmptyObject</c> (an empty complex type in the data namespace): what <c>System.Object</c> travels as.</summary>
[XmlType("EmptyObject", Namespace = ContractNamespaces.Data)]
public sealed class EmptyObject
{
}
