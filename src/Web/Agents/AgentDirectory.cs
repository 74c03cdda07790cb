using Dashboard.Data.Agents;

namespace Dashboard.Web.Agents;

/// <summary>
/// The agents the dashboard knows (docs/agents.md): those registered in the PostgreSQL database, read afresh on every call
/// (their state comes from the database's clock). In SQLite mode there are none: agents share work through PostgreSQL.
/// </summary>
public sealed class AgentDirectory
{
    private readonly AgentRegistry? _registry;

    /// <summary>Creates the directory; <paramref name="connectionString"/> null: SQLite mode, no agents.</summary>
    public AgentDirectory(string? connectionString) => _registry = connectionString is null ? null : new AgentRegistry(connectionString);

    /// <summary>Whether agents are possible here (PostgreSQL mode).</summary>
    public bool Enabled => _registry is not null;

    /// <summary>Why there are no agents in SQLite mode (one line for the page and the API).</summary>
    public const string DisabledReason = "agents need the PostgreSQL mode (Dashboard:Storage=PostgreSql with ConnectionStrings:Results); this dashboard stores in SQLite";

    /// <summary>Every registered agent by name; empty in SQLite mode.</summary>
    /// <exception cref="Npgsql.NpgsqlException">The database cannot be reached.</exception>
    public Task<IReadOnlyList<AgentInfo>> ListAsync(CancellationToken cancellationToken) =>
        _registry is null ? Task.FromResult<IReadOnlyList<AgentInfo>>([]) : _registry.ListAsync(cancellationToken);
}
