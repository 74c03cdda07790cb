using System.Net.Http.Headers;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>How the <c>dotnet</c> client calls one variant over HTTP: version, where each operation is posted, and its encoding.</summary>
public abstract class DotNetBinding
{
    /// <summary>1.1, or 2.0 with prior knowledge (no upgrade) for the h2c variants.</summary>
    public abstract Version HttpVersion { get; }

    /// <summary>The address <paramref name="operation"/> is posted to, from the endpoint's base address.</summary>
    public abstract Uri TargetOf(Uri endpoint, OperationContract operation);

    /// <summary>Writes the request body of a call.</summary>
    public abstract void WriteRequest(OperationContract operation, object?[] arguments, Stream body);

    /// <summary>Sets the content type and any protocol headers (SOAPAction) of a request.</summary>
    public abstract void Describe(HttpRequestMessage request, OperationContract operation);

    /// <summary>Reads a response body; returns the result (null for void operations).</summary>
    /// <exception cref="MessageFormatException">The body is not the operation's response.</exception>
    public abstract object? ReadResponse(OperationContract operation, Stream body);

    /// <summary>
    /// The binding of <paramref name="variant"/> from the catalogue's codec and HTTP version, or null when the dotnet client
    /// has none for its codec (gRPC goes through <see cref="GrpcLoadClient"/>; whether the client calls a variant at all
    /// is the catalogue's client list). Secure variants share their unsecure twin's binding: TLS, Basic and client
    /// certificates are the handler's and the request's business (<see cref="DotNetSecurity"/>), the peer variant's OS
    /// identity the kernel's.
    /// </summary>
    public static DotNetBinding? For(EndpointVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        var version = variant.Http == "2" ? System.Net.HttpVersion.Version20 : System.Net.HttpVersion.Version11;
        return variant.Codec switch
        {
            "binxml" => new AspNet(version, MessageCodecs.BinaryXml),
            "xml" => new AspNet(version, MessageCodecs.TextXml),
            "json" => new AspNet(version, MessageCodecs.Json),
            "soap11" => new Soap(SoapEnvelope.Soap11),
            "soap12-wsa" => new Soap(SoapEnvelope.Soap12Addressing),
            _ => null,
        };
    }

    /// <summary>True when <paramref name="endpoint"/>'s address is a Unix domain socket (<c>unix:/path</c>).</summary>
    public static bool IsUnixSocket(HostEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return endpoint.Address.StartsWith("unix:", StringComparison.Ordinal);
    }

    /// <summary>aspnet variants: <c>POST {base}/{Operation}</c> with the host's own message codec (docs/service-contract.md).</summary>
    private sealed class AspNet(Version version, IMessageCodec codec) : DotNetBinding
    {
        private readonly MediaTypeHeaderValue _contentType = new(codec.ContentType);

        public override Version HttpVersion => version;

        public override Uri TargetOf(Uri endpoint, OperationContract operation) => new(endpoint, operation.Name);

        public override void WriteRequest(OperationContract operation, object?[] arguments, Stream body) => codec.WriteRequest(operation, arguments, body);

        public override void Describe(HttpRequestMessage request, OperationContract operation) => request.Content!.Headers.ContentType = _contentType;

        public override object? ReadResponse(OperationContract operation, Stream body) => codec.ReadResponse(operation, body);
    }

    /// <summary>metro variants: SOAP envelopes posted to the endpoint's address, as an ASMX-era proxy wrote them.</summary>
    private sealed class Soap(SoapEnvelope envelope) : DotNetBinding
    {
        public override Version HttpVersion => System.Net.HttpVersion.Version11;

        public override Uri TargetOf(Uri endpoint, OperationContract operation) => endpoint;

        public override void WriteRequest(OperationContract operation, object?[] arguments, Stream body) => envelope.WriteRequest(operation, arguments, body);

        public override void Describe(HttpRequestMessage request, OperationContract operation) => envelope.Describe(request, operation);

        public override object? ReadResponse(OperationContract operation, Stream body) => envelope.ReadResponse(operation, body);
    }
}
