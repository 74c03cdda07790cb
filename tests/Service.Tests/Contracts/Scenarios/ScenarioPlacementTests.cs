using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The scenario field <c>placement</c> (<see cref="Placement"/>; docs/statistics.md, "Placement: one client on one core").</summary>
public class ScenarioPlacementTests
{
    private static string Document(string extra, string levels = "[1, 20]") => $$"""
        {"name":"t","host":"http://localhost:5090","variants":["AspNetH2BinXml"],"clients":["dotnet"],"payloads":["Int"],"levels":{{levels}},"duration":"00:00:01"{{extra}}}
        """;

    [Fact]
    public void Parse_SharedCore_OnlyTheOneClientLevelSharesACore()
    {
        var scenario = ScenarioLoader.Parse(Document(",\"placement\":\"shared-core\""));

        Assert.Equal(Placement.SharedCore, scenario.Placement);
        Assert.True(Placement.SharesCore(scenario, 1));
        Assert.False(Placement.SharesCore(scenario, 20));
        Assert.Equal(Placement.SharedCore, ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario)).Placement);
    }

    [Theory]
    [InlineData("")]
    [InlineData(",\"placement\":\"free\"")]
    public void Parse_NoPlacementOrFree_NoLevelSharesACore(string extra)
    {
        var scenario = ScenarioLoader.Parse(Document(extra));

        Assert.False(Placement.SharesCore(scenario, 1));
    }

    [Theory]
    [InlineData(",\"placement\":\"pinned\"", "[1]", "is not a placement")]
    [InlineData(",\"placement\":\"shared-core\",\"topology\":\"remote\"", "[1]", "only on its own machine")]
    [InlineData(",\"placement\":\"shared-core\",\"topology\":\"emulated-lan\"", "[1]", "only on its own machine")]
    [InlineData(",\"placement\":\"shared-core\"", "[10, 20]", "has none (levels 10, 20)")]
    public void Parse_BadPlacement_RefusedNamingTheField(string extra, string levels, string said)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document(extra, levels)));

        Assert.Equal("placement", error.Field);
        Assert.Contains(said, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_SharedCoreWithOpenWorkload_Refused()
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse("""
            {"name":"t","host":"http://localhost:5090","variants":["AspNetH2BinXml"],"clients":["dotnet"],"payloads":["Int"],
             "workload":"open","rates":[100],"duration":"00:00:01","placement":"shared-core"}
            """));

        Assert.Equal("placement", error.Field);
        Assert.Contains("closed levels of one client", error.Message, StringComparison.Ordinal);
    }
}
