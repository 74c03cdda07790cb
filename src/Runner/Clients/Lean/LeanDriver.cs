using System.Buffers.Binary;
using System.Globalization;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Grpc;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Google.Protobuf;

namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// The <c>lean</c> load generator (docs/driver-protocol.md, "The lean generator"): not a client technology under test but
/// a generator whose only job is to load the server at the least CPU per request, for server-capacity measurements. In the
/// runner's process on the <see cref="ClosedLoopEngine"/>: each cell's request is encoded once (<see cref="Http1Request"/>)
/// and every client writes it on its own raw connection (<see cref="Http1LeanClient"/>). It calls the HTTP/1.1 variants
/// of the catalogue's <c>lean</c> entry (cleartext, TLS, Unix sockets; aspnet codecs and SOAP without WS-Security) and
/// the HTTP/2 ones (binary XML and gRPC, h2c and TLS: <see cref="Http2Request"/>, <see cref="Http2LeanClient"/>);
/// the others are refused with the catalogue's reason.
/// </summary>
/// <param name="timeout">Per-request timeout; a request that takes longer counts as a timeout error.</param>
public sealed class LeanDriver(TimeSpan timeout) : InProcessClientDriver
{
    /// <summary>Creates the generator with the default timeout (30 s).</summary>
    public LeanDriver()
        : this(DotNetDriver.DefaultTimeout)
    {
    }

    /// <inheritdoc />
    public override string ClientId => "lean";

