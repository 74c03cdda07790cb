using Dashboard.Data.Agents;

namespace Dashboard.Web.Agents;

/// <summary>
/// The agents the dashboard knows (docs/agents.md): those registered in the PostgreSQL database, read afresh on every call
/// (their state comes from the database's clock). In SQLite mode there are none: agents share work through PostgreSQL.
/// </summary>
public sealed class AgentDirectory
{
    private readonly Func<CancellationToken, Task<IReadOnlyList<AgentInfo>>>? _list;

    /// <summary>Creates the directory; <paramref name="connectionString"/> null: SQLite mode, no agents.</summary>
    public AgentDirectory(string? connectionString)
    {
        if (connectionString is not null)
        {
            var registry = new AgentRegistry(connectionString);
            _list = registry.ListAsync;
        }
    }

    /// <summary>
    /// Creates a directory of the PostgreSQL mode whose agents come from <paramref name="list"/> (every registered agent by
    /// name, as <see cref="AgentRegistry.ListAsync"/> gives them); for component tests, which have no PostgreSQL server.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="list"/> is null.</exception>
    public AgentDirectory(Func<CancellationToken, Task<IReadOnlyList<AgentInfo>>> list) =>
        _list = list ?? throw new ArgumentNullException(nameof(list));

    /// <summary>Whether agents are possible here (PostgreSQL mode).</summary>
    public bool Enabled => _list is not null;

    /// <summary>Why there are no agents in SQLite mode (one line for the page and the API).</summary>
    public const string DisabledReason = "agents need the PostgreSQL mode (Dashboard:Storage=PostgreSql with ConnectionStrings:Results); this dashboard stores in SQLite";

    /// <summary>Every registered agent by name; empty in SQLite mode.</summary>
    /// <exception cref="Npgsql.NpgsqlException">The database cannot be reached.</exception>
    public Task<IReadOnlyList<AgentInfo>> ListAsync(CancellationToken cancellationToken) =>
        _list is null ? Task.FromResult<IReadOnlyList<AgentInfo>>([]) : _list(cancellationToken);
}
