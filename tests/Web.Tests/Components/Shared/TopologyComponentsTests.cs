using System.Net;
using System.Text;
using Bunit;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Components.Shared;
using Dashboard.Web.Hosts;
using Microsoft.Extensions.DependencyInjection;
using MudBlazor.Services;

// Folder Components/Shared mirrors the source; the namespace stops one level up (CA1716: "Shared" is a VB keyword).
namespace Dashboard.Web.Tests.Components;

/// <summary>The topology components (docs/topologies.md) rendered with bunit: results side by side, and a host's security files.</summary>
public sealed class TopologyComponentsTests : IDisposable
{
    private readonly BunitContext _context = new();

    public TopologyComponentsTests()
    {
        _context.JSInterop.Mode = JSRuntimeMode.Loose;
        _context.Services.AddMudServices();
    }

    public void Dispose() => _context.Dispose();

    private static LevelEntity Level(string variant, int clients, double rps, double ms) => new()
    {
        Variant = variant, Client = "dotnet", Payload = "Int", Clients = clients, Repetition = 1, ThroughputRps = rps, MeanMs = ms,
        StartedUtc = Start, EndedUtc = Start.AddSeconds(10), Requests = 100,
    };

    private static readonly DateTime Start = new(2026, 11, 25, 10, 0, 0, DateTimeKind.Utc);

    private static RunEntity Run(string topology, int? rate) => new()
    {
        ScenarioName = topology, ScenarioJson = "{}", Topology = topology, LinkRateMbps = rate, StartedUtc = Start,
    };

    [Fact]
    public void TopologySideBySide_OnMachineAndEmulatedLan_ColumnsPerTopologyAndBestPerMetric()
    {
        var local = Run("same-machine", null);
        var lan = Run("emulated-lan", 100);
        var result = TopologyComparison.Build(
        [
            new RunResults(local, [Level("AspNetUdsBinXml", 20, 9000, 2), Level("AspNetH2BinXml", 20, 8000, 2.5)],
                [new ResourceSampleEntity { OffsetMs = 5000, MachineCpuPercent = 91, AvailableMemoryMb = 1000 }]),
            new RunResults(lan, [Level("AspNetH2BinXml", 20, 5000, 4)],
                [new ResourceSampleEntity { OffsetMs = 5000, MachineCpuPercent = 35, AvailableMemoryMb = 3000 }]),
        ]);

        var page = _context.Render<TopologySideBySide>(p => p.Add(c => c.Result, result));

        Assert.Equal(["on-machine", "cross-machine (emulated LAN, 100 Mbit/s)"], page.FindAll("[data-testid=topology-header]").Select(h => h.TextContent.Trim()));
        var rows = page.FindAll("[data-testid=topology-row]");
        Assert.Equal(2, rows.Count);
        var h2 = rows.Single(r => r.TextContent.Contains("AspNetH2BinXml", StringComparison.Ordinal));
        Assert.Contains("8,000", h2.TextContent, StringComparison.Ordinal);
        Assert.Contains("5,000", h2.TextContent, StringComparison.Ordinal);
        Assert.Contains("35", h2.TextContent, StringComparison.Ordinal);
        var uds = rows.Single(r => r.TextContent.Contains("AspNetUdsBinXml", StringComparison.Ordinal));
        Assert.Contains("not run (on-machine only)", uds.TextContent, StringComparison.Ordinal);
        var best = page.Find("[data-testid=best-unsecure]").TextContent;
        Assert.Contains("on-machine, AspNetUdsBinXml × dotnet", best, StringComparison.Ordinal); // throughput and response time
        Assert.Contains("cross-machine (emulated LAN, 100 Mbit/s), AspNetH2BinXml × dotnet", best, StringComparison.Ordinal); // server CPU, memory
    }

    [Fact]
    public void RemoteHostSecurity_HostListsItsFiles_ShowsEachWithTheCaDownloadAndTheOnMachineOnlyVariants()
    {
        var security = """
            {"caCertificate":{"url":"/security/ca.crt","path":"/srv/host/security/ca.crt","subject":"CN=Dashboard benchmark local CA",
             "sha256":"0123456789ABCDEF0123456789ABCDEF","notAfter":"2036-11-25T00:00:00Z"},
             "securityDirectory":"/srv/host/security","profiles":["bench"],
             "remoteRunnerFiles":["ca.crt","client.p12","server.crt","keystore.password","credentials.json"],"noEquivalent":[]}
            """;
        using var http = new HttpClient(new Answer(HttpStatusCode.OK, security));
        _context.Services.AddSingleton(new HostClient(http, Registry()));
        HostEndpoint[] endpoints =
        [
            new("AspNetUdsBinXml", "aspnet", "unix:/tmp/s.sock", "HTTP/1.1 over a Unix domain socket", "binary XML", "None", "None", OnMachineOnly: true),
            new("AspNetH2BinXml", "aspnet", "http://10.231.1.2:5093/", "HTTP/2", "binary XML", "None", "None"),
        ];

        var page = _context.Render<RemoteHostSecurity>(p => p.Add(c => c.Host, new Uri("http://10.231.1.2:5090/")).Add(c => c.Endpoints, endpoints));

        page.WaitForAssertion(() => Assert.Equal(5, page.FindAll("[data-testid=security-file]").Count));
        Assert.Contains("/srv/host/security", page.Markup, StringComparison.Ordinal);
        Assert.Equal("http://10.231.1.2:5090/security/ca.crt", page.Find("a").GetAttribute("href"));
        Assert.Contains("password of client.p12", page.Markup, StringComparison.Ordinal);
        Assert.Contains("AspNetUdsBinXml", page.Find("[data-testid=on-machine-only]").TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("AspNetH2BinXml", page.Find("[data-testid=on-machine-only]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void RemoteHostSecurity_HostUnreachable_SaysWhatFailed()
    {
        using var http = new HttpClient(new Answer(HttpStatusCode.ServiceUnavailable, "down"));
        _context.Services.AddSingleton(new HostClient(http, Registry()));

        var page = _context.Render<RemoteHostSecurity>(p => p.Add(c => c.Host, new Uri("http://10.231.1.2:5090/")));

        page.WaitForAssertion(() => Assert.Contains("security failed", page.Find("[data-testid=security-problem]").TextContent, StringComparison.Ordinal));
        Assert.Empty(page.FindAll("[data-testid=security-file]"));
    }

    // The hosts the client finds tokens in: the local one only (nothing is written: no host is added).
    private static HostRegistry Registry() => new(
        Microsoft.Extensions.Options.Options.Create(new Dashboard.Web.Options.DashboardOptions { DataFolder = Path.Combine(Path.GetTempPath(), "topology-components-none") }),
        Microsoft.Extensions.Options.Options.Create(new Dashboard.Web.Options.LocalHostOptions()));

    /// <summary>Answers every request with one status and body (the host's side of the control API, for a component test).</summary>
    private sealed class Answer(HttpStatusCode status, string body) : HttpMessageHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken) =>
            Task.FromResult(new HttpResponseMessage(status) { Content = new StringContent(body, Encoding.UTF8, "application/json") });
    }
}
