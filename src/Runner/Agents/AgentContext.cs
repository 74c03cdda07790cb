using Dashboard.Data.Agents;
using Dashboard.Runner.Clients;
using Hangfire;

namespace Dashboard.Runner.Agents;

/// <summary>What the agent's jobs need: its name, the registry, its client drivers and the token that ends with the agent.</summary>
/// <param name="Name">The agent's name.</param>
/// <param name="Registry">The agents' registry on the deployment's database.</param>
/// <param name="Drivers">The client technologies this agent runs.</param>
/// <param name="Stopping">Cancelled when the agent stops or loses the database: a job's load stops with it.</param>
public sealed record AgentContext(string Name, AgentRegistry Registry, ClientDriverRegistry Drivers, CancellationToken Stopping)
{
    /// <summary>The service host's security folder on this machine (<see cref="AgentSettings.SecurityDirectory"/>).</summary>
    public string SecurityDirectory { get; init; } = Service.Contracts.Security.HostDataDirectory.DefaultSecurityDirectory;
}

/// <summary>Makes the agent's job objects with its <see cref="AgentContext"/> (Hangfire's default activator needs parameterless types).</summary>
public sealed class AgentJobActivator(AgentContext context) : JobActivator
{
    /// <inheritdoc />
    public override object ActivateJob(Type jobType) =>
        jobType == typeof(AgentJobs) ? new AgentJobs(context) : base.ActivateJob(jobType);
}
