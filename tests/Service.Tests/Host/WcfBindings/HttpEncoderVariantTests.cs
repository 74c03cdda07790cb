using System.Net;
using System.ServiceModel;
using System.Text;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.WcfBindings;

/// <summary>
/// The wcfbindings stack's WSHttp (<c>WcfWsHttp</c>: SOAP 1.2 + WS-Addressing 1.0 with WCF's text encoder) and binary over
/// HTTP (<c>WcfBinaryHttp</c>: WCF's sessionless binary encoder, <c>application/soap+msbin1</c>) variants in the built host
/// without a JVM, called by the real WCF client (<c>WSHttpBinding(SecurityMode.None)</c>, a CustomBinding of
/// <c>BinaryMessageEncodingBindingElement</c> + <c>HttpTransportBindingElement</c>, through the runner's
/// <see cref="WcfBinding"/>): every payload answers the contract value; an unknown action is a SOAP fault; a bad envelope
/// is a SOAP 1.2 fault with HTTP 500 and another content type 415, and the host keeps serving.
/// </summary>
public sealed class HttpEncoderVariantTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>
{
    [Theory]
    [InlineData("WcfWsHttp")]
    [InlineData("WcfBinaryHttp")]
    public async Task EveryPayload_WcfClient_ReplyIsTheContractValue(string variant)
    {
        var factory = Factory(variant);
        try
        {
            var proxy = factory.CreateChannel();
            var wrong = new List<string>();
            foreach (var payload in PayloadCatalogue.All)
            {
                var arguments = payload.CreateArguments();
                var reply = await WcfOperations.CallAsync(proxy, payload.Operation, WcfOperations.ToWire(arguments));
                if (!payload.IsExpectedReply(arguments, reply))
                {
                    wrong.Add(payload.Id);
                }
            }

            Assert.Empty(wrong);
            ((IClientChannel)proxy).Close();
        }
        finally
        {
            factory.Abort();
        }
    }

    [Theory]
    [InlineData("WcfWsHttp")]
    [InlineData("WcfBinaryHttp")]
    public async Task UnknownAction_IsSoapFault_AndTheHostKeepsServing(string variant)
    {
        var factory = new ChannelFactory<NetTcpVariantTests.IUnknownOperation>(WcfBinding.For(variant, TimeSpan.FromSeconds(10)), new EndpointAddress(fixture.Endpoint(variant).Address));
        try
        {
            var error = await Assert.ThrowsAnyAsync<CommunicationException>(() => factory.CreateChannel().Nope(1));
            Assert.Contains("no operation has this action", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            factory.Abort();
        }

        Assert.Equal(9, await CallIntAsync(variant, 9));
    }

    [Theory]
    [InlineData("WcfWsHttp", "application/soap+xml; charset=utf-8")]
    [InlineData("WcfBinaryHttp", "application/soap+msbin1")]
    public async Task Post_BadEnvelope_IsSoap12FaultWith500_AndTheHostKeepsServing(string variant, string contentType)
    {
        var (status, type, body) = await PostAsync(variant, "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>", contentType);

        Assert.Equal(HttpStatusCode.InternalServerError, status);
        Assert.StartsWith(contentType.Split(';')[0], type, StringComparison.Ordinal);
        Assert.NotEmpty(body);
        Assert.Equal(-3, await CallIntAsync(variant, -3));
    }

    [Fact]
    public async Task Post_WsHttpOfTextXml_Is415()
    {
        var (status, _, _) = await PostAsync("WcfWsHttp", "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body/></s:Envelope>", "text/xml; charset=utf-8");

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, status);
    }

