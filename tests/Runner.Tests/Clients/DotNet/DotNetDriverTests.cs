using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.DotNet;

/// <summary>The dotnet driver against the real service host: every payload on every aspnet variant, and each error kind.</summary>
public sealed class DotNetDriverTests(DotNetDriverTests.HostFixture fixture) : IClassFixture<DotNetDriverTests.HostFixture>
{
    [Theory]
    [InlineData("AspNetUdsBinXml")]
    [InlineData("AspNetH2BinXml")]
    [InlineData("AspNetHttpXml")]
    [InlineData("AspNetHttpJson")]
    [InlineData("AspNetHttpsJson")]
    [InlineData("AspNetHttpsJsonBasic")]
    [InlineData("AspNetH2TlsBinXmlCert")]
    [InlineData("AspNetUdsBinXmlPeer")]
    public async Task Call_EveryPayloadOnTheVariant_ReplyIsRightAndBytesAreCounted(string variant)
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == variant);
        var security = HostSecurity.For(fixture.Host, endpoint);
        var driver = new DotNetDriver();
        var failures = new List<string>();
        foreach (var payload in PayloadCatalogue.All)
        {
            await using var factory = driver.CreateFactory(endpoint, payload, security);
            var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 1, 2, null), CancellationToken.None);
            Assert.Equal(2 * 3, result.Samples.Length);
            foreach (var sample in result.Samples.Where(s => !s.IsSuccess || s.RequestBytes <= 0 || s.ResponseBytes <= 0))
            {
                failures.Add($"{payload.Id}: {sample.Outcome}, {sample.RequestBytes} B / {sample.ResponseBytes} B");
            }
        }

        Assert.Empty(failures);
    }

    [Fact]
    public async Task Call_HttpsVersusHttp_TlsRecordsAreCountedAsWireBytes()
    {
        PayloadCatalogue.TryGet("String500", out var payload);
        var plain = fixture.Endpoints.Single(e => e.Name == "AspNetHttpJson");
        var tls = fixture.Endpoints.Single(e => e.Name == "AspNetHttpsJson");
        await using var plainFactory = new DotNetDriver().CreateFactory(plain, payload!);
        await using var tlsFactory = new DotNetDriver().CreateFactory(tls, payload!, HostSecurity.For(fixture.Host, tls));

        var plainResult = await ClosedLoopEngine.RunLevelAsync(plainFactory, new LevelPlan(1, 1, 5, null), CancellationToken.None);
        var tlsResult = await ClosedLoopEngine.RunLevelAsync(tlsFactory, new LevelPlan(1, 1, 5, null), CancellationToken.None);

        // A TLS 1.3 record adds 22 bytes (5 header, 1 content type, 16 tag) to each write.
        Assert.All(tlsResult.Samples, s => Assert.True(s.IsSuccess));
        Assert.InRange(tlsResult.Statistics.MeanRequestBytes!.Value - plainResult.Statistics.MeanRequestBytes!.Value, 20, 200);
        Assert.InRange(tlsResult.Statistics.MeanResponseBytes!.Value - plainResult.Statistics.MeanResponseBytes!.Value, 20, 200);
    }

    [Fact]
    public void CreateFactory_HttpsWithoutCaCertificate_IsRefusedNamingTheSecurityFolder()
    {
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetHttpsJson");

        var error = Assert.Throws<LoadClientException>(() => new DotNetDriver().CreateFactory(endpoint, payload!));

        Assert.Contains("no CA certificate", error.Message, StringComparison.Ordinal);
        Assert.Contains("--security-dir", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Call_Bytes256K_ResponseBytesCoverThePayload()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetH2BinXml");
        PayloadCatalogue.TryGet("Bytes256K", out var payload);
        await using var factory = new DotNetDriver().CreateFactory(endpoint, payload!);

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(1, 0, 3, null), CancellationToken.None);

        Assert.All(result.Samples, s => Assert.InRange(s.ResponseBytes, 256 * 1024, (256 * 1024) + 4096));
    }

    [Fact]
    public async Task Call_ServerEchoesSomethingElse_CountsWrongReply()
    {
        await using var server = new JsonHttpServer("5");
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("AspNetHttpJson", "aspnet", $"http://127.0.0.1:{server.Port}/", "HTTP/1.1", "JSON", "None", "None");
        await using var factory = new DotNetDriver().CreateFactory(endpoint, payload!);

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(1, 0, 4, null), CancellationToken.None);

        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.WrongReply, s.Outcome));
        Assert.Equal(4, result.Statistics.ErrorsByKind[SampleOutcome.WrongReply]);
    }

    [Fact]
    public async Task Call_ServerAnswersGarbage_CountsFault()
    {
        await using var server = new JsonHttpServer("<html>not json</html>");
        PayloadCatalogue.TryGet("UDType", out var payload);
        var endpoint = new HostEndpoint("AspNetHttpJson", "aspnet", $"http://127.0.0.1:{server.Port}/", "HTTP/1.1", "JSON", "None", "None");
        await using var factory = new DotNetDriver().CreateFactory(endpoint, payload!);

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(1, 0, 3, null), CancellationToken.None);

        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Fault, s.Outcome));
    }

    [Fact]
    public async Task Open_EndpointRefusesConnections_FailsWithTheAddressAndReason()
    {
        var port = JsonHttpServer.FreePort();
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("AspNetHttpJson", "aspnet", $"http://127.0.0.1:{port}/", "HTTP/1.1", "JSON", "None", "None");
        await using var factory = new DotNetDriver().CreateFactory(endpoint, payload!);

        var error = await Assert.ThrowsAsync<LoadClientException>(() => ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 0, 1, null), CancellationToken.None));

        Assert.Contains($"cannot connect to AspNetHttpJson at http://127.0.0.1:{port}/", error.Message, StringComparison.Ordinal);
        Assert.Contains("refused", error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void CreateFactory_MetroVariant_IsRefusedWithTheReason()
    {
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("IceTcp", "ice", "benchmark:tcp -h localhost -p 5110", "Ice over TCP", "Ice", "None", "None");

        var error = Assert.Throws<LoadClientException>(() => new DotNetDriver().CreateFactory(endpoint, payload!));

        Assert.Contains("cannot call IceTcp", error.Message, StringComparison.Ordinal);
    }

    /// <summary>One real host for the class.</summary>
    public sealed class HostFixture : IAsyncLifetime
    {
        private ServiceHostProcess? _host;

        public HostEndpoint[] Endpoints { get; private set; } = [];

        public ServiceHostProcess Host => _host!;

        public async Task InitializeAsync()
        {
            _host = await ServiceHostProcess.StartAsync();
            Endpoints = await _host.GetEndpointsAsync();
        }

        public async Task DisposeAsync() => await _host!.DisposeAsync();
    }
}
