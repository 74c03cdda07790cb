using Dashboard.Data.Agents;

namespace Dashboard.Data.Tests.Agents;

public sealed class AgentQueuesTests
{
    [Theory]
    [InlineData("Bench-Client.2", "agent_bench-client_2")]
    [InlineData("agent_1", "agent_agent_1")]
    public void NameOf_AgentName_LowerCaseLettersDigitsUnderscoreDash(string name, string queue) =>
        Assert.Equal(queue, AgentQueues.NameOf(name));

    [Theory]
    [InlineData("")]
    [InlineData("two words")]
    [InlineData("a-name-that-is-much-longer-than-forty-characters")]
    public void ValidationError_BadName_NamesTheOption(string name) =>
        Assert.StartsWith("--name:", AgentQueues.ValidationError(name), StringComparison.Ordinal);
}
