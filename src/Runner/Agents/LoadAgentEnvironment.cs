namespace Dashboard.Runner.Agents;

/// <summary>One load agent of a run, as it registered (docs/agents.md): the generator machine of its share of every level.</summary>
/// <param name="Name">The agent's name.</param>
/// <param name="Machine">Its machine's host name.</param>
/// <param name="Cores">Cores it may use.</param>
/// <param name="Runtimes">Runtime → version (.NET, Java, Node).</param>
/// <param name="ClockOffsetMs">Database clock − agent clock at its last heartbeat before the run, ms.</param>
/// <param name="ClockUncertaintyMs">The offset's error bound, ms.</param>
public sealed record LoadAgentEnvironment(string Name, string Machine, int Cores, IReadOnlyDictionary<string, string> Runtimes, double ClockOffsetMs, double ClockUncertaintyMs)
{
    /// <summary>The environment record of a registered agent.</summary>
    public static LoadAgentEnvironment Of(Data.Agents.AgentInfo agent)
    {
        ArgumentNullException.ThrowIfNull(agent);
        return new(agent.Name, agent.Machine, agent.Cores, agent.Runtimes, agent.ClockOffsetMs, agent.ClockUncertaintyMs);
    }
}
