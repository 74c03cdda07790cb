using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.Control;

/// <summary><c>POST /restart</c> of a real host (docs/service-contract.md, "Restart"): 409 unless a supervisor restarts it; else 202 and exit code 75.</summary>
public sealed class RestartRouteTests
{
    [Fact]
    public async Task Restart_HostWithoutRestartOnRequest_409AndTheHostKeepsServing()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        using var http = host.CreateControlClient();

        using var response = await http.PostAsync(new Uri(host.ControlAddress, "restart"), content: null);

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Contains("RestartOnRequest", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        await Task.Delay(500);
        Assert.False(host.Process.HasExited);
        using var healthy = await http.GetAsync(new Uri(host.ControlAddress, "healthz"));
        Assert.Equal(HttpStatusCode.OK, healthy.StatusCode);
    }

    [Fact]
    public async Task Restart_WithoutToken_401AndTheHostKeepsServing()
    {
        await using var host = await ServiceHostProcess.StartAsync(false, "--ServiceHost:RestartOnRequest=true");
        using var anonymous = new HttpClient();

        using var refused = await anonymous.PostAsync(new Uri(host.ControlAddress, "restart"), content: null);

        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        await Task.Delay(500);
        Assert.False(host.Process.HasExited);
    }

    [Fact]
    public async Task Restart_HostWithRestartOnRequest_202WithItsProcessIdThenExitCode75()
    {
        await using var host = await ServiceHostProcess.StartAsync(false, "--ServiceHost:RestartOnRequest=true");
        using var http = host.CreateControlClient();

        using var response = await http.PostAsync(new Uri(host.ControlAddress, "restart"), content: null);

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var accepted = await response.Content.ReadFromJsonAsync<HostRestartAccepted>(JsonSerializerOptions.Web);
        Assert.Equal(host.ProcessId, accepted!.ProcessId);
        using var exit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await host.Process.WaitForExitAsync(exit.Token);
        Assert.Equal(HostRestart.ExitCode, host.Process.ExitCode);
    }
}
