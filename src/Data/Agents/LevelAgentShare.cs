using System.Text.Json;

namespace Dashboard.Data.Agents;

/// <summary>
/// One agent's part in a level spread over several agents, as the level stores it (<see cref="Entities.LevelEntity.AgentsJson"/>;
/// docs/agents.md, "A level over several agents").
/// </summary>
/// <param name="Agent">The agent's name.</param>
/// <param name="Clients">Its share of the level's clients (<see cref="ClientSplit"/>).</param>
/// <param name="Completed">Successful measured requests it reported; null when it reported nothing.</param>
/// <param name="Failed">Failed measured requests it reported; null when it reported nothing.</param>
/// <param name="GeneratorCpuPercent">Its generator CPU during its share, % of the cores it may use (0–100); null when not measured.</param>
/// <param name="ClockOffsetMs">Database clock − agent clock at the barrier, ms.</param>
/// <param name="ClockUncertaintyMs">The offset's error bound, ms.</param>
/// <param name="StartOffsetMs">Its actual start after the earliest agent's actual start (database clock), ms; null when it did not start.</param>
/// <param name="Error">Why its share failed, or null.</param>
public sealed record LevelAgentShare(string Agent, int Clients, int? Completed, int? Failed, double? GeneratorCpuPercent,
    double? ClockOffsetMs, double? ClockUncertaintyMs, double? StartOffsetMs, string? Error)
{
    /// <summary>How busy the agent's cores were during its share, by any process, % (0–100); null when not measured.</summary>
    public double? CoresBusyPercent { get; init; }

    /// <summary>The shares of a level from its barrier's rows.</summary>
    public static IReadOnlyList<LevelAgentShare> FromBarrier(IReadOnlyList<BarrierParticipant> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        var starts = rows.Where(r => r.ActualStartUtc is not null).Select(r => r.ActualStartUtc!.Value).ToList();
        DateTime? earliest = starts.Count == 0 ? null : starts.Min();
        return [.. rows.Select(r => new LevelAgentShare(r.Agent, r.Clients, r.Completed, r.Failed, r.GeneratorCpuPercent, r.ClockOffsetMs, r.ClockUncertaintyMs,
            r.ActualStartUtc is { } s && earliest is { } e ? (s - e).TotalMilliseconds : null, r.Error) { CoresBusyPercent = r.CoresBusyPercent })];
    }

    /// <summary>The shares as stored in <see cref="Entities.LevelEntity.AgentsJson"/>.</summary>
    public static string ToJson(IReadOnlyList<LevelAgentShare> shares) => JsonSerializer.Serialize(shares, JsonSerializerOptions.Web);

    /// <summary>The shares of <see cref="Entities.LevelEntity.AgentsJson"/>; empty for null or unreadable JSON.</summary>
    public static IReadOnlyList<LevelAgentShare> FromJson(string? json)
    {
        if (string.IsNullOrWhiteSpace(json))
        {
            return [];
        }

        try
        {
            return JsonSerializer.Deserialize<List<LevelAgentShare>>(json, JsonSerializerOptions.Web) ?? [];
        }
        catch (JsonException)
        {
            return [];
        }
    }

    /// <summary>"agent-1 10, agent-2 10, agent-3 10": the split as a line for tables and CSV.</summary>
    public static string Describe(IReadOnlyList<LevelAgentShare> shares) =>
        string.Join(", ", (shares ?? []).Select(s => $"{s.Agent} {s.Clients}"));
}
