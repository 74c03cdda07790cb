using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.Control;

/// <summary><c>GET /cpu</c> of a real host: 401 without the control token; with it, the host's own process and monotone cumulative counters.</summary>
public sealed class CpuRouteTests
{
    [Fact]
    public async Task Cpu_WithoutTokenThenWithIt_401ThenMonotoneCountersOfTheHostProcess()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        using var anonymous = new HttpClient();
        using var refused = await anonymous.GetAsync(new Uri(host.ControlAddress, "cpu"));
        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);

        using var http = host.CreateControlClient();
        var first = await http.GetFromJsonAsync<CpuCounters>(new Uri(host.ControlAddress, "cpu"), JsonSerializerOptions.Web);
        // Some work for the host between the two readings: 200 requests to its control API.
        for (var i = 0; i < 200; i++)
        {
            using var _ = await http.GetAsync(new Uri(host.ControlAddress, "endpoints"));
        }

        var second = await http.GetFromJsonAsync<CpuCounters>(new Uri(host.ControlAddress, "cpu"), JsonSerializerOptions.Web);

        Assert.NotNull(first);
        Assert.NotNull(second);
        var aspnet = Assert.Single(first.Processes, p => p.Stack == "aspnet");
        var aspnetLater = Assert.Single(second.Processes, p => p.Stack == "aspnet");
        Assert.Equal(host.ProcessId, aspnet.ProcessId);
        Assert.Equal(aspnet.StartTicks, aspnetLater.StartTicks);
        Assert.True(aspnet.CpuSeconds > 0);
        Assert.True(aspnetLater.CpuSeconds > aspnet.CpuSeconds, $"{aspnetLater.CpuSeconds} s after 200 requests, {aspnet.CpuSeconds} s before");
        Assert.True(second.Machine.BusySeconds >= first.Machine.BusySeconds);
        Assert.True(second.Machine.IdleSeconds >= first.Machine.IdleSeconds);
        Assert.True(second.Machine.StealSeconds >= first.Machine.StealSeconds);
        Assert.Equal(Environment.ProcessorCount, first.Machine.Cores);
        Assert.Equal(ProcCounters.BootId(), first.BootId);
    }
}
