using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// The <c>dotnet</c> client technology (README.md, "Client technologies"): .NET <see cref="HttpClient"/> over
/// <see cref="SocketsHttpHandler"/>, in the runner's process. Each client has its own handler and so its own
/// connection (see <see cref="HttpLoadClient"/>); bodies are encoded with the same codecs the host uses. The gRPC
/// variants are called with Grpc.Net.Client, one channel per client (<see cref="GrpcLoadClient"/>).
/// </summary>
/// <param name="timeout">Per-request timeout; a request that takes longer counts as a timeout error.</param>
public sealed class DotNetDriver(TimeSpan timeout) : InProcessClientDriver
{
    /// <summary>The default per-request timeout (30 s).</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(30);

    /// <summary>Creates the driver with the default timeout.</summary>
    public DotNetDriver()
        : this(DefaultTimeout)
    {
    }

    /// <inheritdoc />
    public override string ClientId => "dotnet";

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
            throw new LoadClientException($"the dotnet client cannot call {endpoint.Name} ({endpoint.Stack}) in this build");
        }

        if (IsGrpc(endpoint.Name))
        {
            return new GrpcFactory(endpoint, operation, payload, timeout, DotNetSecurity.For(endpoint, security));
        }

        var binding = DotNetBinding.For(variant)
            ?? throw new LoadClientException($"the dotnet client has no binding for {endpoint.Name} (codec {variant.Codec})");
        return new Factory(endpoint, binding, operation, payload, timeout, DotNetSecurity.For(endpoint, security));
    }

    /// <summary>True for the gRPC variants, which the dotnet client calls with Grpc.Net.Client (<see cref="GrpcLoadClient"/>).</summary>
    public static bool IsGrpc(string variant) => VariantCatalogue.TryGet(variant, out var v) && v.Codec == "protobuf";

    /// <summary>The catalogue's <c>dotnet</c> client: the variants it calls.</summary>
    private static ClientTechnology Client { get; } = ClientTechnology.Get("dotnet");

    private sealed class GrpcFactory(HostEndpoint endpoint, OperationContract operation, PayloadCase payload, TimeSpan timeout, DotNetSecurity security) : ILoadClientFactory
    {
        public ILoadClient CreateClient(int clientIndex) => new GrpcLoadClient(endpoint, operation, payload, timeout, security);

        public ValueTask DisposeAsync()
        {
            security.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    private sealed class Factory(HostEndpoint endpoint, DotNetBinding binding, OperationContract operation, PayloadCase payload, TimeSpan timeout, DotNetSecurity security) : ILoadClientFactory
    {
        public ILoadClient CreateClient(int clientIndex) => new HttpLoadClient(endpoint, binding, operation, payload, timeout, security);

        public ValueTask DisposeAsync()
        {
            security.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
