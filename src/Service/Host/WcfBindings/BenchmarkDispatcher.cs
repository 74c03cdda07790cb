using System.Collections;
using System.Collections.Frozen;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Dashboard.Service.Contracts;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Host.AspNet;

namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// Our dispatcher of the wcfbindings stack (WCF's message encoders read and write the envelopes; this class is what a WCF
/// service host's dispatcher would be): a request <see cref="Message"/> → the reply <see cref="Message"/> of the same
/// 17 operations, names and namespaces as the Metro service (<c>urn:dashboard:benchmark:2026</c>, document/literal wrapped,
/// docs/service-contract.md). The operation is the one the WS-Addressing action names
/// (<c>{namespace}:Benchmark:{Operation}Request</c>, what the wcf client sends) or, when the message has no action
/// (SOAP 1.1 with an empty <c>SOAPAction</c>, as the JAX-WS, npm soap and ASMX-style clients send), the body's wrapper
/// element, as Metro dispatches. Parameters and results are read and written with <see cref="DataContractSerializer"/>
/// under the WSDL's element names (a top-level array other than <c>byte[]</c> as repeated elements); the work is
/// <see cref="BenchmarkService"/>, the aspnet stack's implementation. Thread-safe.
/// </summary>
/// <remarks>
/// Faults (a reply, never an exception): an action or wrapper element of no operation → a Sender fault with subcode
/// <c>ActionNotSupported</c> (WS-Addressing's); a body that does not parse or a count out of the contract's range → a
/// Sender fault saying why. The reply relates to the request's <c>MessageID</c> when it has one.
/// </remarks>
public sealed class BenchmarkDispatcher
{
    /// <summary>The WS-Addressing 1.0 namespace (the fault subcode's and the fault action's).</summary>
    public const string AddressingNamespace = "http://www.w3.org/2005/08/addressing";

    private const string ActionPrefix = ContractNamespaces.Service + ":Benchmark:";

    private readonly FrozenDictionary<string, Operation> _byAction;
    private readonly FrozenDictionary<string, Operation> _byElement;

    /// <summary>The dispatcher of every operation of the catalogue.</summary>
    public BenchmarkDispatcher()
    {
        var operations = OperationCatalogue.All.Select(o => new Operation(o)).ToArray();
        _byAction = operations.ToFrozenDictionary(o => ActionPrefix + o.Contract.Name + "Request", StringComparer.Ordinal);
        _byElement = operations.ToFrozenDictionary(o => o.Contract.Name, StringComparer.Ordinal);
    }

    /// <summary>The reply action of <paramref name="operation"/> (JAX-WS's default, as the wcf client's contract expects).</summary>
    public static string ReplyActionOf(string operation) => ActionPrefix + operation + "Response";

    /// <summary>Answers <paramref name="request"/> in its own message version; the caller closes both messages.</summary>
    public Message Dispatch(Message request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var version = request.Version;
        var action = request.Headers.Action;
        Message reply;
        try
        {
            reply = DispatchCore(request, action, version);
        }
        catch (Exception e) when (e is XmlException or SerializationException or FormatException or OverflowException or InvalidCastException or InvalidOperationException or CommunicationException)
        {
            reply = Fault(version, FaultCode.CreateSenderFaultCode(null), $"the request body does not parse: {e.Message.ReplaceLineEndings(" ")}");
        }
        catch (ArgumentOutOfRangeException e)
        {
            reply = Fault(version, FaultCode.CreateSenderFaultCode(null), e.Message.ReplaceLineEndings(" "));
        }

        if (version.Addressing != AddressingVersion.None && request.Headers.MessageId is { } id)
        {
            reply.Headers.RelatesTo = id;
        }

        return reply;
    }

    private Message DispatchCore(Message request, string? action, MessageVersion version)
    {
        if (request.IsEmpty)
        {
            return NotSupported(version, action ?? "(none)", "the body is empty");
        }

        using var reader = request.GetReaderAtBodyContents();
        reader.MoveToContent();
        Operation? operation;
        if (!string.IsNullOrEmpty(action))
        {
            if (!_byAction.TryGetValue(action, out operation))
            {
                return NotSupported(version, action, "no operation has this action");
            }
        }
        else if (reader.NamespaceURI != ContractNamespaces.Service || !_byElement.TryGetValue(reader.LocalName, out operation))
        {
            return NotSupported(version, $"{{{reader.NamespaceURI}}}{reader.LocalName}", "no operation has this body element");
        }

        if (!reader.IsStartElement(operation.Contract.Name, ContractNamespaces.Service))
        {
            return Fault(version, FaultCode.CreateSenderFaultCode(null), $"the action names {operation.Contract.Name}, the body holds '{reader.LocalName}'");
        }

        var arguments = operation.ReadArguments(reader);
        var result = BenchmarkService.Invoke(operation.Contract, arguments);
        // SOAP 1.1 without WS-Addressing (BasicHttp) carries no action in the envelope.
        var replyAction = version.Addressing == AddressingVersion.None ? null : ReplyActionOf(operation.Contract.Name);
        return Message.CreateMessage(version, replyAction, new ReplyBody(operation, result));
    }

