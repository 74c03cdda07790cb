using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Clients.Lean;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Clients.DotNet;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Tests.Clients.Lean;

/// <summary>
/// The <c>lean</c> generator against the real service host (one per class), beside the <c>dotnet</c> client on the same
/// cell: the same number of samples, every one a checked success, and the same wire bytes per request; and its refusals.
/// </summary>
public sealed class LeanDriverTests(DotNetDriverTests.HostFixture fixture) : IClassFixture<DotNetDriverTests.HostFixture>
{
    [Theory]
    [InlineData("AspNetHttpJson", "Int")]
    [InlineData("AspNetHttpJson", "UDTypeArray1000")]
    [InlineData("AspNetHttpXml", "String500")]
    [InlineData("AspNetUdsBinXml", "Bytes256K")]
    [InlineData("AspNetHttpsJson", "Int")]
    [InlineData("AspNetHttpsJsonBasic", "String500")]
    [InlineData("WcfBasicHttp", "UDType")]
    [InlineData("WcfBasicHttps", "Int")]
    public async Task RunLevel_SameCellAsDotNet_SameSamplesAndWireBytesPerRequest(string variant, string payloadId)
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == variant);
        var security = HostSecurity.For(fixture.Host, endpoint);
        PayloadCatalogue.TryGet(payloadId, out var payload);
        var plan = new LevelPlan(2, 1, 4, null);

        await using var leanFactory = new LeanDriver().CreateFactory(endpoint, payload!, security);
        await using var dotnetFactory = new DotNetDriver().CreateFactory(endpoint, payload!, security);
        var lean = await ClosedLoopEngine.RunLevelAsync(leanFactory, plan, CancellationToken.None);
        var dotnet = await ClosedLoopEngine.RunLevelAsync(dotnetFactory, plan, CancellationToken.None);

        Assert.Equal(dotnet.Samples.Length, lean.Samples.Length);
        Assert.Equal(2 * 5, lean.Samples.Length);
        Assert.All(lean.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
        var measured = lean.Samples.Where(s => !s.IsWarmup).ToArray();
        Assert.Equal(dotnet.Samples.Where(s => !s.IsWarmup).Select(s => s.RequestBytes).Distinct(), measured.Select(s => s.RequestBytes).Distinct());
        Assert.Equal(dotnet.Samples.Where(s => !s.IsWarmup).Select(s => s.ResponseBytes).Distinct(), measured.Select(s => s.ResponseBytes).Distinct());
        Assert.All(measured, s => Assert.True(s.RequestBytes > 0 && s.ResponseBytes > 0, $"{s.RequestBytes} B / {s.ResponseBytes} B"));
    }

    [Fact]
    public async Task RunLevel_ServerEchoesSomethingElse_CountsWrongReply()
    {
        await using var server = new JsonHttpServer("5");
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("AspNetHttpJson", "aspnet", $"http://127.0.0.1:{server.Port}/", "HTTP/1.1", "JSON", "None", "None");
        await using var factory = new LeanDriver().CreateFactory(endpoint, payload!);

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(1, 0, 4, null), CancellationToken.None);

        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.WrongReply, s.Outcome));
    }

    [Fact]
    public async Task RunLevel_EndpointRefusesConnections_FailsWithTheAddressAndReason()
    {
        var port = JsonHttpServer.FreePort();
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("AspNetHttpJson", "aspnet", $"http://127.0.0.1:{port}/", "HTTP/1.1", "JSON", "None", "None");
        await using var factory = new LeanDriver().CreateFactory(endpoint, payload!);

        var error = await Assert.ThrowsAsync<LoadClientException>(() => ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 0, 1, null), CancellationToken.None));

        Assert.Contains($"cannot connect to AspNetHttpJson at http://127.0.0.1:{port}/", error.Message, StringComparison.Ordinal);
        Assert.Contains("refused", error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData("AspNetH2BinXml", "Int")]
    [InlineData("AspNetH2BinXml", "Bytes256K")]
    [InlineData("AspNetGrpc", "Int")]
    [InlineData("AspNetGrpc", "UDTypeArray1000")]
    [InlineData("AspNetH2TlsBinXmlCert", "String500")]
    [InlineData("AspNetGrpcTls", "Int")]
    public async Task RunLevel_Http2CellAsDotNet_SameSamplesAndResponseBytesPerRequest(string variant, string payloadId)
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == variant);
        var security = HostSecurity.For(fixture.Host, endpoint);
        PayloadCatalogue.TryGet(payloadId, out var payload);
        var plan = new LevelPlan(2, 1, 4, null);

        await using var leanFactory = new LeanDriver().CreateFactory(endpoint, payload!, security);
        await using var dotnetFactory = new DotNetDriver().CreateFactory(endpoint, payload!, security);
        var lean = await ClosedLoopEngine.RunLevelAsync(leanFactory, plan, CancellationToken.None);
        var dotnet = await ClosedLoopEngine.RunLevelAsync(dotnetFactory, plan, CancellationToken.None);

        Assert.Equal(dotnet.Samples.Length, lean.Samples.Length);
        Assert.Equal(2 * 5, lean.Samples.Length);
        Assert.All(lean.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
        // The dotnet client (SocketsHttpHandler) also sends a PING on some calls (small replies here) to estimate the round
        // trip for its dynamic window sizing; the server's PING ACK (a 17-byte frame, in a TLS 1.3 record of its own: 22
        // bytes more) is then in its response bytes and not in the lean generator's, which sends no PING.
        var pingAck = endpoint.Address.StartsWith("https:", StringComparison.Ordinal) ? 17 + 22 : 17;
        var dotnetBytes = MostCommon(dotnet.Samples.Where(s => !s.IsWarmup).Select(s => s.ResponseBytes));
        Assert.Contains(MostCommon(lean.Samples.Where(s => !s.IsWarmup).Select(s => s.ResponseBytes)), new[] { dotnetBytes, dotnetBytes - pingAck });
        Assert.All(lean.Samples, s => Assert.True(s.RequestBytes > 0 && s.ResponseBytes > 0, $"{s.RequestBytes} B / {s.ResponseBytes} B"));
    }

    public static TheoryData<string, string> Http2Cells()
    {
        var cells = new TheoryData<string, string>();
        foreach (var variant in new[] { "AspNetH2BinXml", "AspNetGrpc" })
        {
            foreach (var payload in PayloadCatalogue.Ids)
            {
                cells.Add(variant, payload);
            }
        }

        return cells;
    }

    [Theory]
    [MemberData(nameof(Http2Cells))]
    public async Task RunLevel_EveryPayloadOnHttp2_AllChecked(string variant, string payloadId)
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == variant);
        PayloadCatalogue.TryGet(payloadId, out var payload);
        await using var factory = new LeanDriver().CreateFactory(endpoint, payload!, HostSecurity.For(fixture.Host, endpoint));

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 0, 3, null), CancellationToken.None);

        Assert.Equal(6, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
    }

    [Fact]
    public async Task RunLevel_GrpcMethodFails_CountsFaultAsDotNetDoes()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetGrpc");
        PayloadCatalogue.TryGet("Bytes128", out var bytes);
        var invalid = bytes! with { CreateArguments = () => [-1] }; // a negative size: the service answers InvalidArgument
        var plan = new LevelPlan(1, 0, 3, null);

        await using var leanFactory = new LeanDriver().CreateFactory(endpoint, invalid);
        await using var dotnetFactory = new DotNetDriver().CreateFactory(endpoint, invalid);
        var lean = await ClosedLoopEngine.RunLevelAsync(leanFactory, plan, CancellationToken.None);
        var dotnet = await ClosedLoopEngine.RunLevelAsync(dotnetFactory, plan, CancellationToken.None);

        Assert.All(dotnet.Samples, s => Assert.Equal(SampleOutcome.Fault, s.Outcome));
        Assert.Equal(3, lean.Samples.Length);
        Assert.All(lean.Samples, s => Assert.Equal(SampleOutcome.Fault, s.Outcome));
    }

    [Fact]
    public async Task RunLevel_ServerResetsStreams_CountsFault()
    {
        await using var server = new FakeGrpcServer(FakeGrpcServer.Misbehaviour.ResetStream);
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("AspNetGrpc", "aspnet", $"http://127.0.0.1:{server.Port}/", "HTTP/2", "Protobuf (gRPC)", "None", "None");
        await using var factory = new LeanDriver().CreateFactory(endpoint, payload!);

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(1, 0, 4, null), CancellationToken.None);

        Assert.Equal(4, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Fault, s.Outcome));
    }

    [Fact]
    public async Task RunLevel_ServerSendsGoAwayLeavingTheStreamOut_CountsConnectionAndReconnects()
    {
        await using var server = new FakeGrpcServer(FakeGrpcServer.Misbehaviour.GoAway);
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint("AspNetGrpc", "aspnet", $"http://127.0.0.1:{server.Port}/", "HTTP/2", "Protobuf (gRPC)", "None", "None");
        await using var factory = new LeanDriver().CreateFactory(endpoint, payload!);

        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(1, 0, 4, null), CancellationToken.None);

        // Stream 3 of the first connection is refused; the next call reconnects and stream 1 succeeds, and so on.
        Assert.Equal([SampleOutcome.Connection, SampleOutcome.Success, SampleOutcome.Connection, SampleOutcome.Success], result.Samples.Select(s => s.Outcome));
    }

    [Theory]
    [InlineData("WcfNetTcp", "MC-NMF")]
    [InlineData("IceTcp", "Ice protocol")]
    public void CreateFactory_VariantItCannotCall_IsRefusedNamingTheVariantAndWhy(string variant, string why)
    {
        var endpoint = new HostEndpoint(variant, "other", "tcp://127.0.0.1:5999", "TCP", "binary", "None", "None");
        PayloadCatalogue.TryGet("Int", out var payload);

        var error = Assert.Throws<LoadClientException>(() => new LeanDriver().CreateFactory(endpoint, payload!));

        Assert.Contains($"the lean generator cannot call {variant}", error.Message, StringComparison.Ordinal);
        Assert.Contains(why, error.Message, StringComparison.Ordinal);
    }

    private static int MostCommon(IEnumerable<int> values) => values.GroupBy(v => v).OrderByDescending(g => g.Count()).ThenBy(g => g.Key).First().Key;

    [Fact]
    public void CreateFactory_WsSecurityVariant_IsRefusedBecauseItCannotBeEncodedOnce()
    {
        var endpoint = new HostEndpoint("MetroSoap12WsaUserNameHttps", "metro", "https://127.0.0.1:5106/benchmark", "HTTP/1.1 over TLS", "SOAP 1.2", "TransportWithMessageCredential", "UserName");
        PayloadCatalogue.TryGet("Int", out var payload);

        var error = Assert.Throws<LoadClientException>(() => new LeanDriver().CreateFactory(endpoint, payload!));

        Assert.Contains("cannot call MetroSoap12WsaUserNameHttps", error.Message, StringComparison.Ordinal);
        Assert.Contains("replay", error.Message, StringComparison.Ordinal);
    }
}
