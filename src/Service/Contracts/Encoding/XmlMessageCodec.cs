using System.Runtime.Serialization;
using System.Xml;
using Dashboard.Service.Contracts.Operations;

namespace Dashboard.Service.Contracts.Encoding;

/// <summary>
/// WCF's wrapped message body without the SOAP envelope, written by <see cref="DataContractSerializer"/>:
/// request <c>&lt;Op xmlns="urn:dashboard:benchmark:2026"&gt;&lt;param&gt;…&lt;/param&gt;&lt;/Op&gt;</c>, response
/// <c>&lt;OpResponse&gt;&lt;OpResult&gt;…&lt;/OpResult&gt;&lt;/OpResponse&gt;</c>; as text XML (UTF-8) or binary XML
/// ([MC-NBFX] through <see cref="XmlDictionaryWriter.CreateBinaryWriter(Stream)"/>, the format of WCF's binary encoder).
/// </summary>
/// <param name="binary">True for binary XML, false for text XML.</param>
public sealed class XmlMessageCodec(bool binary) : IMessageCodec
{
    private readonly Dictionary<string, Serializers> _serializers = OperationCatalogue.All.ToDictionary(o => o.Name, o => new Serializers(o), StringComparer.Ordinal);

    /// <inheritdoc />
    public string ContentType => binary ? "application/msbin1" : "application/xml";

    /// <inheritdoc />
    public void WriteRequest(OperationContract operation, object?[] arguments, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(arguments);
        var serializers = For(operation);
        using var writer = CreateWriter(body);
        writer.WriteStartElement(operation.Name, ContractNamespaces.Service);
        for (var i = 0; i < serializers.Parameters.Length; i++)
        {
            serializers.Parameters[i].WriteObject(writer, arguments[i]);
        }

        writer.WriteEndElement();
    }

    /// <inheritdoc />
    public object?[] ReadRequest(OperationContract operation, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var serializers = For(operation);
        return Read(body, operation.Name, reader =>
        {
            var arguments = new object?[serializers.Parameters.Length];
            for (var i = 0; i < arguments.Length; i++)
            {
                arguments[i] = serializers.Parameters[i].ReadObject(reader, verifyObjectName: true);
            }

            return arguments;
        }, []);
    }

    /// <inheritdoc />
    public void WriteResponse(OperationContract operation, object? result, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var serializers = For(operation);
        using var writer = CreateWriter(body);
        writer.WriteStartElement(operation.ResponseElement, ContractNamespaces.Service);
        serializers.Result?.WriteObject(writer, result);
        writer.WriteEndElement();
    }

    /// <inheritdoc />
    public object? ReadResponse(OperationContract operation, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var serializers = For(operation);
        return Read(body, operation.ResponseElement, reader => serializers.Result?.ReadObject(reader, verifyObjectName: true), null);
    }

    private Serializers For(OperationContract operation) =>
        _serializers.TryGetValue(operation.Name, out var serializers) ? serializers : throw new ArgumentException($"unknown operation '{operation.Name}'", nameof(operation));

    private XmlDictionaryWriter CreateWriter(Stream body) =>
        binary ? XmlDictionaryWriter.CreateBinaryWriter(body, null, null, ownsStream: false) : XmlDictionaryWriter.CreateTextWriter(body, System.Text.Encoding.UTF8, ownsStream: false);

    private T Read<T>(Stream body, string wrapper, Func<XmlDictionaryReader, T> readContent, T empty)
    {
        try
        {
            using var reader = binary
                ? XmlDictionaryReader.CreateBinaryReader(body, XmlDictionaryReaderQuotas.Max)
                : XmlDictionaryReader.CreateTextReader(body, XmlDictionaryReaderQuotas.Max);
            reader.MoveToContent();
            if (!reader.IsStartElement(wrapper, ContractNamespaces.Service))
            {
                throw new MessageFormatException($"expected element {wrapper} in {ContractNamespaces.Service}, found {reader.NodeType} '{reader.LocalName}'");
            }

            if (reader.IsEmptyElement)
            {
                reader.Read();
                return empty;
            }

            reader.ReadStartElement();
            var content = readContent(reader);
            reader.MoveToContent();
            reader.ReadEndElement();
            return content;
        }
        catch (Exception e) when (e is XmlException or SerializationException or InvalidDataException or FormatException or OverflowException or InvalidOperationException)
        {
            throw new MessageFormatException($"malformed {(binary ? "binary" : "text")} XML body: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    private sealed class Serializers(OperationContract operation)
    {
        public DataContractSerializer[] Parameters { get; } = operation.Parameters
            .Select(p => new DataContractSerializer(p.Type, p.Name, ContractNamespaces.Service)).ToArray();

        public DataContractSerializer? Result { get; } = operation.ReturnType is null
            ? null
            : new DataContractSerializer(operation.ReturnType, operation.ResultElement, ContractNamespaces.Service);
    }
}