    private static Message NotSupported(MessageVersion version, string what, string why)
    {
        var code = version.Addressing == AddressingVersion.None
            ? FaultCode.CreateSenderFaultCode(null)
            : FaultCode.CreateSenderFaultCode(new FaultCode("ActionNotSupported", AddressingNamespace));
        return Fault(version, code, $"{what}: {why}; the service answers the 17 operations of {ContractNamespaces.Service}");
    }

    /// <summary>A SOAP fault of <paramref name="version"/> (with the WS-Addressing fault action when the version has addressing).</summary>
    public static Message Fault(MessageVersion version, FaultCode code, string reason) =>
        Message.CreateMessage(version, code, reason, version.Addressing == AddressingVersion.None ? null : AddressingNamespace + "/fault");

    /// <summary>One operation's serializers: each parameter's and the result's.</summary>
    private sealed class Operation(OperationContract contract)
    {
        public OperationContract Contract { get; } = contract;

        private readonly Part[] _parameters = [.. contract.Parameters.Select(p => new Part(p.Type, p.Name))];

        public Part? Result { get; } = contract.ReturnType is null ? null : new Part(contract.ReturnType, contract.ResultElement);

        public object?[] ReadArguments(XmlDictionaryReader reader)
        {
            var arguments = new object?[_parameters.Length];
            if (reader.IsEmptyElement)
            {
                reader.Read();
                for (var i = 0; i < arguments.Length; i++)
                {
                    arguments[i] = _parameters[i].ReadMissing();
                }

                return arguments;
            }

            reader.ReadStartElement();
            reader.MoveToContent();
            for (var i = 0; i < arguments.Length; i++)
            {
                arguments[i] = _parameters[i].Read(reader);
                reader.MoveToContent();
            }

            return arguments;
        }
    }

    /// <summary>One parameter or result element (a top-level array other than <c>byte[]</c>: repeated elements) in the service namespace.</summary>
    private sealed class Part
    {
        private readonly Type _type;
        private readonly Type? _itemType;
        private readonly string _name;
        private readonly DataContractSerializer _serializer;

        public Part(Type type, string name)
        {
            _type = type;
            _name = name;
            _itemType = type.IsArray && type != typeof(byte[]) ? type.GetElementType() : null;
            _serializer = new DataContractSerializer(_itemType ?? type, name, ContractNamespaces.Service);
        }

        public object? Read(XmlDictionaryReader reader)
        {
            if (_itemType is null)
            {
                return reader.IsStartElement(_name, ContractNamespaces.Service)
                    ? _serializer.ReadObject(reader, verifyObjectName: true)
                    : throw new XmlException($"expected the element {_name}, found '{reader.LocalName}'");
            }

            var items = new ArrayList();
            while (reader.IsStartElement(_name, ContractNamespaces.Service))
            {
                items.Add(_serializer.ReadObject(reader, verifyObjectName: true));
                reader.MoveToContent();
            }

            return items.ToArray(_itemType);
        }

        /// <summary>An absent element: an empty array for repeated elements; otherwise the body does not parse.</summary>
        public Array ReadMissing() => _itemType is not null
            ? Array.CreateInstance(_itemType, 0)
            : throw new XmlException($"the element {_name} ({_type.Name}) is missing");

        public void Write(XmlDictionaryWriter writer, object? value)
        {
            if (_itemType is null)
            {
                _serializer.WriteObject(writer, value);
                return;
            }

            foreach (var item in (IEnumerable)value!)
            {
                _serializer.WriteObject(writer, item);
            }
        }
    }

    /// <summary>The reply's body: <c>&lt;{Operation}Response&gt;</c> with the result element (none for a void operation).</summary>
    private sealed class ReplyBody(Operation operation, object? result) : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement(operation.Contract.ResponseElement, ContractNamespaces.Service);
            operation.Result?.Write(writer, result);
            writer.WriteEndElement();
        }
    }
}
