using System.Net;
using System.Text;
using System.Xml.Linq;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary>
/// The Metro WSDL as published works for generic toolkits (docs/service-contract.md, "Interoperability of the WSDL"): its
/// schemas say <c>elementFormDefault="qualified"</c> once instead of <c>form="qualified"</c> on each element, every scalar
/// argument is required, and a request that lacks one gets a SOAP fault naming it instead of an echoed 0. The WCF client
/// (svcutil's shape) and npm soap calling the published contract are in the runner's DriverConformanceTests.
/// </summary>
public sealed class MetroWsdlInteropTests(MetroWsdlInteropTests.JvmHost fixture) : IClassFixture<MetroWsdlInteropTests.JvmHost>
{
    private static readonly XNamespace Xs = "http://www.w3.org/2001/XMLSchema";
    private readonly ServiceHostProcess _host = fixture.Host;

    [Theory]
    [InlineData("MetroSoap11")]
    [InlineData("MetroSoap12Wsa")]
    public async Task Wsdl_EverySchema_IsQualifiedByDefaultWithNoPerElementForm(string variant)
    {
        var address = (await _host.GetEndpointsAsync()).Single(e => e.Name == variant).Address;
        using var http = new HttpClient();
        var wsdl = XDocument.Parse(await http.GetStringAsync(new Uri(address + "?wsdl")));
        var locations = wsdl.Descendants(Xs + "import").Select(i => (string?)i.Attribute("schemaLocation")).OfType<string>().ToArray();

        Assert.Equal(2, locations.Length);
        foreach (var location in locations)
        {
            var schema = XDocument.Parse(await http.GetStringAsync(new Uri(location))).Root!;
            Assert.Equal("qualified", (string?)schema.Attribute("elementFormDefault"));
            Assert.DoesNotContain(schema.Descendants(Xs + "element"), e => e.Attribute("form") is not null);
        }
    }

    [Fact]
    public async Task Wsdl_ScalarArguments_AreRequired()
    {
        var address = (await _host.GetEndpointsAsync()).Single(e => e.Name == "MetroSoap11").Address;
        using var http = new HttpClient();
        var schema = XDocument.Parse(await http.GetStringAsync(new Uri(address + "?xsd=2"))).Root!;

        foreach (var (type, element) in new[] { ("IntSimple", "value"), ("StringSimple", "value"), ("UDTypeSimple", "value"), ("TransferFunds", "amount"), ("GetRBytes", "size") })
        {
            var declared = schema.Elements(Xs + "complexType").Single(t => (string?)t.Attribute("name") == type)
                .Descendants(Xs + "element").Single(e => (string?)e.Attribute("name") == element);
            Assert.Null(declared.Attribute("minOccurs"));
        }
    }

    [Theory]
    [InlineData("IntSimple", "<IntSimple xmlns=\"urn:dashboard:benchmark:2026\"/>", "value")]
    [InlineData("StringSimple", "<StringSimple xmlns=\"urn:dashboard:benchmark:2026\"></StringSimple>", "value")]
    [InlineData("TransferFunds", "<TransferFunds xmlns=\"urn:dashboard:benchmark:2026\"><fromAccount>1</fromAccount><toAccount>2</toAccount></TransferFunds>", "amount")]
    [InlineData("IntSimple (unqualified child)", "<IntSimple xmlns=\"urn:dashboard:benchmark:2026\"><value xmlns=\"\">7</value></IntSimple>", "value")]
    public async Task HandWrittenEnvelope_MissingArgument_IsASoapFaultNamingIt(string operation, string body, string argument)
    {
        var address = (await _host.GetEndpointsAsync()).Single(e => e.Name == "MetroSoap11").Address;
        using var http = new HttpClient();
        using var content = new StringContent($"""<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>{body}</s:Body></s:Envelope>""", Encoding.UTF8, "text/xml");
        content.Headers.Add("SOAPAction", "\"\"");

        using var response = await http.PostAsync(new Uri(address), content);
        var answer = await response.Content.ReadAsStringAsync();

        Assert.True(response.StatusCode == HttpStatusCode.InternalServerError, $"{operation}: HTTP {(int)response.StatusCode} {answer}");
        Assert.Contains("Fault", answer, StringComparison.Ordinal);
        Assert.Contains($"missing argument '{argument}'", answer, StringComparison.Ordinal);
    }

    [Fact]
    public async Task HandWrittenEnvelope_ArgumentPresent_IsEchoed()
    {
        var address = (await _host.GetEndpointsAsync()).Single(e => e.Name == "MetroSoap11").Address;
        using var http = new HttpClient();
        using var content = new StringContent("""<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><IntSimple xmlns="urn:dashboard:benchmark:2026"><value>7</value></IntSimple></s:Body></s:Envelope>""", Encoding.UTF8, "text/xml");

        using var response = await http.PostAsync(new Uri(address), content);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("<IntSimpleResult>7</IntSimpleResult>", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    /// <summary>
    /// One host with its JVM service for the class: every test reads the published WSDL or makes one call, none changes
    /// the host (a JVM host per test was a JVM start per test).
    /// </summary>
    public sealed class JvmHost : IAsyncLifetime
    {
        /// <summary>The host.</summary>
        public ServiceHostProcess Host { get; private set; } = null!;

        /// <inheritdoc />
        public async Task InitializeAsync()
        {
            Host = await ServiceHostProcess.StartAsync(jvm: true);
            await Host.WaitForEndpointAsync("MetroSoap12Wsa", TimeSpan.FromSeconds(60));
        }

        /// <inheritdoc />
        public async Task DisposeAsync()
        {
            if (Host is not null) // null when the start failed
            {
                await Host.DisposeAsync();
            }
        }
    }
}
