using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The scenario field <c>topology</c> and its companions <c>linkRateMbps</c> and <c>hostCores</c> (docs/topologies.md).</summary>
public class ScenarioTopologyTests
{
    private static string Document(string variants, string extra) => $$"""
        {"name":"t","host":"http://localhost:5090","variants":[{{variants}}],"clients":["dotnet"],"payloads":["Int"],"levels":[1],"requestsPerClient":1{{extra}}}
        """;

    [Fact]
    public void Parse_NoTopology_SameMachineWithoutLinkOrCores()
    {
        var scenario = ScenarioLoader.Parse(Document("\"AspNetUdsBinXml\"", ""));

        Assert.Equal(Topology.SameMachine, scenario.Topology);
        Assert.Null(scenario.LinkRateMbps);
        Assert.Null(scenario.HostCores);
    }

    [Fact]
    public void Parse_EmulatedLanWithRateAndCores_ReadsThemAndRoundTrips()
    {
        var scenario = ScenarioLoader.Parse(Document("\"AspNetH2BinXml\"", ",\"topology\":\"emulated-lan\",\"linkRateMbps\":1000,\"hostCores\":1"));

        Assert.Equal((Topology.EmulatedLan, 1000, 1), (scenario.Topology, scenario.LinkRateMbps!.Value, scenario.HostCores!.Value));
        Assert.Equal(scenario, ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario)) with { Variants = scenario.Variants, Clients = scenario.Clients, Payloads = scenario.Payloads, Levels = scenario.Levels });
    }

    [Theory]
    [InlineData("emulated-lan", "variants[1]")]
    [InlineData("remote", "variants[1]")]
    public void Parse_UnixSocketVariantCrossMachine_RefusedNamingTheVariant(string topology, string field)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document("\"AspNetH2BinXml\",\"AspNetUdsBinXmlPeer\"", $",\"topology\":\"{topology}\"")));

        Assert.Equal(field, error.Field);
        Assert.Contains("on-machine only", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(",\"topology\":\"lan\"", "topology")]
    [InlineData(",\"linkRateMbps\":100", "linkRateMbps")]
    [InlineData(",\"topology\":\"remote\",\"hostCores\":1", "hostCores")]
    [InlineData(",\"topology\":\"emulated-lan\",\"linkRateMbps\":0", "linkRateMbps")]
    [InlineData(",\"topology\":\"emulated-lan\",\"hostCores\":0", "hostCores")]
    public void Parse_BadTopologyFields_RefusedNamingTheField(string extra, string field)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document("\"AspNetH2BinXml\"", extra)));

        Assert.Equal(field, error.Field);
    }

    [Fact]
    public void Describe_EachTopology_ThesisWords()
    {
        Assert.Equal("on-machine", Topology.Describe(Topology.SameMachine, null));
        Assert.Equal("cross-machine (emulated LAN, 100 Mbit/s)", Topology.Describe(Topology.EmulatedLan, null));
        Assert.Equal("cross-machine (emulated LAN, 1 Gbit/s)", Topology.Describe(Topology.EmulatedLan, 1000));
        Assert.Equal("cross-machine (remote host)", Topology.Describe(Topology.Remote, null));
    }
}
