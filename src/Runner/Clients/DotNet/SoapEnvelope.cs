using System.Collections;
using System.Net.Http.Headers;
using System.Runtime.Serialization;
using System.Xml;
using Dashboard.Service.Contracts;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// SOAP 1.1, or SOAP 1.2 with WS-Addressing, request envelopes written with <see cref="XmlWriter"/> and
/// <see cref="DataContractSerializer"/> (what an ASMX-era .NET proxy did), in the document/literal wrapped shape the
/// Metro service's WSDL gives: parameters and results qualified in the service namespace, data members in the data
/// namespace, a top-level array as repeated elements (<c>&lt;IntArrayResult&gt;1&lt;/IntArrayResult&gt;&lt;IntArrayResult&gt;2…</c>).
/// </summary>
public sealed class SoapEnvelope
{
    private const string Soap11Namespace = "http://schemas.xmlsoap.org/soap/envelope/";
    private const string Soap12Namespace = "http://www.w3.org/2003/05/soap-envelope";
    private const string AddressingNamespace = "http://www.w3.org/2005/08/addressing";

    private readonly bool _soap12;
    private readonly Dictionary<string, Serializers> _serializers = OperationCatalogue.All.ToDictionary(o => o.Name, o => new Serializers(o), StringComparer.Ordinal);

    private SoapEnvelope(bool soap12) => _soap12 = soap12;

    /// <summary>SOAP 1.1 over HTTP (<c>text/xml</c>, an empty <c>SOAPAction</c>), as the JAX-WS WSDL declares.</summary>
    public static SoapEnvelope Soap11 { get; } = new(soap12: false);

    /// <summary>SOAP 1.2 (<c>application/soap+xml</c>) with the WS-Addressing headers an <c>@Addressing(required=true)</c> endpoint needs.</summary>
    public static SoapEnvelope Soap12Addressing { get; } = new(soap12: true);

    /// <summary>The WS-Addressing action of <paramref name="operation"/>'s request (JAX-WS's default: <c>{namespace}:Benchmark:{Operation}Request</c>).</summary>
    public static string ActionOf(OperationContract operation)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return $"{ContractNamespaces.Service}:Benchmark:{operation.Name}Request";
    }

    /// <summary>Sets the content type (and the SOAP 1.1 <c>SOAPAction</c> header) of a request.</summary>
    public void Describe(HttpRequestMessage request, OperationContract operation)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(operation);
        if (_soap12)
        {
            var type = new MediaTypeHeaderValue("application/soap+xml") { CharSet = "utf-8" };
            type.Parameters.Add(new NameValueHeaderValue("action", $"\"{ActionOf(operation)}\""));
            request.Content!.Headers.ContentType = type;
        }
        else
        {
            request.Content!.Headers.ContentType = new MediaTypeHeaderValue("text/xml") { CharSet = "utf-8" };
            request.Headers.TryAddWithoutValidation("SOAPAction", "\"\"");
        }
    }

    /// <summary>Writes the request envelope of <paramref name="operation"/>.</summary>
    public void WriteRequest(OperationContract operation, object?[] arguments, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(arguments);
        var serializers = For(operation);
        using var writer = XmlDictionaryWriter.CreateTextWriter(body, System.Text.Encoding.UTF8, ownsStream: false);
        var soap = _soap12 ? Soap12Namespace : Soap11Namespace;
        writer.WriteStartElement("s", "Envelope", soap);
        if (_soap12)
        {
            writer.WriteStartElement("s", "Header", soap);
            writer.WriteElementString("a", "Action", AddressingNamespace, ActionOf(operation));
            writer.WriteElementString("a", "MessageID", AddressingNamespace, "urn:uuid:" + Guid.NewGuid().ToString("D"));
            writer.WriteStartElement("a", "ReplyTo", AddressingNamespace);
            writer.WriteElementString("a", "Address", AddressingNamespace, AddressingNamespace + "/anonymous");
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        writer.WriteStartElement("s", "Body", soap);
        writer.WriteStartElement(operation.Name, ContractNamespaces.Service);
        for (var i = 0; i < serializers.Parameters.Length; i++)
        {
            serializers.Parameters[i].Write(writer, arguments[i]);
        }

        writer.WriteEndElement();
        writer.WriteEndElement();
        writer.WriteEndElement();
    }

    /// <summary>Reads a response envelope of <paramref name="operation"/>; returns the result (null for void operations).</summary>
    /// <exception cref="MessageFormatException">The envelope is malformed, is a fault, or is not this operation's response.</exception>
    public object? ReadResponse(OperationContract operation, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var serializers = For(operation);
        try
        {
            using var reader = XmlDictionaryReader.CreateTextReader(body, XmlDictionaryReaderQuotas.Max);
            var soap = _soap12 ? Soap12Namespace : Soap11Namespace;
            reader.MoveToContent();
            reader.ReadStartElement("Envelope", soap);
            reader.MoveToContent();
            if (reader.IsStartElement("Header", soap))
            {
                reader.Skip();
                reader.MoveToContent();
            }

            reader.ReadStartElement("Body", soap);
            reader.MoveToContent();
            if (reader.IsStartElement("Fault", soap))
            {
                throw new MessageFormatException("the service answered with a SOAP fault");
            }

            if (!reader.IsStartElement(operation.ResponseElement, ContractNamespaces.Service))
            {
                throw new MessageFormatException($"expected {operation.ResponseElement}, found '{reader.LocalName}'");
            }

            if (reader.IsEmptyElement)
            {
                return serializers.Result?.ReadEmpty();
            }

            reader.ReadStartElement();
            reader.MoveToContent();
            var result = serializers.Result?.Read(reader);
            return result;
        }
        catch (Exception e) when (e is XmlException or SerializationException or FormatException or OverflowException or InvalidOperationException)
        {
            throw new MessageFormatException($"malformed SOAP response: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    private Serializers For(OperationContract operation) => _serializers[operation.Name];

    private sealed class Serializers(OperationContract operation)
    {
        public Part[] Parameters { get; } = operation.Parameters.Select(p => new Part(p.Type, p.Name)).ToArray();

        public Part? Result { get; } = operation.ReturnType is null ? null : new Part(operation.ReturnType, operation.ResultElement);
    }

    /// <summary>One parameter or result: a single element, or (top-level arrays other than byte[]) repeated elements.</summary>
    private sealed class Part
    {
        private readonly Type? _elementType;
        private readonly DataContractSerializer _serializer;
        private readonly string _name;

        public Part(Type type, string name)
        {
            _name = name;
            _elementType = type.IsArray && type != typeof(byte[]) ? type.GetElementType() : null;
            _serializer = new DataContractSerializer(_elementType ?? type, name, ContractNamespaces.Service);
        }

        public void Write(XmlDictionaryWriter writer, object? value)
        {
            if (_elementType is null)
            {
                _serializer.WriteObject(writer, value);
                return;
            }

            foreach (var item in (IEnumerable)value!)
            {
                _serializer.WriteObject(writer, item);
            }
        }

        public object? Read(XmlDictionaryReader reader)
        {
            if (_elementType is null)
            {
                return _serializer.ReadObject(reader, verifyObjectName: true);
            }

            var items = new ArrayList();
            while (reader.IsStartElement(_name, ContractNamespaces.Service))
            {
                items.Add(_serializer.ReadObject(reader, verifyObjectName: true));
                reader.MoveToContent();
            }

            return items.ToArray(_elementType);
        }

        public Array? ReadEmpty() => _elementType is null ? null : Array.CreateInstance(_elementType, 0);
    }
}
