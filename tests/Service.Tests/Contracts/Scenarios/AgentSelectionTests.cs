using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The scenario field <c>agents</c> (docs/agents.md): a count or names, its shape checks and its resolution at run start.</summary>
public class AgentSelectionTests
{
    private const string Valid = """
        {
          "name": "agents",
          "host": "http://localhost:5090",
          "variants": ["AspNetHttpJson"],
          "clients": ["dotnet"],
          "payloads": ["Int"],
          "levels": [30],
          "duration": "00:00:05",
          "agents": AGENTS
        }
        """;

    private static string With(string agents) => Valid.Replace("AGENTS", agents, StringComparison.Ordinal);

    [Fact]
    public void Parse_Count_ReadsItAndWritesItBack()
    {
        var scenario = ScenarioLoader.Parse(With("3"));

        Assert.Equal(AgentSelection.Of(3), scenario.Agents);
        Assert.Contains("\"agents\": 3", ScenarioLoader.ToJson(scenario), StringComparison.Ordinal);
        Assert.Equal(3, ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario)).Agents!.Count);
    }

    [Fact]
    public void Parse_Names_ReadsThemInOrderAndRoundTrips()
    {
        var scenario = ScenarioLoader.Parse(With("""["bench-2", "bench-1"]"""));

        Assert.Equal(["bench-2", "bench-1"], scenario.Agents!.Names);
        Assert.Equal(["bench-2", "bench-1"], ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario)).Agents!.Names);
    }

    [Fact]
    public void Parse_NoAgentsField_LeavesTheLoadToTheRunner()
    {
        var scenario = ScenarioLoader.Parse(Valid.Replace(",\n  \"agents\": AGENTS", "", StringComparison.Ordinal).Replace(",\r\n  \"agents\": AGENTS", "", StringComparison.Ordinal));

        Assert.Null(scenario.Agents);
        Assert.DoesNotContain("\"agents\":", ScenarioLoader.ToJson(scenario), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("0", "out of range")]
    [InlineData("65", "out of range")]
    [InlineData("[]", "give 1..64 agent names")]
    [InlineData("""["a", "a"]""", "agent 'a' is listed twice")]
    [InlineData("""["two words"]""", "'two words' is not an agent name")]
    [InlineData("\"three\"", "a number of agents or an array of agent names")]
    [InlineData("[1]", "each agent name is a string")]
    [InlineData("2.5", "whole number")]
    public void Parse_BadAgents_RefusedNamingTheField(string agents, string reason)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(With(agents)));

        Assert.Equal("agents", error.Field);
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_AgentsWithEmulatedLan_RefusedNamingAgents()
    {
        var json = With("2").Replace("\"levels\": [30],", "\"levels\": [30], \"topology\": \"emulated-lan\",", StringComparison.Ordinal);

        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));

        Assert.Equal("agents", error.Field);
        Assert.Contains("emulated-lan", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("\"duration\": \"00:00:05\"", "\"requestsPerClient\": 20", "requestsPerClient", "levels over load agents are timed")]
    [InlineData("\"duration\": \"00:00:05\"", "\"duration\": \"00:00:05\", \"steadyState\": \"defaults\"", "steadyState", "detected by one generator")]
    public void Parse_AgentsWithWhatALevelOverAgentsCannotDo_RefusedNamingThatField(string from, string to, string field, string reason)
    {
        var json = With("2").Replace(from, to, StringComparison.Ordinal);

        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));

        Assert.Equal(field, error.Field);
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        // The same document without agents is valid.
        Assert.Null(ScenarioLoader.Parse(json.Replace(",\n  \"agents\": 2", "", StringComparison.Ordinal).Replace(",\r\n  \"agents\": 2", "", StringComparison.Ordinal)).Agents);
    }

    [Fact]
    public void Resolve_Count_TakesThatManyOnlineAgentsByName()
    {
        Assert.Equal(["a-1", "a-2"], AgentSelection.Of(2).Resolve(["a-3", "a-1", "a-2"], postgreSql: true));
    }

    [Fact]
    public void Resolve_MoreThanOnline_RefusedWithTheCounts()
    {
        var error = Assert.Throws<ScenarioException>(() => AgentSelection.Of(4).Resolve(["a-1", "a-2"], postgreSql: true));

        Assert.Equal("agents", error.Field);
        Assert.Contains("4 agents asked for, 2 online (a-1, a-2)", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_UnknownName_RefusedNamingIt()
    {
        var error = Assert.Throws<ScenarioException>(() => AgentSelection.Named("a-1", "ghost").Resolve(["a-1", "a-2"], postgreSql: true));

        Assert.Equal("agents", error.Field);
        Assert.Contains("'ghost' not online", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("'a-1' not", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_Names_KeepsTheirOrder()
    {
        Assert.Equal(["a-2", "a-1"], AgentSelection.Named("a-2", "a-1").Resolve(["a-1", "a-2", "a-3"], postgreSql: true));
    }

    [Fact]
    public void Resolve_SqliteMode_RefusedNamingPostgreSql()
    {
        var error = Assert.Throws<ScenarioException>(() => AgentSelection.Of(1).Resolve(["a-1"], postgreSql: false));

        Assert.Equal("agents", error.Field);
        Assert.Contains("PostgreSQL", error.Message, StringComparison.Ordinal);
    }
}
