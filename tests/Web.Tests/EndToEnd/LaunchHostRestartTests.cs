using System.Text.Json;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// A fresh service host per launch (issue #32, docs/statistics.md "Launches"), everything real: the dashboard starts its
/// local host, a run of 2 launches asks it to restart between them (<c>POST /restart</c>), the dashboard starts it again,
/// and the second launch's levels name another host process. The Unix-socket variant's address changes with the host's
/// process (its default socket folder is per process), so the runner must read the endpoints again.
/// </summary>
public sealed class LaunchHostRestartTests : IAsyncLifetime
{
    private string _root = null!;
    private string _tmp = null!;

    public Task InitializeAsync()
    {
        _root = WebApp.NewRoot();
        _tmp = Directory.CreateTempSubdirectory("launch-restart-tmp-").FullName;
        return Task.CompletedTask;
    }

    public Task DisposeAsync()
    {
        WebApp.DeleteRoot(_root);
        Directory.Delete(_tmp, recursive: true);
        return Task.CompletedTask;
    }

    [Fact]
    public async Task Run_TwoLaunchesOnTheLocalHost_EachLaunchMeasuredOnItsOwnHostProcess()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var hostAddress = $"http://127.0.0.1:{((System.Net.IPEndPoint)listener.LocalEndpoint).Port}";
        listener.Stop();
        var environment = new Dictionary<string, string>
        {
            ["TMPDIR"] = _tmp,
            ["Jvm__Enabled"] = "false",
            ["Logging__LogLevel__Microsoft.Hosting.Lifetime"] = "Warning",
        };
        foreach (var variant in ServiceHostProcess.VariantsWithPorts)
        {
            environment[$"ServiceHost__Ports__{variant}"] = "0";
        }

        await using var app = await WebApp.StartAsync(_root, environment,
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:StartLocalHost=true",
            $"--Dashboard:LocalHost:Address={hostAddress}",
            $"--Dashboard:LocalHost:ExecutablePath={ServiceHostProcess.ExecutablePath}",
            $"--Dashboard:LocalHost:DataDirectory={Path.Combine(_tmp, "host-data")}",
            // The host's lifetime lines are silenced through the environment (it would print "Now listening on" too); the
            // dashboard's own come back through its command line, which its child does not inherit.
            "--Logging:LogLevel:Microsoft.Hosting.Lifetime=Information");
        using (var probe = new HttpClient())
        {
            Assert.True(await Eventually.HoldsAsync(async () =>
            {
                try
                {
                    return (await probe.GetAsync($"{hostAddress}/healthz")).IsSuccessStatusCode;
                }
                catch (HttpRequestException)
                {
                    return false;
                }
            }, TimeSpan.FromMinutes(3)), "the dashboard's local host did not become healthy");
        }

        var firstHost = LocalHostPid(app);
        using var response = await app.PostScenarioAsync($$"""
            {"name": "two launches", "host": "{{hostAddress}}", "variants": ["AspNetHttpJson", "AspNetUdsBinXml"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": [2], "requestsPerClient": 50, "warmup": 5, "repetitions": 1, "launches": 2}
            """);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, body);
        var runId = JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt32();

        await app.WaitForStatusAsync(runId, "Completed", TimeSpan.FromMinutes(4));

        await using var db = app.OpenDatabase();
        var levels = await db.Levels.Where(l => l.RunId == runId).ToListAsync();
        Assert.Equal(4, levels.Count);
        var first = levels.Where(l => l.Launch == 1).Select(l => l.HostProcessId).Distinct().ToList();
        var second = levels.Where(l => l.Launch == 2).Select(l => l.HostProcessId).Distinct().ToList();
        Assert.Equal(new int?[] { firstHost }, first);
        var restarted = Assert.Single(second);
        Assert.NotNull(restarted);
        Assert.NotEqual(firstHost, restarted);
        // The dashboard started the fresh host and recorded it; the first one is gone.
        Assert.Equal(restarted, LocalHostPid(app));
        Assert.False(Signals.IsAlive(firstHost));
        Assert.All(levels, l => Assert.Equal(100, l.Requests));
        // The dashboard's console, where the host it starts writes too (issue #36: "Overriding address(es)" once per variant
        // server at every host start, ten times each): the restart said once, in the product's words, and no such warning.
        var log = app.Log;
        Assert.Equal(1, System.Text.RegularExpressions.Regex.Count(log, @"Local service host restarted for a run's next launch .*: pid \d+ ended, pid \d+ started \(restart 1 since"));
        Assert.DoesNotContain("Overriding address(es)", log, StringComparison.Ordinal);
    }

    private static int LocalHostPid(WebApp app) =>
        JsonDocument.Parse(File.ReadAllText(Path.Combine(app.DataFolder, "local-host.json"))).RootElement.GetProperty("pid").GetInt32();
}
