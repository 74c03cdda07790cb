using System.Text.Json.Serialization;

namespace Dashboard.Data.Agents;

/// <summary>What an agent says about itself when it registers (docs/agents.md).</summary>
/// <param name="Name">The agent's name (<c>--name</c>, default the machine name).</param>
/// <param name="Machine">The machine's host name.</param>
/// <param name="Cores">Cores the agent may use (its CPU affinity).</param>
/// <param name="Technologies">Client technologies it can run (<c>dotnet</c>, <c>wcf</c>, and <c>java</c>/<c>node</c> when their drivers and runtimes are present).</param>
/// <param name="Unavailable">Client technology → why this agent cannot run it.</param>
/// <param name="Runtimes">Runtime → version: <c>dotnet</c>, and <c>java</c>, <c>node</c> when present.</param>
/// <param name="ProcessId">The agent's process id on its machine.</param>
public sealed record AgentRegistration(
    string Name,
    string Machine,
    int Cores,
    IReadOnlyList<string> Technologies,
    IReadOnlyDictionary<string, string> Unavailable,
    IReadOnlyDictionary<string, string> Runtimes,
    int ProcessId);

/// <summary>An agent's state from its last heartbeat, as the database server's clock sees it.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<AgentState>))]
public enum AgentState
{
    /// <summary>Its last heartbeat is at most <see cref="AgentRegistry.OnlineWindow"/> old.</summary>
    Online,

    /// <summary>Its last heartbeat is older than <see cref="AgentRegistry.OnlineWindow"/> but at most <see cref="AgentRegistry.OfflineAfter"/>.</summary>
    Stale,

    /// <summary>It signed off, or its last heartbeat is older than <see cref="AgentRegistry.OfflineAfter"/>.</summary>
    Offline,
}

/// <summary>One agent as <c>GET /api/agents</c> and the Agents page list it.</summary>
/// <param name="Name">The agent's name.</param>
/// <param name="Queue">Its Hangfire queue (<see cref="AgentQueues.NameOf"/>).</param>
/// <param name="Machine">Its machine's host name.</param>
/// <param name="Cores">Cores it may use.</param>
/// <param name="Technologies">Client technologies it can run.</param>
/// <param name="Unavailable">Client technology → why it cannot run it.</param>
/// <param name="Runtimes">Runtime → version.</param>
/// <param name="ClockOffsetMs">Database server clock − agent clock, ms (<see cref="ClockOffset"/>), at its last heartbeat.</param>
/// <param name="ClockUncertaintyMs">The offset's error bound, ms (half the best round trip).</param>
/// <param name="StartedUtc">When it registered (database clock, UTC).</param>
/// <param name="LastHeartbeatUtc">Its last heartbeat (database clock, UTC).</param>
/// <param name="SecondsSinceHeartbeat">Database now − last heartbeat, s.</param>
/// <param name="State">Online, stale or offline.</param>
/// <param name="StopReason">Why it signed off; null while it runs.</param>
public sealed record AgentInfo(
    string Name,
    string Queue,
    string Machine,
    int Cores,
    IReadOnlyList<string> Technologies,
    IReadOnlyDictionary<string, string> Unavailable,
    IReadOnlyDictionary<string, string> Runtimes,
    double ClockOffsetMs,
    double ClockUncertaintyMs,
    DateTime StartedUtc,
    DateTime LastHeartbeatUtc,
    double SecondsSinceHeartbeat,
    AgentState State,
    string? StopReason);

/// <summary>Registration refused: the name is taken by a live agent, or folds to another agent's queue. The message names <c>--name</c>.</summary>
public sealed class AgentNameTakenException(string message) : Exception(message);
