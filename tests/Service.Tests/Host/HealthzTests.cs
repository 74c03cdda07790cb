using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary><c>GET /healthz</c> of a real host while its real JVM service starts: 503 "starting" per stack, then 200 with every stack up.</summary>
public sealed class HealthzTests
{
    [Fact]
    public async Task Healthz_WhileTheJvmStarts_503StartingThen200Up()
    {
        await using var host = await ServiceHostProcess.StartJvmStartingAsync();
        using var http = host.CreateControlClient();

        using var first = await http.GetAsync(new Uri(host.ControlAddress, "healthz"));
        var body = await first.Content.ReadFromJsonAsync<JsonElement>();

        Assert.Equal(HttpStatusCode.ServiceUnavailable, first.StatusCode);
        Assert.Equal("starting", body.GetProperty("status").GetString());
        Assert.Equal("starting", body.GetProperty("stacks").GetProperty("jvm").GetString());
        Assert.Equal("up", body.GetProperty("stacks").GetProperty("aspnet").GetString());
        Assert.DoesNotContain(await http.GetFromJsonAsync<JsonElement[]>(new Uri(host.ControlAddress, "endpoints")) ?? [], e => e.GetProperty("name").GetString() == "MetroSoap11");

        var deadline = DateTime.UtcNow.AddMinutes(3);
        HttpStatusCode status;
        JsonElement last;
        do
        {
            await Task.Delay(250);
            using var response = await http.GetAsync(new Uri(host.ControlAddress, "healthz"));
            status = response.StatusCode;
            last = await response.Content.ReadFromJsonAsync<JsonElement>();
        }
        while (status == HttpStatusCode.ServiceUnavailable && DateTime.UtcNow < deadline);

        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal("ok", last.GetProperty("status").GetString());
        Assert.Equal("up", last.GetProperty("stacks").GetProperty("jvm").GetString());
        Assert.Contains(await http.GetFromJsonAsync<JsonElement[]>(new Uri(host.ControlAddress, "endpoints")) ?? [], e => e.GetProperty("name").GetString() == "MetroSoap11");
    }
}
