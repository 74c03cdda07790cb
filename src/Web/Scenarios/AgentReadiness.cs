using Dashboard.Data.Agents;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Web.Scenarios;

/// <summary>
/// What the runner would say about a scenario's <c>agents</c> field if the run started now (docs/agents.md): the same
/// checks as its run command (<see cref="AgentSelection.Resolve"/>, then every chosen client technology on every agent),
/// against the agents the dashboard lists. Pure: the New run page shows the results beside the agents' choice.
/// </summary>
public static class AgentReadiness
{
    /// <summary>
    /// The refusal that no later moment can change: agents asked for while the dashboard stores in SQLite (the runner's
    /// own message, "load agents need the PostgreSQL storage …"); null when <paramref name="selection"/> is null or
    /// <paramref name="postgreSql"/> is true.
    /// </summary>
    public static string? StorageProblem(AgentSelection? selection, bool postgreSql)
    {
        if (selection is null || postgreSql)
        {
            return null;
        }

        try
        {
            selection.Resolve([], postgreSql: false);
            return null;
        }
        catch (ScenarioException e)
        {
            return Detail(e);
        }
    }

    /// <summary>
    /// Why a run queued now would be refused over <paramref name="selection"/> (PostgreSQL mode), one sentence each:
    /// agents not online or fewer online than asked for, and chosen client technologies an agent cannot run (with its
    /// reason). Empty when the selection is null or would be accepted. These can change before a run starts (an agent
    /// comes online), so they are warnings, not refusals.
    /// </summary>
    /// <param name="selection">The scenario's <c>agents</c>, or null.</param>
    /// <param name="clients">The scenario's client technology ids.</param>
    /// <param name="registered">Every registered agent (<see cref="Agents.AgentDirectory.ListAsync"/>).</param>
    /// <exception cref="ArgumentNullException"><paramref name="clients"/> or <paramref name="registered"/> is null.</exception>
    public static IReadOnlyList<string> Warnings(AgentSelection? selection, IReadOnlyList<string> clients, IReadOnlyList<AgentInfo> registered)
    {
        ArgumentNullException.ThrowIfNull(clients);
        ArgumentNullException.ThrowIfNull(registered);
        if (selection is null || selection.ValidationError() is not null)
        {
            return []; // a malformed selection is the validator's refusal, shown at the field
        }

        var online = registered.Where(a => a.State == AgentState.Online).ToDictionary(a => a.Name, StringComparer.Ordinal);
        IReadOnlyList<string> names;
        try
        {
            names = selection.Resolve(online.Keys, postgreSql: true);
        }
        catch (ScenarioException e)
        {
            return [Detail(e)];
        }

        var warnings = new List<string>();
        foreach (var client in clients.Distinct(StringComparer.Ordinal))
        {
            var lacking = names.Where(n => !online[n].Technologies.Contains(client, StringComparer.Ordinal)).ToList();
            if (lacking.Count > 0)
            {
                warnings.Add($"agent(s) {string.Join(", ", lacking.Select(n => $"'{n}'{(online[n].Unavailable.TryGetValue(client, out var why) ? $" ({why})" : "")}"))} cannot run client '{client}'");
            }
        }

        return warnings;
    }

    // The message without its "agents: " field prefix (the page labels the field itself).
    private static string Detail(ScenarioException e)
    {
        var prefix = e.Field + ": ";
        return e.Message.StartsWith(prefix, StringComparison.Ordinal) ? e.Message[prefix.Length..] : e.Message;
    }
}
