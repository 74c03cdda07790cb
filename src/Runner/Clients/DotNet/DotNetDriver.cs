using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// The <c>dotnet</c> client technology (DESIGN.md §7): .NET <see cref="HttpClient"/> over
/// <see cref="SocketsHttpHandler"/>, in the runner's process. Each client has its own handler and so its own
/// connection (see <see cref="HttpLoadClient"/>); bodies are encoded with the same codecs the host uses.
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
        var binding = DotNetBinding.For(endpoint.Name)
            ?? throw new LoadClientException($"the dotnet client cannot call {endpoint.Name} ({endpoint.Stack}) in this build");
        if (!OperationCatalogue.TryGet(payload.Operation, out var operation))
        {
            throw new LoadClientException($"payload {payload.Id} names an unknown operation {payload.Operation}");
        }

        return new Factory(endpoint, binding, operation, payload, timeout, DotNetSecurity.For(endpoint, security));
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
