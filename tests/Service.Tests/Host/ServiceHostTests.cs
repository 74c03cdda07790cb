using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary>The built service host on real sockets: control API and the aspnet variants' error answers.</summary>
public sealed class ServiceHostTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>, IDisposable
{
    private readonly ServiceHostProcess _host = fixture.Host;
    private readonly HttpClient _http = new();

    public void Dispose() => _http.Dispose();

    [Fact]
    public async Task Endpoints_HostStarted_ListsTheTenAspNetVariantsOnRealAddresses()
    {
        var all = await _host.GetEndpointsAsync();
        var endpoints = all.Where(e => e.Stack == "aspnet").ToArray();

        // The rest is the wcfbindings stack, in the same process: every variant of it the catalogue has.
        Assert.Equal(VariantCatalogue.All.Where(v => v.Stack == VariantCatalogue.WcfBindings && v.IsAvailable).Select(v => v.Name), all.Except(endpoints).Select(e => e.Name));
        Assert.Equal(["AspNetUdsBinXml", "AspNetUdsBinXmlPeer", "AspNetH2BinXml", "AspNetH2TlsBinXmlCert", "AspNetHttpXml", "AspNetHttpJson", "AspNetHttpsJson", "AspNetHttpsJsonBasic", "AspNetGrpc", "AspNetGrpcTls"], endpoints.Select(e => e.Name));
        Assert.All(endpoints, e => Assert.Equal("aspnet", e.Stack));
        var unix = endpoints.Where(e => e.Address.StartsWith("unix:/", StringComparison.Ordinal)).ToArray();
        Assert.Equal(["AspNetUdsBinXml", "AspNetUdsBinXmlPeer"], unix.Select(e => e.Name));
        Assert.All(unix, e => Assert.True(File.Exists(e.Address["unix:".Length..]), $"the socket file of {e.Name} exists"));
        var tcp = endpoints.Except(unix).ToArray();
        Assert.All(tcp, e => Assert.NotEqual(0, new Uri(e.Address).Port));
        Assert.Equal(tcp.Length, tcp.Select(e => new Uri(e.Address).Port).Distinct().Count());
        Assert.All(tcp, e => Assert.Equal(e.SecurityMode == "Transport" ? "https" : "http", new Uri(e.Address).Scheme));
        Assert.Equal(["None", "OsIdentity", "None", "Certificate", "None", "None", "None", "Basic", "None", "Certificate"], endpoints.Select(e => e.CredentialType));
    }

    [Fact]
    public async Task Resources_HostRunning_AnswersValuesInRange()
    {
        await Task.Delay(1200); // two readings of the 500 ms sampler

        using var control = _host.CreateControlClient();
        var snapshot = await control.GetFromJsonAsync<ResourceSnapshot>(new Uri(_host.ControlAddress, "resources"), JsonSerializerOptions.Web);

        Assert.NotNull(snapshot);
        Assert.InRange(snapshot.MachineCpuPercent, 0, 100);
        Assert.InRange(snapshot.ProcessCpuPercent, 0, 100);
        Assert.InRange(snapshot.AvailableMemoryMb, 1, 1024 * 1024);
        Assert.InRange(snapshot.WorkingSetMb, 10, 4096);
        Assert.InRange(snapshot.GcHeapMb, 0.01, 4096);
        Assert.InRange(snapshot.ThreadCount, 2, 1000);
        Assert.Null(snapshot.JvmCpuPercent);
    }

    [Fact]
    public async Task Healthz_AspNetUpJvmDisabled_AnswersOk()
    {
        using var response = await _http.GetAsync(new Uri(_host.ControlAddress, "healthz"));
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("\"status\":\"ok\"", body, StringComparison.Ordinal);
        Assert.Contains("\"aspnet\":\"up\"", body, StringComparison.Ordinal);
        Assert.Contains("\"jvm\":\"disabled\"", body, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("IntSimple", "{\"value\": \"not a number\"}", HttpStatusCode.BadRequest, "malformed JSON body")]
    [InlineData("IntSimple", "{\"valu\": 1}", HttpStatusCode.BadRequest, "missing property 'value'")]
    [InlineData("IntSimple", "{\"value\": 1", HttpStatusCode.BadRequest, "malformed JSON body")]
    [InlineData("NoSuchOperation", "{}", HttpStatusCode.NotFound, "unknown operation")]
    [InlineData("GetRBytes", "{\"size\": -1}", HttpStatusCode.BadRequest, "must be 0..")]
    public async Task JsonVariant_BadRequest_AnswersTheErrorAndKeepsServing(string operation, string body, HttpStatusCode status, string reason)
    {
        var json = (await _host.GetEndpointsAsync()).Single(e => e.Name == "AspNetHttpJson");

        using var bad = await _http.PostAsync(new Uri(new Uri(json.Address), operation), new StringContent(body, Encoding.UTF8, "application/json"));
        using var good = await _http.PostAsync(new Uri(new Uri(json.Address), "IntSimple"), new StringContent("{\"value\": 7}", Encoding.UTF8, "application/json"));

        Assert.Equal(status, bad.StatusCode);
        Assert.Contains(reason, await bad.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal("7", await good.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task XmlVariant_OversizedBody_IsRefusedAndTheVariantKeepsServing()
    {
        var xml = (await _host.GetEndpointsAsync()).Single(e => e.Name == "AspNetHttpXml");
        var huge = new string('a', 9 * 1024 * 1024);

        // Kestrel answers 413 from the Content-Length at once and closes the connection; the client may see the
        // answer or, still sending, a reset. Either way nothing over the 8 MiB limit is buffered.
        HttpStatusCode? status = null;
        try
        {
            using var response = await _http.PostAsync(new Uri(new Uri(xml.Address), "StringSimple"), new StringContent(huge, Encoding.UTF8, "application/xml"));
            status = response.StatusCode;
        }
        catch (HttpRequestException)
        {
        }

        using var fresh = new HttpClient();
        using var good = await fresh.PostAsync(new Uri(new Uri(xml.Address), "IntSimple"),
            new StringContent("<IntSimple xmlns=\"urn:dashboard:benchmark:2026\"><value>7</value></IntSimple>", Encoding.UTF8, "application/xml"));
        Assert.True(status is null or HttpStatusCode.RequestEntityTooLarge, $"status {status}");
        Assert.Contains("<IntSimpleResult>7</IntSimpleResult>", await good.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
