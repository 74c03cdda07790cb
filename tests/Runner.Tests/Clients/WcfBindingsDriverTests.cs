using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients;

/// <summary>
/// Every client that calls the wcfbindings stack's variants (catalogue pairs) against the built host without a JVM: the
/// <c>wcf</c> driver (NetTcpBinding None and Transport, BasicHttp(s)Binding, Basic, WSHttpBinding None, the binary-over-HTTP
/// CustomBinding, UserNameOverTransport on WSHttp over HTTPS), the <c>dotnet</c> ASMX-style client (BasicHttp and its SOAP 1.2 + WS-Addressing path on WSHttp),
/// the <c>java</c> client (JAX-WS from the Metro WSDL it carries) and the <c>node</c> client (npm soap, from the served
/// WSDL) on the BasicHttp variants and on WSHttp without security (SOAP 1.2 + WS-Addressing 1.0, every payload): every sample of a few payloads
/// succeeds with its reply checked, counts exact, at 1 and 3 clients; a wrong password (Basic, UsernameToken) is Authentication.
/// </summary>
public sealed class WcfBindingsDriverTests(WcfBindingsDriverTests.JvmFreeHost host) : IClassFixture<WcfBindingsDriverTests.JvmFreeHost>
{
    [Theory]
    [InlineData("wcf", "WcfNetTcp", "Int")]
    [InlineData("wcf", "WcfNetTcp", "String1000")]
    [InlineData("wcf", "WcfNetTcp", "UDTypeArray1000")]
    [InlineData("wcf", "WcfNetTcp", "Bytes256K")]
    [InlineData("wcf", "WcfNetTcpTls", "Int")]
    [InlineData("wcf", "WcfNetTcpTls", "UDTypeArray1000")]
    [InlineData("wcf", "WcfBasicHttp", "Int")]
    [InlineData("wcf", "WcfBasicHttp", "String1000")]
    [InlineData("wcf", "WcfBasicHttp", "UDTypeArray1000")]
    [InlineData("wcf", "WcfBasicHttpBasic", "Int")]
    [InlineData("wcf", "WcfBasicHttps", "UDTypeArray1000")]
    [InlineData("wcf", "WcfWsHttp", "Int")]
    [InlineData("wcf", "WcfWsHttp", "UDTypeArray1000")]
    [InlineData("wcf", "WcfBinaryHttp", "Int")]
    [InlineData("wcf", "WcfBinaryHttp", "UDTypeArray1000")]
    [InlineData("wcf", "WcfBinaryHttp", "Bytes256K")]
    [InlineData("wcf", "WcfWsHttpsUserName", "Int")]
    [InlineData("wcf", "WcfWsHttpsUserName", "UDTypeArray1000")]
    [InlineData("wcf", "WcfWsHttpsUserName", "Bytes256K")]
    [InlineData("dotnet", "WcfWsHttp", "Int")]
    [InlineData("dotnet", "WcfWsHttp", "String1000")]
    [InlineData("dotnet", "WcfWsHttp", "UDTypeArray1000")]
    [InlineData("dotnet", "WcfBasicHttp", "Int")]
    [InlineData("dotnet", "WcfBasicHttp", "String1000")]
    [InlineData("dotnet", "WcfBasicHttp", "UDTypeArray1000")]
    [InlineData("dotnet", "WcfBasicHttpBasic", "Int")]
    [InlineData("dotnet", "WcfBasicHttps", "UDTypeArray1000")]
    [InlineData("java", "WcfBasicHttp", "Int")]
    [InlineData("java", "WcfBasicHttp", "UDTypeArray1000")]
    [InlineData("java", "WcfBasicHttpBasic", "String1000")]
    [InlineData("java", "WcfBasicHttps", "Int")]
    [InlineData("node", "WcfBasicHttp", "Int")]
    [InlineData("node", "WcfBasicHttp", "UDTypeArray1000")]
    [InlineData("node", "WcfBasicHttpBasic", "Int")]
    [InlineData("node", "WcfBasicHttps", "String1000")]
    public async Task RunLevel_WcfBindingsVariant_EverySampleSucceeds(string client, string variant, string payloadId)
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == variant);
        PayloadCatalogue.TryGet(payloadId, out var payload);

        var security = HostSecurity.For(host.Host, endpoint);
        await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
        foreach (var clients in new[] { 1, 3 })
        {
            var result = await session.RunLevelAsync(new LevelPlan(clients, 1, 5, null), CancellationToken.None);

            Assert.Equal(clients * 6, result.Samples.Length);
            Assert.Equal(clients, result.Samples.Count(s => s.IsWarmup));
            Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
        }
    }

    [Theory]
    [InlineData("wcf")]
    [InlineData("dotnet")]
    [InlineData("node")]
    [InlineData("java")]
    public async Task RunLevel_WcfBasicHttpBasicWrongPassword_EverySampleIsAuthentication(string client)
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == "WcfBasicHttpBasic");
        var security = HostSecurity.For(host.Host, endpoint);
        security = security with { Credentials = security.Credentials! with { Password = "not-the-password" } };
        PayloadCatalogue.TryGet("Int", out var payload);

        await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
        var result = await session.RunLevelAsync(new LevelPlan(2, 1, 3, null), CancellationToken.None);

        Assert.Equal(8, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Authentication, s.Outcome));
    }

    [Theory]
    [InlineData("java")]
    [InlineData("node")]
    [InlineData("dotnet")]
    public async Task RunLevel_WcfWsHttpEveryPayload_EverySampleSucceeds(string client)
    {
        // SOAP 1.2 + WS-Addressing 1.0 from the served WSDL (java: JAX-WS with AddressingFeature; node: npm soap with the
        // wsa:Action, wsa:MessageID, wsa:To and anonymous wsa:ReplyTo headers): the dispatcher answers on wsa:Action, so a
        // missing or wrong action would be a fault, and each reply is checked against the payload's expected value.
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == "WcfWsHttp");
        Assert.NotNull(endpoint.Wsdl);
        var security = HostSecurity.For(host.Host, endpoint);
        var failed = new List<string>();
        var calls = 0;
        foreach (var payload in PayloadCatalogue.All)
        {
            await using var session = await Driver(client).OpenCellAsync(endpoint, payload, security, CancellationToken.None);
            var result = await session.RunLevelAsync(new LevelPlan(2, 1, 2, null), CancellationToken.None);
            calls += result.Samples.Length;
            if (result.Samples.Length != 6 || result.Samples.Any(s => s.Outcome != SampleOutcome.Success))
            {
                failed.Add($"{payload.Id}: {string.Join(", ", result.Samples.Select(s => s.Outcome).Distinct())}");
            }
        }

        Assert.Empty(failed);
        Assert.Equal(PayloadCatalogue.All.Count * 6, calls);
    }

    [Fact]
    public async Task RunLevel_WcfWsHttpsUserNameEveryPayload_EverySampleSucceeds()
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == "WcfWsHttpsUserName");
        var security = HostSecurity.For(host.Host, endpoint);
        var failed = new List<string>();
        foreach (var payload in PayloadCatalogue.All)
        {
            await using var session = await Driver("wcf").OpenCellAsync(endpoint, payload, security, CancellationToken.None);
            var result = await session.RunLevelAsync(new LevelPlan(1, 1, 1, null), CancellationToken.None);
            if (result.Samples.Length != 2 || result.Samples.Any(s => s.Outcome != SampleOutcome.Success))
            {
                failed.Add(payload.Id);
            }
        }

        Assert.Empty(failed);
    }

    [Fact]
    public async Task RunLevel_WcfWsHttpsUserNameWrongPassword_EverySampleIsAuthentication()
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == "WcfWsHttpsUserName");
        var security = HostSecurity.For(host.Host, endpoint);
        Assert.NotNull(security.Credentials?.UserName);
        security = security with { Credentials = security.Credentials! with { Password = "not-the-password" } };
        PayloadCatalogue.TryGet("Int", out var payload);

        await using var session = await Driver("wcf").OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
        var result = await session.RunLevelAsync(new LevelPlan(2, 1, 3, null), CancellationToken.None);

        Assert.Equal(8, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Authentication, s.Outcome));
    }

    private static IClientDriver Driver(string client) => client switch
    {
        "node" => new ExternalProcessDriver(DriverCommand.Node(RepositoryPaths.NodeDriver), TimeSpan.FromSeconds(10)),
        "java" => new ExternalProcessDriver(DriverCommand.Java(RepositoryPaths.JavaDriver), TimeSpan.FromSeconds(10)),
        "wcf" => new WcfDriver(TimeSpan.FromSeconds(10)),
        _ => new DotNetDriver(TimeSpan.FromSeconds(10)),
    };

    /// <summary>One host without a JVM for the class.</summary>
    public sealed class JvmFreeHost : IAsyncLifetime
    {
        /// <summary>The host.</summary>
        public ServiceHostProcess Host { get; private set; } = null!;

        public async Task InitializeAsync() => Host = await ServiceHostProcess.StartAsync(jvm: false);

        public async Task DisposeAsync() => await Host.DisposeAsync();
    }
}
