using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary>One host without a JVM (<c>--Jvm:Enabled=false</c>) for a test class, with its <c>/endpoints</c> read once
/// (tests that only read what the host serves, or call it, need no host of their own).</summary>
public sealed class JvmFreeHostFixture : IAsyncLifetime
{
    private HostEndpoint[] _endpoints = [];

    /// <summary>The host.</summary>
    public ServiceHostProcess Host { get; private set; } = null!;

    /// <summary>The listed endpoint of <paramref name="variant"/>.</summary>
    public HostEndpoint Endpoint(string variant) => _endpoints.Single(e => e.Name == variant);

    public async Task InitializeAsync()
    {
        Host = await ServiceHostProcess.StartAsync(jvm: false);
        _endpoints = await Host.GetEndpointsAsync();
    }

    public async Task DisposeAsync() => await Host.DisposeAsync();
}
