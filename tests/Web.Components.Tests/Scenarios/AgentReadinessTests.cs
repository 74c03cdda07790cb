using Dashboard.Data.Agents;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Components.Tests.Support;
using Dashboard.Web.Scenarios;

namespace Dashboard.Web.Components.Tests.Scenarios;

/// <summary>What the runner would say about the agents field now: SQLite refused for good, the rest warnings.</summary>
public sealed class AgentReadinessTests
{
    [Fact]
    public void StorageProblem_SqliteWithAgents_TheRunnersRefusalWithoutTheFieldPrefix()
    {
        var problem = AgentReadiness.StorageProblem(AgentSelection.Named("bench-1"), postgreSql: false);

        Assert.StartsWith("load agents need the PostgreSQL storage", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void StorageProblem_PostgreSqlOrNoAgents_Null()
    {
        Assert.Null(AgentReadiness.StorageProblem(AgentSelection.Named("bench-1"), postgreSql: true));
        Assert.Null(AgentReadiness.StorageProblem(null, postgreSql: false));
    }

    [Fact]
    public void Warnings_NamedAgentOffline_NamesItAndTheOnlineOnes()
    {
        AgentInfo[] registered = [DashboardContext.Agent("bench-1"), DashboardContext.Agent("bench-2", AgentState.Offline)];

        var warnings = AgentReadiness.Warnings(AgentSelection.Named("bench-1", "bench-2"), ["dotnet"], registered);

        Assert.Equal("agent(s) 'bench-2' not online; online: bench-1", Assert.Single(warnings));
    }

    [Fact]
    public void Warnings_MoreAgentsThanOnline_SaysHowMany()
    {
        var warnings = AgentReadiness.Warnings(AgentSelection.Of(2), ["dotnet"], [DashboardContext.Agent("bench-1")]);

        Assert.Equal("2 agents asked for, 1 online (bench-1)", Assert.Single(warnings));
    }

    [Fact]
    public void Warnings_AgentWithoutJava_NamesAgentClientAndReason()
    {
        AgentInfo[] registered = [DashboardContext.Agent("bench-1"), DashboardContext.Agent("bench-2", technologies: ["dotnet", "java"])];

        var warnings = AgentReadiness.Warnings(AgentSelection.Named("bench-1", "bench-2"), ["dotnet", "java"], registered);

        Assert.Equal("agent(s) 'bench-1' (no java on PATH) cannot run client 'java'", Assert.Single(warnings));
    }

    [Fact]
    public void Warnings_OnlineWithEveryClient_Empty()
    {
        var warnings = AgentReadiness.Warnings(AgentSelection.Named("bench-1"), ["dotnet", "wcf"], [DashboardContext.Agent("bench-1")]);

        Assert.Empty(warnings);
    }
}