    /// <inheritdoc />
    public override ILoadClientFactory CreateFactory(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(payload);
        if (!OperationCatalogue.TryGet(payload.Operation, out var operation))
        {
            throw new LoadClientException($"payload {payload.Id} names an unknown operation {payload.Operation}");
        }

        if (!Client.Callable.Contains(endpoint.Name) || !VariantCatalogue.TryGet(endpoint.Name, out var variant))
        {
            throw new LoadClientException($"the lean generator cannot call {endpoint.Name} ({endpoint.Stack}): {Client.RefusalOf(endpoint.Name) ?? "not one of its variants in this build"}");
        }

        if (variant.Http == "2")
        {
            return CreateHttp2Factory(endpoint, variant, operation, payload, security);
        }

        var binding = variant.Http == "1.1" ? DotNetBinding.For(variant) : null;
        if (binding is null)
        {
            throw new LoadClientException($"the lean generator cannot call {endpoint.Name}: no HTTP/1.1 encoding for codec {variant.Codec}");
        }

        var dotNetSecurity = DotNetSecurity.For(endpoint, security);
        try
        {
            var baseUri = DotNetBinding.IsUnixSocket(endpoint) ? new Uri("http://localhost/") : new Uri(endpoint.Address);
            var request = Http1Request.Encode(binding, operation, payload.CreateArguments(), binding.TargetOf(baseUri, operation), dotNetSecurity);
            return new Factory(endpoint, binding, operation, payload, request, timeout, dotNetSecurity);
        }
        catch
        {
            dotNetSecurity.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The HTTP/2 request of a cell and its body check: the aspnet codec's body posted as the <c>dotnet</c> client posts
    /// it (<c>content-type</c>, <c>content-length</c>), or a gRPC call (<c>/dashboard.benchmark.Benchmark/{Operation}</c>,
    /// <c>content-type: application/grpc</c>, <c>te: trailers</c>, the message after its 5-byte prefix).
    /// </summary>
    private Http2Factory CreateHttp2Factory(HostEndpoint endpoint, EndpointVariant variant, OperationContract operation, PayloadCase payload, ClientSecurity? security)
    {
        var arguments = payload.CreateArguments();
        var target = new Uri(endpoint.Address);
        var dotNetSecurity = DotNetSecurity.For(endpoint, security);
        try
        {
            List<(string, string)> headers = [];
            Http2Request request;
            Http2BodyCheck check;
            if (variant.Codec == "protobuf")
            {
                var method = Benchmark.Descriptor.FindMethodByName(operation.Name) ?? throw new LoadClientException($"operation {operation.Name} has no gRPC method");
                var message = GrpcMessages.Request(operation, arguments).ToByteArray();
                var body = new byte[5 + message.Length];
                BinaryPrimitives.WriteInt32BigEndian(body.AsSpan(1), message.Length);
                message.CopyTo(body, 5);
                headers.Add(("content-type", "application/grpc"));
                headers.Add(("te", "trailers"));
                request = Http2Request.Encode(new Uri(target, $"/{Benchmark.Descriptor.FullName}/{method.Name}"), headers, body);
                var parser = method.OutputType.Parser;
                check = reply =>
                {
                    if (reply.Length < 5 || reply[0] != 0 || BinaryPrimitives.ReadInt32BigEndian(reply[1..]) != reply.Length - 5)
                    {
                        return SampleOutcome.Fault;
                    }

                    object? result;
                    try
                    {
                        result = GrpcMessages.Result(operation, parser.ParseFrom(reply[5..]));
                    }
                    catch (Exception e) when (e is InvalidProtocolBufferException or FormatException or InvalidCastException)
                    {
                        return SampleOutcome.Fault;
                    }

                    return payload.IsExpectedReply(arguments, result) ? SampleOutcome.Success : SampleOutcome.WrongReply;
                };
            }
            else
            {
                var binding = DotNetBinding.For(variant) ?? throw new LoadClientException($"the lean generator cannot call {endpoint.Name}: no HTTP/2 encoding for codec {variant.Codec}");
                using var content = new MemoryStream();
                binding.WriteRequest(operation, arguments, content);
                using var described = new HttpRequestMessage(HttpMethod.Post, target) { Content = new ByteArrayContent([]) };
                binding.Describe(described, operation);
                headers.Add(("content-type", described.Content.Headers.ContentType!.ToString()));
                if (dotNetSecurity.Authorization is { } authorization)
                {
                    headers.Add(("authorization", authorization.ToString()));
                }

                headers.Add(("content-length", content.Length.ToString(CultureInfo.InvariantCulture)));
                request = Http2Request.Encode(binding.TargetOf(target, operation), headers, content.ToArray());
                check = reply =>
                {
                    object? result;
                    try
                    {
                        using var stream = new MemoryStream(reply.ToArray(), writable: false);
                        result = binding.ReadResponse(operation, stream);
                    }
                    catch (MessageFormatException)
                    {
                        return SampleOutcome.Fault;
                    }

                    return payload.IsExpectedReply(arguments, result) ? SampleOutcome.Success : SampleOutcome.WrongReply;
                };
            }

            return new Http2Factory(endpoint, request, check, variant.Codec == "protobuf", timeout, dotNetSecurity);
        }
        catch
        {
            dotNetSecurity.Dispose();
            throw;
        }
    }

    /// <summary>The catalogue's <c>lean</c> entry: the variants it calls, and why not the others.</summary>
    private static ClientTechnology Client { get; } = ClientTechnology.Get("lean");

    private sealed class Http2Factory(HostEndpoint endpoint, Http2Request request, Http2BodyCheck check, bool grpc, TimeSpan timeout, DotNetSecurity security) : ILoadClientFactory
    {
        public ILoadClient CreateClient(int clientIndex) => new Http2LeanClient(endpoint, request, check, grpc, timeout, security);

        public ValueTask DisposeAsync()
        {
            security.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    private sealed class Factory(HostEndpoint endpoint, DotNetBinding binding, OperationContract operation, PayloadCase payload, byte[] request, TimeSpan timeout, DotNetSecurity security) : ILoadClientFactory
    {
        public ILoadClient CreateClient(int clientIndex) => new Http1LeanClient(endpoint, binding, operation, payload, request, timeout, security);

        public ValueTask DisposeAsync()
        {
            security.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
