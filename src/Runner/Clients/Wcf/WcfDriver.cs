using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.Wcf;

/// <summary>
/// The <c>wcf</c> client technology (docs/driver-protocol.md, "The wcf client"): the WCF client of .NET
/// (System.ServiceModel.Http/Primitives 10.1) calling the Metro SOAP variants through <see cref="IBenchmarkSoap"/>, in the
/// runner's process on the <see cref="ClosedLoopEngine"/>, one <see cref="WcfLoadClient"/> (factory, channel, connection)
/// per client. Bindings and refusals: <see cref="WcfBinding"/>.
/// </summary>
/// <param name="timeout">Per-request timeout; a request that takes longer counts as a timeout error.</param>
public sealed class WcfDriver(TimeSpan timeout) : InProcessClientDriver
{
    /// <summary>Creates the driver with the default timeout (30 s).</summary>
    public WcfDriver()
        : this(DotNetDriver.DefaultTimeout)
    {
    }

    /// <inheritdoc />
    public override string ClientId => "wcf";

    /// <inheritdoc />
    public override ILoadClientFactory CreateFactory(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(payload);
        if (!WcfBinding.Callable.Contains(endpoint.Name))
        {
            var reason = WcfBinding.Refusals.GetValueOrDefault(endpoint.Name) ?? $"it calls only the Metro SOAP and wcfbindings variants {string.Join(", ", WcfBinding.Callable.Order(StringComparer.Ordinal))}";
            throw new LoadClientException($"the wcf client cannot call {endpoint.Name}: {reason}");
        }

        if (!WcfOperations.Has(payload.Operation))
        {
            throw new LoadClientException($"payload {payload.Id} names an unknown operation {payload.Operation}");
        }

        // The CA for TLS and, for client credential Certificate, the client certificate (Basic and UserName travel
        // through WCF's own credentials, not DotNetSecurity's header).
        var tlsOnly = endpoint.CredentialType == "Certificate" ? endpoint : endpoint with { CredentialType = "None" };
        return new Factory(endpoint, payload, timeout, DotNetSecurity.For(tlsOnly, security), security?.Credentials);
    }

    private sealed class Factory(HostEndpoint endpoint, PayloadCase payload, TimeSpan timeout, DotNetSecurity security, DriverCredentials? credentials) : ILoadClientFactory
    {
        public ILoadClient CreateClient(int clientIndex) => new WcfLoadClient(endpoint, payload, timeout, security, credentials);

        public ValueTask DisposeAsync()
        {
            security.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
