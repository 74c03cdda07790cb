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
    [InlineData("AspNetGrpc", "HTTP/2")]
    [InlineData("AspNetH2BinXml", "HTTP/2")]
    public void CreateFactory_VariantItCannotCall_IsRefusedNamingTheVariantAndWhy(string variant, string why)
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == variant);
        PayloadCatalogue.TryGet("Int", out var payload);

        var error = Assert.Throws<LoadClientException>(() => new LeanDriver().CreateFactory(endpoint, payload!));

        Assert.Contains($"the lean generator cannot call {variant}", error.Message, StringComparison.Ordinal);
        Assert.Contains(why, error.Message, StringComparison.Ordinal);
    }

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
