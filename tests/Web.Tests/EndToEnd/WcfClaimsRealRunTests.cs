using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Tests.RealProcesses;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.EndToEnd;

/// <summary>
/// Issue #33 with #34's claims, everything real: the built dashboard queues a small run of the Ice paper's binary WCF
/// (<c>WcfBinaryHttp</c>) and XML WCF (<c>WcfBasicHttp</c>) with the WCF client, the built runner drives the real service
/// host (no JVM: the wcfbindings stack is the host's own), and <c>GET /api/runs/{id}/claims</c> decides the claims on the
/// WCF bindings from its levels. The wire-byte claim is counted, so it is decided even on a busy machine.
/// </summary>
public sealed class WcfClaimsRealRunTests : IAsyncLifetime
{
    private ServiceHostProcess _host = null!;
    private WebApp _app = null!;
    private string _tmp = null!;

    public async Task InitializeAsync()
    {
        _host = await ServiceHostProcess.StartAsync();
        // Other test assemblies run real runners at the same time: this dashboard's runner gets its own TMPDIR (its own
        // machine lock), and a busy machine is retried soon anyway.
        _tmp = Directory.CreateTempSubdirectory("e2e-wcf-claims-tmp-").FullName;
        _app = await WebApp.StartAsync(environment: new Dictionary<string, string> { ["TMPDIR"] = _tmp }, extraArguments:
        [
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(RepositoryPaths.RunnerOutput, "Dashboard.Runner")}",
            "--Dashboard:Runner:BusyRetryDelay=00:00:02",
            $"--Dashboard:LocalHost:Address={_host.ControlAddress.ToString().TrimEnd('/')}",
        ]);
    }

    public async Task DisposeAsync()
    {
        var root = _app.Root;
        await _app.DisposeAsync();
        WebApp.DeleteRoot(root);
        await _host.DisposeAsync();
        Directory.Delete(_tmp, recursive: true);
    }

    [Fact]
    public async Task Claims_RealRunOfBinaryAndXmlWcf_DecidesTheWcfContrastsFromTheirLevels()
    {
        // Two levels (1 and 2 clients), short: 40 calls per client, 3 repetitions (a test needs 3 observations a side).
        var scenario = $$"""
            {"name": "wcf claims end to end", "host": "{{_host.ControlAddress.ToString().TrimEnd('/')}}",
             "variants": ["WcfBinaryHttp", "WcfBasicHttp"], "clients": ["wcf"], "payloads": ["String1"], "levels": [1, 2],
             "requestsPerClient": 40, "warmup": 3, "repetitions": 3}
            """;
        using var response = await _app.PostScenarioAsync(scenario);
        var id = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        await _app.WaitForStatusAsync(id, "Completed", TimeSpan.FromMinutes(5));

        var body = await _app.Http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/claims");

        // Wire bytes (counted): XML WCF ÷ binary WCF is decided on the WCF bindings' contrast, with the levels behind it.
        var bytes = ClaimOf(body, "ice-paper-xml-twice-binary-bytes");
        Assert.Contains(bytes.GetProperty("verdict").GetString(), new[] { "Holds", "DoesNotHold" });
        // One case per level (1 and 2 clients), each on the WCF bindings' contrast.
        var cases = Covered(bytes).ToList();
        Assert.Equal(2, cases.Count);
        Assert.All(cases, c =>
        {
            Assert.Equal("WcfBasicHttp vs WcfBinaryHttp", c.GetProperty("name").GetString());
            Assert.True(c.GetProperty("ratio").GetDouble() > 1, "SOAP 1.1 text puts more bytes on the wire than WCF's binary encoding");
            Assert.Equal(2, c.GetProperty("levelsCounted").GetInt32());
        });
        Assert.Contains("Not measured in these runs: MetroSoap11 vs MetroSoap11FastInfoset", bytes.GetProperty("reason").GetString(), StringComparison.Ordinal);

        // Overhead per message (Table I, strings): also counted, also decided on the WCF bindings.
        var overhead = ClaimOf(body, "ice-paper-binary-halves-xml-overhead");
        Assert.Contains(overhead.GetProperty("verdict").GetString(), new[] { "Holds", "DoesNotHold" });
        Assert.All(Covered(overhead), c => Assert.Equal("WcfBinaryHttp vs WcfBasicHttp", c.GetProperty("name").GetString()));
        Assert.Equal(2, Covered(overhead).Count());

        // Round trip at 1 client (sampled; the 2-client level is outside the claim): measured on both sides, so a verdict of
        // the test, never "not measured".
        var roundTrip = ClaimOf(body, "ice-paper-binary-faster-than-xml");
        Assert.Contains(roundTrip.GetProperty("verdict").GetString(), new[] { "Holds", "DoesNotHold", "Inconclusive" });
        Assert.Equal("WcfBinaryHttp vs WcfBasicHttp", Covered(roundTrip).Single().GetProperty("name").GetString());
    }

    private static JsonElement ClaimOf(JsonElement body, string id) =>
        body.GetProperty("claims").EnumerateArray().Single(c => c.GetProperty("claim").GetProperty("id").GetString() == id);

    private static IEnumerable<JsonElement> Covered(JsonElement claim) =>
        claim.GetProperty("contrasts").EnumerateArray().Where(c => c.GetProperty("covered").GetBoolean());
}
