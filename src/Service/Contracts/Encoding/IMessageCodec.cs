using Dashboard.Service.Contracts.Operations;

namespace Dashboard.Service.Contracts.Encoding;

/// <summary>
/// One message encoding of the aspnet stack (docs/service-contract.md): how an operation's parameters travel in a
/// request body and its result in a response body. Used by the host (server side) and the <c>dotnet</c> driver
/// (client side), so both speak exactly the same format. Instances are immutable and thread-safe.
/// </summary>
public interface IMessageCodec
{
    /// <summary>The body's media type, e.g. <c>application/msbin1</c>.</summary>
    string ContentType { get; }

    /// <summary>Writes the request body of <paramref name="operation"/> with <paramref name="arguments"/> (one per parameter, in order).</summary>
    void WriteRequest(OperationContract operation, object?[] arguments, Stream body);

    /// <summary>Reads a request body of <paramref name="operation"/>; returns one argument per parameter, in order. May close <paramref name="body"/>.</summary>
    /// <exception cref="MessageFormatException">The body is not a well-formed request of this operation.</exception>
    object?[] ReadRequest(OperationContract operation, Stream body);

    /// <summary>Writes the response body of <paramref name="operation"/> carrying <paramref name="result"/> (ignored for void operations).</summary>
    void WriteResponse(OperationContract operation, object? result, Stream body);

    /// <summary>Reads a response body of <paramref name="operation"/>; returns the result (null for void operations). May close <paramref name="body"/>.</summary>
    /// <exception cref="MessageFormatException">The body is not a well-formed response of this operation.</exception>
    object? ReadResponse(OperationContract operation, Stream body);
}

/// <summary>A message body does not parse as the operation's request or response; the message says why, in one line.</summary>
public sealed class MessageFormatException : Exception
{
    /// <summary>Creates the error with its one-line <paramref name="message"/>.</summary>
    public MessageFormatException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}

/// <summary>The codecs by encoding id, as variants use them.</summary>
public static class MessageCodecs
{
    /// <summary>DataContractSerializer over <c>XmlDictionaryWriter.CreateBinaryWriter</c> (WCF's [MC-NBFX], no dictionary).</summary>
    public static IMessageCodec BinaryXml { get; } = new XmlMessageCodec(binary: true);

    /// <summary>DataContractSerializer text XML (UTF-8).</summary>
    public static IMessageCodec TextXml { get; } = new XmlMessageCodec(binary: false);

    /// <summary>System.Text.Json, camelCase.</summary>
    public static IMessageCodec Json { get; } = new JsonMessageCodec();
}
