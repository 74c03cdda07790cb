using System.Net;
using System.Text;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.WcfBindings;

/// <summary>
/// <c>WcfBasicHttp</c> on the wire (SOAP 1.1 with WCF's text encoder on Kestrel, host without a JVM): the served WSDL names
/// the endpoint and its schemas; a body of no operation is a SOAP 1.1 fault (HTTP 500); another content type is 415; a
/// hand-written Metro-style envelope is answered. The clients' calls are in the runner's <c>WcfBindingsDriverTests</c>.
/// </summary>
public sealed class BasicHttpVariantTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>
{
    private readonly HostEndpoint _endpoint = fixture.Endpoint("WcfBasicHttp");

    [Fact]
    public async Task Wsdl_Served_NamesTheEndpointAndItsSchemas()
    {
        Assert.Equal(_endpoint.Address + "?wsdl", _endpoint.Wsdl);
        using var http = new HttpClient();

        var wsdl = await http.GetStringAsync(new Uri(_endpoint.Wsdl!));
        var schema = await http.GetStringAsync(new Uri(_endpoint.Address + "?xsd=2"));

        Assert.Contains($"location=\"{_endpoint.Address}\"", wsdl, StringComparison.Ordinal);
        Assert.Contains($"schemaLocation=\"{_endpoint.Address}?xsd=1\"", wsdl, StringComparison.Ordinal);
        Assert.Contains("name=\"IntSimple\"", schema, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_IntSimpleEnvelope_AnswersTheValue()
    {
        var (status, body) = await PostAsync("<IntSimple xmlns=\"urn:dashboard:benchmark:2026\"><value>-17</value></IntSimple>", "text/xml; charset=utf-8");

        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Contains("<IntSimpleResult>-17</IntSimpleResult>", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_UnknownOperation_IsSoap11FaultWith500()
    {
        var (status, body) = await PostAsync("<Nope xmlns=\"urn:dashboard:benchmark:2026\"/>", "text/xml; charset=utf-8");

        Assert.Equal(HttpStatusCode.InternalServerError, status);
        Assert.Contains("<faultcode", body, StringComparison.Ordinal);
        Assert.Contains("no operation has this body element", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_JsonContentType_Is415()
    {
        var (status, _) = await PostAsync("<x/>", "application/json");

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, status);
    }

    private async Task<(HttpStatusCode Status, string Body)> PostAsync(string bodyElement, string contentType)
    {
        using var http = new HttpClient();
        var envelope = $"<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{bodyElement}</s:Body></s:Envelope>";
        using var content = new StringContent(envelope, Encoding.UTF8);
        content.Headers.ContentType = System.Net.Http.Headers.MediaTypeHeaderValue.Parse(contentType);
        using var response = await http.PostAsync(new Uri(_endpoint.Address), content);
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }
}
