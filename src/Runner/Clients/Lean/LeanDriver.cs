using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// The <c>lean</c> load generator (docs/driver-protocol.md, "The lean generator"): not a client technology under test but
/// a generator whose only job is to load the server at the least CPU per request, for server-capacity measurements. In the
/// runner's process on the <see cref="ClosedLoopEngine"/>: each cell's request is encoded once (<see cref="Http1Request"/>)
/// and every client writes it on its own raw connection (<see cref="Http1LeanClient"/>). It calls the HTTP/1.1 variants
/// of the catalogue's <c>lean</c> entry (cleartext, TLS, Unix sockets; aspnet codecs and SOAP without WS-Security);
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

    /// <summary>The catalogue's <c>lean</c> entry: the variants it calls, and why not the others.</summary>
    private static ClientTechnology Client { get; } = ClientTechnology.Get("lean");

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