    [Fact]
    public async Task Post_BinaryHttpOfSoapXml_Is415()
    {
        var (status, _, _) = await PostAsync("WcfBinaryHttp", "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body/></s:Envelope>", "application/soap+xml; charset=utf-8");

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, status);
    }

    [Theory]
    [InlineData("WcfWsHttp", "SOAP 1.2 + WS-Addressing", true)]
    [InlineData("WcfBinaryHttp", "MC-NBFS", false)]
    public void Endpoints_HttpEncoderVariant_ListedWithWsdlOnlyForWsHttp(string variant, string encoding, bool wsdl)
    {
        var endpoint = fixture.Endpoint(variant);

        Assert.StartsWith("http://", endpoint.Address, StringComparison.Ordinal);
        Assert.EndsWith("/benchmark", endpoint.Address, StringComparison.Ordinal);
        Assert.Equal(VariantCatalogue.WcfBindings, endpoint.Stack);
        Assert.Contains(encoding, endpoint.Encoding, StringComparison.Ordinal);
        Assert.Equal(wsdl ? endpoint.Address + "?wsdl" : null, endpoint.Wsdl);
    }

    [Fact]
    public async Task Wsdl_WsHttp_IsSoap12WithTheAddressingPolicyOnItsBinding()
    {
        var endpoint = fixture.Endpoint("WcfWsHttp");
        using var http = new HttpClient();

        var wsdl = System.Xml.Linq.XDocument.Parse(await http.GetStringAsync(new Uri(endpoint.Wsdl!)));
        var schema = await http.GetStringAsync(new Uri(endpoint.Address + "?xsd=2"));

        System.Xml.Linq.XNamespace definitions = "http://schemas.xmlsoap.org/wsdl/", soap12 = "http://schemas.xmlsoap.org/wsdl/soap12/",
            policy = "http://www.w3.org/ns/ws-policy", wsam = "http://www.w3.org/2007/05/addressing/metadata",
            wsu = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
        var binding = wsdl.Root!.Element(definitions + "binding")!;
        Assert.NotNull(binding.Element(soap12 + "binding"));
        var reference = (string)binding.Element(policy + "PolicyReference")!.Attribute("URI")!;
        var attached = wsdl.Root.Elements(policy + "Policy").Single(p => "#" + (string?)p.Attribute(wsu + "Id") == reference);
        Assert.NotNull(attached.Element(wsam + "Addressing"));
        Assert.Null(attached.Element(wsam + "Addressing")!.Attribute(policy + "Optional"));
        Assert.Equal(endpoint.Address, (string?)wsdl.Root.Descendants(soap12 + "address").Single().Attribute("location"));
        Assert.Contains("urn:dashboard:benchmark:2026:Benchmark:IntSimpleRequest", wsdl.ToString(), StringComparison.Ordinal);
        Assert.Contains("name=\"IntSimple\"", schema, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Wsdl_BinaryHttp_NotServed()
    {
        using var http = new HttpClient();

        using var response = await http.GetAsync(new Uri(fixture.Endpoint("WcfBinaryHttp").Address + "?wsdl"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    private async Task<(HttpStatusCode Status, string ContentType, string Body)> PostAsync(string variant, string text, string contentType)
    {
        using var http = new HttpClient();
        using var content = new ByteArrayContent(Encoding.UTF8.GetBytes(text));
        content.Headers.ContentType = System.Net.Http.Headers.MediaTypeHeaderValue.Parse(contentType);
        using var response = await http.PostAsync(new Uri(fixture.Endpoint(variant).Address), content);
        return (response.StatusCode, response.Content.Headers.ContentType?.ToString() ?? "", await response.Content.ReadAsStringAsync());
    }

    private async Task<int> CallIntAsync(string variant, int value)
    {
        var factory = Factory(variant);
        try
        {
            return await factory.CreateChannel().IntSimple(value);
        }
        finally
        {
            factory.Abort();
        }
    }

    private ChannelFactory<IBenchmarkSoap> Factory(string variant) =>
        new(WcfBinding.For(variant, TimeSpan.FromSeconds(10)), new EndpointAddress(fixture.Endpoint(variant).Address));
}
