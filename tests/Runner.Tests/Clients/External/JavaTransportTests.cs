using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.External;

/// <summary>
/// The java driver's two HTTP transports for the SOAP variants (docs/driver-protocol.md, "The java client's HTTP
/// transport"), each a real driver against the real host's JVM service: <c>counting</c> (our per-client connection,
/// bytes counted at the socket) and <c>jdk</c> (the JAX-WS RI's default HttpURLConnection, bytes unknown).
/// </summary>
[Collection(JvmHostGroup.Name)]
public sealed class JavaTransportTests(JvmHostFixture host)
{
    [Theory]
    [InlineData("counting")]
    [InlineData("jdk")]
    public async Task RunLevel_MetroSoap11Int_EveryRequestSucceedsWithTheSameSampleCount(string transport)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == "MetroSoap11");
        PayloadCatalogue.TryGet("Int", out var payload);
        var driver = new ExternalProcessDriver(DriverCommand.Java(RepositoryPaths.JavaDriver, transport), TimeSpan.FromSeconds(10));
        await using var session = await driver.OpenCellAsync(endpoint, payload!, null, CancellationToken.None);

        var result = await session.RunLevelAsync(new LevelPlan(10, 2, 20, null), CancellationToken.None);

        Assert.Equal(10 * 22, result.Samples.Length);
        Assert.Equal(10 * 2, result.Samples.Count(s => s.IsWarmup));
        Assert.All(result.Samples, s => Assert.True(s.IsSuccess, $"{s.Outcome} on the {transport} transport"));
        Assert.Equal(Enumerable.Repeat(22, 10), result.Samples.GroupBy(s => s.ClientIndex).OrderBy(g => g.Key).Select(g => g.Count()));
        if (transport == "counting")
        {
            Assert.All(result.Samples, s => Assert.True(s.RequestBytes > 0 && s.ResponseBytes > 0, "bytes not counted"));
        }
        else
        {
            // The JDK's HTTP stack cannot be counted per request without replacing it: the bytes are unknown.
            Assert.All(result.Samples, s => Assert.Equal((-1, -1), (s.RequestBytes, s.ResponseBytes)));
        }
    }

    [Fact]
    public void Java_UnknownTransport_IsMissingWithTheReason()
    {
        var command = DriverCommand.Java(RepositoryPaths.JavaDriver, "okhttp");

        Assert.Contains("must be counting or jdk", command.MissingReason, StringComparison.Ordinal);
        Assert.Contains("'okhttp'", command.MissingReason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("counting")]
    [InlineData("jdk")]
    public void Java_Transport_IsPassedAsTheDriversOption(string transport)
    {
        var command = DriverCommand.Java(RepositoryPaths.JavaDriver, transport);

        Assert.Null(command.MissingReason);
        Assert.Equal(["--transport", transport], command.Arguments.TakeLast(2));
    }
}
