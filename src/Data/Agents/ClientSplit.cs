namespace Dashboard.Data.Agents;

/// <summary>How a level's clients are split over agents (docs/agents.md): as evenly as possible, the remainder one each to the first agents.</summary>
public static class ClientSplit
{
    /// <summary>
    /// The share of each of <paramref name="agents"/> (in their order) of <paramref name="clients"/> clients: ⌊n/k⌋ each and
    /// one more for the first n mod k, e.g. 10 over 3 → 4, 3, 3. Agents beyond the client count get none and are left out.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="clients"/> is below 1 or <paramref name="agents"/> is empty.</exception>
    public static IReadOnlyList<(string Agent, int Clients)> Split(int clients, IReadOnlyList<string> agents)
    {
        ArgumentNullException.ThrowIfNull(agents);
        ArgumentOutOfRangeException.ThrowIfLessThan(clients, 1);
        ArgumentOutOfRangeException.ThrowIfZero(agents.Count);
        var each = clients / agents.Count;
        var extra = clients % agents.Count;
        return [.. agents.Select((agent, i) => (agent, each + (i < extra ? 1 : 0))).Where(s => s.Item2 > 0)];
    }
}
