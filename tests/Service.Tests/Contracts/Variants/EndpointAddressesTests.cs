using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Tests.Contracts.Variants;

/// <summary>How <c>GET /endpoints</c> writes addresses for the caller (docs/topologies.md, "Remote hosts").</summary>
public class EndpointAddressesTests
{
    [Theory]
    [InlineData("10.231.1.2:5090", null, "10.231.1.2")]
    [InlineData("bench-server", null, "bench-server")]
    [InlineData("[::1]:5090", null, "[::1]")]
    [InlineData("10.231.1.2:5090", "bench.example", "bench.example")]
    [InlineData(null, null, "localhost")]
    public void HostFor_HostHeaderAndPublicName_PublicNameWinsThenTheHeader(string? header, string? publicName, string expected) =>
        Assert.Equal(expected, EndpointAddresses.HostFor(header, publicName, "localhost"));

    [Theory]
    [InlineData("http://localhost:5092/", "10.231.1.2", "http://10.231.1.2:5092/")]
    [InlineData("https://localhost:5104/benchmark?wsdl", "bench.example", "https://bench.example:5104/benchmark?wsdl")]
    [InlineData("benchmark:tcp -h localhost -p 5110", "10.231.1.2", "benchmark:tcp -h 10.231.1.2 -p 5110")]
    [InlineData("benchmark:ssl -h localhost -p 5111", "[::1]", "benchmark:ssl -h \"::1\" -p 5111")]
    [InlineData("http://localhost:5092/", "[::1]", "http://[::1]:5092/")]
    [InlineData("net.tcp://localhost:5120/benchmark", "10.231.1.2", "net.tcp://10.231.1.2:5120/benchmark")]
    [InlineData("unix:/tmp/x/aspnet-binxml.sock", "10.231.1.2", "unix:/tmp/x/aspnet-binxml.sock")]
    public void Rewrite_EachAddressKind_NamesTheHost(string address, string host, string expected) =>
        Assert.Equal(expected, EndpointAddresses.Rewrite(address, host));

    [Fact]
    public void For_Endpoints_RewritesAddressAndWsdlAndKeepsOnMachineOnly()
    {
        HostEndpoint[] endpoints =
        [
            new("MetroSoap11", "metro", "http://localhost:5100/benchmark", "HTTP/1.1", "SOAP 1.1", "None", "None", "http://localhost:5100/benchmark?wsdl"),
            new("AspNetUdsBinXml", "aspnet", "unix:/tmp/s.sock", "HTTP/1.1 over a Unix domain socket", "binary XML", "None", "None", OnMachineOnly: true),
        ];

        var written = EndpointAddresses.For(endpoints, "10.231.1.2");

        Assert.Equal("http://10.231.1.2:5100/benchmark?wsdl", written[0].Wsdl);
        Assert.Equal("unix:/tmp/s.sock", written[1].Address);
        Assert.True(written[1].OnMachineOnly);
    }
}
