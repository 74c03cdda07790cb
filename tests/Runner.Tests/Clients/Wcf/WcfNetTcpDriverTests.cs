using Dashboard.Runner.Clients.Wcf;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.Wcf;

/// <summary>
/// The <c>wcf</c> driver (NetTcpBinding, security None and Transport with the host's CA) against the wcfbindings stack's
/// <c>WcfNetTcp</c> and <c>WcfNetTcpTls</c> of the built host
/// without a JVM: every sample of a few payloads succeeds with its reply checked, counts exact, at 1 and 3 clients.
/// </summary>
public sealed class WcfNetTcpDriverTests(WcfNetTcpDriverTests.JvmFreeHost host) : IClassFixture<WcfNetTcpDriverTests.JvmFreeHost>
{
    [Theory]
    [InlineData("WcfNetTcp", "Int")]
    [InlineData("WcfNetTcp", "String1000")]
    [InlineData("WcfNetTcp", "UDTypeArray1000")]
    [InlineData("WcfNetTcp", "Bytes256K")]
    [InlineData("WcfNetTcpTls", "Int")]
    [InlineData("WcfNetTcpTls", "UDTypeArray1000")]
    public async Task RunLevel_NetTcpVariant_EverySampleSucceeds(string variant, string payloadId)
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == variant);
        PayloadCatalogue.TryGet(payloadId, out var payload);

        var security = HostSecurity.For(host.Host, endpoint);
        await using var session = await new WcfDriver(TimeSpan.FromSeconds(10)).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
        foreach (var clients in new[] { 1, 3 })
        {
            var result = await session.RunLevelAsync(new LevelPlan(clients, 1, 5, null), CancellationToken.None);

            Assert.Equal(clients * 6, result.Samples.Length);
            Assert.Equal(clients, result.Samples.Count(s => s.IsWarmup));
            Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
        }
    }

    /// <summary>One host without a JVM for the class.</summary>
    public sealed class JvmFreeHost : IAsyncLifetime
    {
        /// <summary>The host.</summary>
        public ServiceHostProcess Host { get; private set; } = null!;

        public async Task InitializeAsync() => Host = await ServiceHostProcess.StartAsync(jvm: false);

        public async Task DisposeAsync() => await Host.DisposeAsync();
    }
}
