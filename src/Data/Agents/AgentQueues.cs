using System.Text;

namespace Dashboard.Data.Agents;

/// <summary>
/// The Hangfire queue of an agent: Hangfire queue names are lower-case letters, digits, <c>_</c> and <c>-</c>, so the
/// agent's name is folded into that alphabet (<c>agent_</c> + the name, lower case, any other character as <c>_</c>,
/// at most 50 characters). Two names that fold to the same queue are refused at registration (docs/agents.md).
/// </summary>
public static class AgentQueues
{
    /// <summary>Longest agent name accepted, in characters.</summary>
    public const int MaxNameLength = 40;

    /// <summary>The queue of the agent named <paramref name="agentName"/>, e.g. <c>Bench-Client.2</c> → <c>agent_bench-client_2</c>.</summary>
    /// <exception cref="ArgumentException">The name is empty, longer than <see cref="MaxNameLength"/> or has a control character.</exception>
    public static string NameOf(string agentName)
    {
        ArgumentNullException.ThrowIfNull(agentName);
        if (ValidationError(agentName) is { } error)
        {
            throw new ArgumentException(error, nameof(agentName));
        }

        var queue = new StringBuilder("agent_", 6 + agentName.Length);
        foreach (var c in agentName.ToLowerInvariant())
        {
            queue.Append(c is (>= 'a' and <= 'z') or (>= '0' and <= '9') or '_' or '-' ? c : '_');
        }

        return queue.ToString();
    }

    /// <summary>Why <paramref name="agentName"/> cannot name an agent (one line naming <c>--name</c>), or null when it can.</summary>
    public static string? ValidationError(string agentName) =>
        string.IsNullOrWhiteSpace(agentName) ? "--name: give a name (letters, digits, '-', '_', '.')"
        : agentName.Length > MaxNameLength ? $"--name: at most {MaxNameLength} characters (got {agentName.Length})"
        : agentName.Any(c => char.IsControl(c) || char.IsWhiteSpace(c)) ? $"--name: '{agentName}' has a space or control character"
        : null;
}
