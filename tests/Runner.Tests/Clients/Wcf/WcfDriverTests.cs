using System.ServiceModel;
using System.ServiceModel.Security;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Tests.Clients.Wcf;

/// <summary>
/// What the <c>wcf</c> client refuses and how it classifies WCF's exceptions. Its calls against the real Metro service
/// (every payload, exact counts, bytes, wrong password, wrong reply, fault, refused connection, cancel) are in
/// <c>DriverConformanceTests</c>, with the other drivers.
/// </summary>
public sealed class WcfDriverTests
{
    [Theory]
    [InlineData("MetroSoap12WsaX509", "asymmetric message security")]
    [InlineData("MetroSoap11FastInfoset", "FastInfoset")]
    [InlineData("IceTcp", "no Ice transport")]
    [InlineData("AspNetHttpJson", "only the Metro SOAP and wcfbindings variants")]
    public void CreateFactory_VariantWcfCannotCall_IsRefusedWithTheReason(string variant, string reason)
    {
        PayloadCatalogue.TryGet("Int", out var payload);
        var endpoint = new HostEndpoint(variant, "metro", "http://localhost:5107/benchmark", "HTTP/1.1", "SOAP", "None", "None");

        var error = Assert.Throws<LoadClientException>(() => new WcfDriver().CreateFactory(endpoint, payload!));

        Assert.Contains($"the wcf client cannot call {variant}", error.Message, StringComparison.Ordinal);
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_WcfOnlyOnX509Variant_FailsNamingClientsAndTheReason()
    {
        var scenario = new ScenarioDocument
        {
            Name = "x", Host = "http://localhost:5090", Variants = ["MetroSoap12WsaX509"], Clients = ["wcf"], Payloads = ["Int"],
            Levels = [1], RequestsPerClient = 1,
        };

        var result = new ScenarioValidator().Validate(scenario);

        var failure = Assert.Single(result.Errors, e => e.PropertyName == "clients");
        Assert.Contains("the wcf client cannot call MetroSoap12WsaX509", failure.ErrorMessage, StringComparison.Ordinal);
        Assert.Contains("asymmetric message security", failure.ErrorMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Cells_WcfOverSoap11AndX509_RunsSoap11AndSkipsX509WithWcfsReason()
    {
        var cells = ScenarioCells.Of(["MetroSoap11", "MetroSoap12WsaX509"], ["wcf"]);

        Assert.Equal([new CellPair("MetroSoap11", "wcf")], cells.Runnable);
        var skipped = Assert.Single(cells.Skipped);
        Assert.Equal("MetroSoap12WsaX509", skipped.Variant);
        Assert.Contains("asymmetric message security", skipped.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_WcfOnEverySoapVariantItCalls_Passes()
    {
        var scenario = new ScenarioDocument
        {
            Name = "x", Host = "http://localhost:5090", Clients = ["wcf"], Payloads = ["Int"], Levels = [1], RequestsPerClient = 1,
            Variants = ["MetroSoap11", "MetroSoap11Basic", "MetroSoap11Https", "MetroSoap11HttpsBasic", "MetroSoap12Wsa", "MetroSoap12WsaUserNameHttps"],
        };

        Assert.True(new ScenarioValidator().Validate(scenario).IsValid);
    }

    public static TheoryData<Exception, SampleOutcome> Errors => new()
    {
        { new MessageSecurityException("The HTTP request is unauthorized with client authentication scheme 'Basic'."), SampleOutcome.Authentication },
        { new SecurityAccessDeniedException("The security token could not be authenticated or authorized"), SampleOutcome.Authentication },
        { new FaultException(new FaultReason("refused"), new FaultCode("Sender", new FaultCode("FailedAuthentication", "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd")), ""), SampleOutcome.Authentication },
        { new FaultException(new FaultReason("boom"), new FaultCode("Server"), ""), SampleOutcome.Fault },
        { new TimeoutException("late"), SampleOutcome.Timeout },
        { new EndpointNotFoundException("no one there", new HttpRequestException("Connection refused")), SampleOutcome.Connection },
        { new CommunicationException("reset", new HttpRequestException("reset", new IOException("reset by peer"))), SampleOutcome.Connection },
        { new CommunicationException("TLS", new HttpRequestException("ssl", new System.Security.Authentication.AuthenticationException("untrusted root"))), SampleOutcome.Authentication },
        { new ProtocolException("The content type text/html of the response message does not match the content type of the binding"), SampleOutcome.Fault },
    };

    [Theory]
    [MemberData(nameof(Errors))]
    public void Classify_WcfException_IsItsOutcome(Exception error, SampleOutcome expected) =>
        Assert.Equal(expected, WcfLoadClient.Classify(error));
}
