using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Topologies;

/// <summary>
/// A service host in a network namespace of the test's own at 10.231.21.2 (another machine, as far as the network
/// goes), bound to 0.0.0.0, driven from the root namespace by the built runner with nothing but its address and the
/// files <c>GET /security</c> lists for remote runners, copied into a folder of their own (docs/topologies.md).
/// </summary>
public sealed class RemoteHostTests(RemoteHostFixture fixture) : IClassFixture<RemoteHostFixture>
{
    private readonly string _work = Directory.CreateDirectory(Path.Combine(fixture.Work, Guid.NewGuid().ToString("N"))).FullName;

    private Uri Control => fixture.Control;

    // The remote host asks for its control token like any (docs/topologies.md): the runner gets it from DASHBOARD_HOST_TOKEN.
    private static HttpClient ControlClient()
    {
        var http = new HttpClient();
        http.DefaultRequestHeaders.Authorization = Service.Contracts.Security.HostControlToken.Header(ServiceHostProcess.TestControlToken);
        return http;
    }

    [RootFact]
    public async Task Endpoints_CallerUsedTheNamespaceAddress_EveryNetworkAddressNamesItAndUnixSocketsAreOnMachineOnly()
    {
        using var http = ControlClient();
        var endpoints = (await http.GetFromJsonAsync<HostEndpoint[]>(new Uri(Control, "endpoints"), JsonSerializerOptions.Web))!;

        Assert.Equal(VariantCatalogue.All.Count(v => v.IsAvailable), endpoints.Length);
        foreach (var endpoint in endpoints)
        {
            if (endpoint.Address.StartsWith("unix:", StringComparison.Ordinal))
            {
                Assert.True(endpoint.OnMachineOnly, endpoint.Name);
                continue;
            }

            Assert.False(endpoint.OnMachineOnly, endpoint.Name);
            Assert.Contains(fixture.Namespace!.Address, endpoint.Address, StringComparison.Ordinal);
            Assert.DoesNotContain("localhost", endpoint.Address, StringComparison.Ordinal);
            if (endpoint.Wsdl is { } wsdl)
            {
                // The WSDL the JVM serves at that address carries the same host in soap:address.
                using var handler = new HttpClientHandler { ServerCertificateCustomValidationCallback = (_, _, _, _) => true };
                using var metadata = new HttpClient(handler);
                var text = await metadata.GetStringAsync(new Uri(wsdl));
                Assert.Contains($"location=\"{endpoint.Address}\"", text, StringComparison.Ordinal);
            }
        }

        // A configured name the caller used: the Host header decides.
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(Control, "endpoints"));
        request.Headers.Host = "bench-server.example:5090";
        using var answer = await http.SendAsync(request);
        var named = (await answer.Content.ReadFromJsonAsync<HostEndpoint[]>(JsonSerializerOptions.Web))!;
        Assert.Equal("benchmark:tcp -h bench-server.example -p 5110", named.Single(e => e.Name == "IceTcp").Address);
    }

    [RootFact]
    public async Task Run_EveryVariantEachClientCallsAcrossTheNamespace_ZeroErrorsWithCopiedSecurityFiles()
    {
        using var http = ControlClient();
        var security = await http.GetFromJsonAsync<JsonElement>(new Uri(Control, "security"), JsonSerializerOptions.Web);
        var files = security.GetProperty("remoteRunnerFiles").EnumerateArray().Select(f => f.GetString()!).ToArray();
        Assert.DoesNotContain(SecurityFiles.CaKeyStore, files);
        Assert.DoesNotContain(SecurityFiles.ServerKeyStore, files);
        var hostSecurity = Path.Combine(fixture.Work, "host-data", "security");
        // Passwords never travel over the control API: neither the key store password nor a profile's.
        var keyStorePassword = File.ReadAllText(Path.Combine(hostSecurity, SecurityFiles.KeyStorePassword)).Trim();
        var profilePassword = JsonDocument.Parse(File.ReadAllText(Path.Combine(hostSecurity, SecurityFiles.Credentials))).RootElement
            .GetProperty("profiles").GetProperty("bench").GetProperty("password").GetString()!;
        Assert.DoesNotContain(keyStorePassword, security.GetRawText(), StringComparison.Ordinal);
        Assert.DoesNotContain(profilePassword, security.GetRawText(), StringComparison.Ordinal);

        // What a user does: fetch the CA over the control API, copy the rest from the host's machine.
        var copied = Directory.CreateDirectory(Path.Combine(_work, "copied-security")).FullName;
        foreach (var file in files)
        {
            File.Copy(Path.Combine(hostSecurity, file), Path.Combine(copied, file));
        }

        var fetchedCa = await http.GetStringAsync(new Uri(Control, "security/ca.crt"));
        Assert.Equal(File.ReadAllText(Path.Combine(copied, SecurityFiles.CaCertificate)).Trim(), fetchedCa.Trim());

        var failures = new List<string>();
        foreach (var client in ClientTechnology.All.Where(c => c.Id is "dotnet" or "java" or "node"))
        {
            var variants = VariantCatalogue.All.Where(v => v.IsAvailable && !v.IsLocalIpc && client.Supports(v)).Select(v => v.Name).ToArray();
            var scenario = new ScenarioDocument
            {
                Name = $"remote {client.Id}",
                Host = Control.GetLeftPart(UriPartial.Authority),
                Topology = Topology.Remote,
                Variants = variants,
                Clients = [client.Id],
                Payloads = ["Int"],
                Levels = [2],
                RequestsPerClient = 5,
                Warmup = 1,
            };
            var scenarioPath = Path.Combine(_work, $"{client.Id}.json");
            await File.WriteAllTextAsync(scenarioPath, ScenarioLoader.ToJson(scenario));
            var csvPath = Path.Combine(_work, $"{client.Id}.csv");
            using var runner = RunnerProcess.Start(scenarioPath, Path.Combine(_work, "results.db"), _work,
                extraArguments: ["--security-dir", copied, "--levels-csv", csvPath], runnerDirectory: RepositoryPaths.RunnerOutput);
            var exit = await runner.WaitForExitAsync(TimeSpan.FromMinutes(6));
            Assert.True(exit == 0, $"{client.Id}: exit {exit}: {runner.Stderr}");
            var lines = File.ReadAllLines(csvPath);
            var topology = Array.IndexOf(lines[0].Split(','), "topology");
            var rows = lines.Skip(1).Select(l => l.Split(',')).ToArray();
            Assert.Equal(variants.Order(StringComparer.Ordinal), rows.Select(r => r[0]).Order(StringComparer.Ordinal));
            failures.AddRange(rows.Where(r => r[5] != "0" || r[4] != "10").Select(r => $"{client.Id} × {r[0]}: {r[5]} errors of {r[4]}"));
            Assert.All(rows, r => Assert.Equal(Topology.Remote, r[topology]));
        }

        Assert.Empty(failures);
    }

    [RootFact]
    public async Task Run_UnixSocketVariantOnRemoteTopology_RefusedNamingTheVariant()
    {
        var path = Path.Combine(_work, "uds.json");
        await File.WriteAllTextAsync(path, $$"""
            {"name":"uds remote","host":"{{Control.GetLeftPart(UriPartial.Authority)}}","topology":"remote","variants":["AspNetHttpJson","AspNetUdsBinXml"],
             "clients":["dotnet"],"payloads":["Int"],"levels":[1],"requestsPerClient":1}
            """);
        using var runner = RunnerProcess.Start(path, Path.Combine(_work, "uds.db"), _work);

        Assert.Equal(2, await runner.WaitForExitAsync());
        Assert.Contains("variants[1]", runner.Stderr, StringComparison.Ordinal);
        Assert.Contains("on-machine only", runner.Stderr, StringComparison.Ordinal);
    }
}
