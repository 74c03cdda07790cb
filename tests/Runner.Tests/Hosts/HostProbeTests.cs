using Dashboard.Runner.Hosts;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Hosts;

/// <summary>The runner's host probe against a real host whose real JVM service is starting.</summary>
public sealed class HostProbeTests
{
    [Fact]
    public async Task WaitForStacksAsync_JvmStarting_WaitsWithANoticeThenTheHostServesMetro()
    {
        await using var host = await ServiceHostProcess.StartJvmStartingAsync();
        using var http = host.CreateControlClient();
        var notices = new List<string>();

        await HostProbe.WaitForStacksAsync(http, host.ControlAddress, TimeSpan.FromMinutes(3), notices.Add, CancellationToken.None);
        var endpoints = await HostProbe.GetEndpointsAsync(http, host.ControlAddress, CancellationToken.None);

        Assert.Contains(endpoints, e => e.Name == "MetroSoap11");
        var notice = Assert.Single(notices);
        Assert.Contains("stack jvm is starting; waiting up to 180 s", notice, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WaitForStacksAsync_StillStartingAfterTheLimit_HostUnavailableNamingTheStack()
    {
        await using var host = await ServiceHostProcess.StartJvmStartingAsync();
        using var http = host.CreateControlClient();

        var error = await Assert.ThrowsAsync<HostUnavailableException>(() =>
            HostProbe.WaitForStacksAsync(http, host.ControlAddress, TimeSpan.FromMilliseconds(200), null, CancellationToken.None, TimeSpan.FromMilliseconds(50)));

        Assert.Contains("stack jvm still starting after 0 s", error.Message, StringComparison.Ordinal);
    }
}
