using System.Text.Json;
using System.Text.Json.Serialization;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// The scenario field <c>agents</c> (docs/agents.md, "A level over several agents"): which load agents generate each
/// level, as a count (<c>3</c>: that many online agents, in name order) or a list of names (<c>["bench-1", "bench-2"]</c>).
/// Absent: the runner generates the load itself. Whether the agents exist and are online is checked when the run starts
/// (PostgreSQL mode only); the document checks only its shape.
/// </summary>
/// <param name="Count">How many agents, 1..<see cref="MaxAgents"/>; set when <see cref="Names"/> is null.</param>
/// <param name="Names">The agents by name; null when a count was given.</param>
[JsonConverter(typeof(AgentSelectionConverter))]
public sealed record AgentSelection(int Count, IReadOnlyList<string>? Names)
{
    /// <summary>Most agents one level may use.</summary>
    public const int MaxAgents = 64;

    /// <summary>Longest agent name, characters (as the agent command accepts it).</summary>
    public const int MaxNameLength = 40;

    /// <summary>A count of agents.</summary>
    public static AgentSelection Of(int count) => new(count, null);

    /// <summary>Agents by name.</summary>
    public static AgentSelection Named(params string[] names) => new(names.Length, names);

    /// <summary>Why this selection is not a valid <c>agents</c> value (one line), or null.</summary>
    public string? ValidationError()
    {
        if (Names is null)
        {
            return Count is < 1 or > MaxAgents ? $"{Count} is out of range; give 1..{MaxAgents} agents or a list of agent names" : null;
        }

        if (Names.Count is 0 or > MaxAgents)
        {
            return $"give 1..{MaxAgents} agent names (got {Names.Count})";
        }

        foreach (var name in Names)
        {
            if (string.IsNullOrWhiteSpace(name) || name.Length > MaxNameLength || name.Any(c => char.IsControl(c) || char.IsWhiteSpace(c)))
            {
                return $"'{ScenarioText.Shown(name ?? "null")}' is not an agent name (1..{MaxNameLength} characters, no space or control character)";
            }
        }

        return Names.Distinct(StringComparer.Ordinal).Count() != Names.Count
            ? $"agent '{Names.GroupBy(n => n, StringComparer.Ordinal).First(g => g.Count() > 1).Key}' is listed twice"
            : null;
    }

    /// <summary>
    /// The agents a level runs on: the named ones, or the first <see cref="Count"/> online agents by name.
    /// </summary>
    /// <param name="online">The names of the agents online now.</param>
    /// <param name="postgreSql">Whether the dashboard stores its results in PostgreSQL (agents need it).</param>
    /// <returns>The agents' names, in order.</returns>
    /// <exception cref="ScenarioException">Field <c>agents</c>: not in PostgreSQL mode, an agent not online (named), or more agents than are online.</exception>
    public IReadOnlyList<string> Resolve(IReadOnlyCollection<string> online, bool postgreSql)
    {
        ArgumentNullException.ThrowIfNull(online);
        if (!postgreSql)
        {
            throw new ScenarioException("agents", "load agents need the PostgreSQL storage (Dashboard:Storage=PostgreSql); this dashboard stores its results in SQLite");
        }

        if (Names is not null)
        {
            var missing = Names.Where(n => !online.Contains(n)).ToList();
            return missing.Count == 0
                ? Names
                : throw new ScenarioException("agents", $"agent(s) {string.Join(", ", missing.Select(m => $"'{m}'"))} not online; online: {(online.Count == 0 ? "none" : string.Join(", ", online.Order(StringComparer.Ordinal)))}");
        }

        return Count <= online.Count
            ? [.. online.Order(StringComparer.Ordinal).Take(Count)]
            : throw new ScenarioException("agents", $"{Count} agents asked for, {online.Count} online{(online.Count == 0 ? "" : $" ({string.Join(", ", online.Order(StringComparer.Ordinal))})")}");
    }
}

/// <summary>Reads a number or an array of strings; writes the same shape back.</summary>
internal sealed class AgentSelectionConverter : JsonConverter<AgentSelection>
{
    public override bool HandleNull => false;

    public override AgentSelection? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType == JsonTokenType.Number)
        {
            return reader.TryGetInt32(out var count) ? AgentSelection.Of(count) : throw new JsonException("agents must be a whole number of agents or an array of agent names");
        }

        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw new JsonException("agents must be a number of agents or an array of agent names");
        }

        var names = new List<string>();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            names.Add(reader.TokenType == JsonTokenType.String ? reader.GetString()! : throw new JsonException("agents: each agent name is a string"));
        }

        return new AgentSelection(names.Count, names);
    }

    public override void Write(Utf8JsonWriter writer, AgentSelection value, JsonSerializerOptions options)
    {
        if (value.Names is null)
        {
            writer.WriteNumberValue(value.Count);
            return;
        }

        writer.WriteStartArray();
        foreach (var name in value.Names)
        {
            writer.WriteStringValue(name);
        }

        writer.WriteEndArray();
    }
}
