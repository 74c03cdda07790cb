using System.Text.Json;
using Npgsql;
using NpgsqlTypes;

namespace Dashboard.Data.Agents;

/// <summary>
/// The agents of a PostgreSQL deployment (docs/agents.md): table <c>dashboard_agents</c>, one row per agent name, which
/// each agent creates if missing (under an advisory lock, so agents starting together do not race), registers in and
/// refreshes with a heartbeat. Like Hangfire's own schema it is coordination state of the PostgreSQL mode, not results,
/// so it is kept out of the EF Core model (which SQLite shares). Times are the database server's clock (<c>now()</c>),
/// so states do not depend on the agents' clocks.
/// </summary>
/// <param name="connectionString">The PostgreSQL connection string (Npgsql syntax).</param>
public sealed class AgentRegistry(string connectionString)
{
    /// <summary>An agent whose last heartbeat is at most this old is online.</summary>
    public static readonly TimeSpan OnlineWindow = TimeSpan.FromSeconds(10);

    /// <summary>An agent whose last heartbeat is older than this is offline (between the two: stale).</summary>
    public static readonly TimeSpan OfflineAfter = TimeSpan.FromSeconds(60);

    internal const long SchemaLock = 0x6461736862_6167; // "dashb" "ag": the advisory lock id of the schema creation

    private const string Schema = """
        CREATE TABLE IF NOT EXISTS dashboard_agents (
            name text PRIMARY KEY,
            queue text NOT NULL UNIQUE,
            machine text NOT NULL,
            cores integer NOT NULL,
            technologies text[] NOT NULL,
            unavailable jsonb NOT NULL,
            runtimes jsonb NOT NULL,
            clock_offset_ms double precision NOT NULL,
            clock_uncertainty_ms double precision NOT NULL,
            process_id integer NOT NULL,
            started_at timestamptz NOT NULL,
            last_heartbeat timestamptz NOT NULL,
            stopped_at timestamptz NULL,
            stop_reason text NULL)
        """;

    /// <summary>The connection string.</summary>
    public string ConnectionString { get; } = connectionString ?? throw new ArgumentNullException(nameof(connectionString));

    /// <summary>Opens a connection (the caller disposes it).</summary>
    /// <exception cref="NpgsqlException">The server cannot be reached or refuses the login.</exception>
    public async Task<NpgsqlConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new NpgsqlConnection(ConnectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            return connection;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    /// <summary>Creates <c>dashboard_agents</c> if it is missing.</summary>
    public static async Task EnsureSchemaAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using (var lockCommand = new NpgsqlCommand($"SELECT pg_advisory_xact_lock({SchemaLock})", connection, transaction))
        {
            await lockCommand.ExecuteNonQueryAsync(cancellationToken);
        }

        await using (var create = new NpgsqlCommand(Schema, connection, transaction))
        {
            await create.ExecuteNonQueryAsync(cancellationToken);
        }

        await transaction.CommitAsync(cancellationToken);
    }

    /// <summary>
    /// Registers <paramref name="agent"/> with its clock <paramref name="offset"/> (a new row, or the row of the same name
    /// taken over). A name is taken over when its agent signed off, is no longer online, or was this machine's process
    /// that no longer runs (an agent restarted at once after a kill).
    /// </summary>
    /// <exception cref="AgentNameTakenException">An online agent has this name, or another name folds to the same queue.</exception>
    public static async Task RegisterAsync(NpgsqlConnection connection, AgentRegistration agent, ClockOffset offset, Func<int, bool> processAlive, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(agent);
        ArgumentNullException.ThrowIfNull(offset);
        ArgumentNullException.ThrowIfNull(processAlive);
        var queue = AgentQueues.NameOf(agent.Name);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using (var lockCommand = new NpgsqlCommand($"SELECT pg_advisory_xact_lock({SchemaLock})", connection, transaction))
        {
            await lockCommand.ExecuteNonQueryAsync(cancellationToken);
        }

        await using (var existing = new NpgsqlCommand(
            "SELECT name, machine, process_id, stopped_at IS NULL AND now() - last_heartbeat <= @online FROM dashboard_agents WHERE name = @name OR queue = @queue", connection, transaction))
        {
            existing.Parameters.AddWithValue("name", agent.Name);
            existing.Parameters.AddWithValue("queue", queue);
            existing.Parameters.AddWithValue("online", OnlineWindow);
            await using var reader = await existing.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                var (name, machine, pid, online) = (reader.GetString(0), reader.GetString(1), reader.GetInt32(2), reader.GetBoolean(3));
                if (name != agent.Name)
                {
                    throw new AgentNameTakenException($"--name: '{agent.Name}' gives queue '{queue}', which agent '{name}' already has; choose a name that differs in more than case or punctuation");
                }

                var restartedHere = machine == agent.Machine && (pid == agent.ProcessId || !processAlive(pid));
                if (online && !restartedHere)
                {
                    throw new AgentNameTakenException($"--name: an agent named '{agent.Name}' is online (process {pid} on {machine}); stop it or give another name");
                }
            }
        }

        await using (var upsert = new NpgsqlCommand("""
            INSERT INTO dashboard_agents (name, queue, machine, cores, technologies, unavailable, runtimes, clock_offset_ms, clock_uncertainty_ms, process_id, started_at, last_heartbeat)
            VALUES (@name, @queue, @machine, @cores, @technologies, @unavailable, @runtimes, @offset, @uncertainty, @pid, now(), now())
            ON CONFLICT (name) DO UPDATE SET queue = excluded.queue, machine = excluded.machine, cores = excluded.cores, technologies = excluded.technologies,
                unavailable = excluded.unavailable, runtimes = excluded.runtimes, clock_offset_ms = excluded.clock_offset_ms,
                clock_uncertainty_ms = excluded.clock_uncertainty_ms, process_id = excluded.process_id, started_at = now(), last_heartbeat = now(),
                stopped_at = NULL, stop_reason = NULL
            """, connection, transaction))
        {
            upsert.Parameters.AddWithValue("name", agent.Name);
            upsert.Parameters.AddWithValue("queue", queue);
            upsert.Parameters.AddWithValue("machine", agent.Machine);
            upsert.Parameters.AddWithValue("cores", agent.Cores);
            upsert.Parameters.AddWithValue("technologies", agent.Technologies.ToArray());
            upsert.Parameters.AddWithValue("unavailable", NpgsqlDbType.Jsonb, JsonSerializer.Serialize(agent.Unavailable));
            upsert.Parameters.AddWithValue("runtimes", NpgsqlDbType.Jsonb, JsonSerializer.Serialize(agent.Runtimes));
            upsert.Parameters.AddWithValue("offset", offset.OffsetMs);
            upsert.Parameters.AddWithValue("uncertainty", offset.UncertaintyMs);
            upsert.Parameters.AddWithValue("pid", agent.ProcessId);
            await upsert.ExecuteNonQueryAsync(cancellationToken);
        }

        await transaction.CommitAsync(cancellationToken);
    }

    /// <summary>A heartbeat of agent <paramref name="name"/> (process <paramref name="processId"/>), with its clock offset measured again.</summary>
    /// <returns>False when the row is no longer this process's (another agent took the name over): the agent should stop.</returns>
    public static async Task<bool> HeartbeatAsync(NpgsqlConnection connection, string name, int processId, ClockOffset offset, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(offset);
        await using var command = new NpgsqlCommand(
            "UPDATE dashboard_agents SET last_heartbeat = now(), clock_offset_ms = @offset, clock_uncertainty_ms = @uncertainty WHERE name = @name AND process_id = @pid AND stopped_at IS NULL",
            connection);
        command.Parameters.AddWithValue("name", name);
        command.Parameters.AddWithValue("pid", processId);
        command.Parameters.AddWithValue("offset", offset.OffsetMs);
        command.Parameters.AddWithValue("uncertainty", offset.UncertaintyMs);
        return await command.ExecuteNonQueryAsync(cancellationToken) == 1;
    }

    /// <summary>Agent <paramref name="name"/> signs off with <paramref name="reason"/> (it is offline from now on).</summary>
    public static async Task SignOffAsync(NpgsqlConnection connection, string name, int processId, string reason, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        await using var command = new NpgsqlCommand(
            "UPDATE dashboard_agents SET stopped_at = now(), stop_reason = @reason WHERE name = @name AND process_id = @pid", connection);
        command.Parameters.AddWithValue("name", name);
        command.Parameters.AddWithValue("pid", processId);
        command.Parameters.AddWithValue("reason", reason);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <summary>
    /// The agents among <paramref name="names"/> whose process has no session on the database any more (its
    /// connections carry application name <c>dashboard-agent NAME</c>): a killed agent's sessions end as soon as the
    /// server sees its connection close, long before its heartbeat is missed.
    /// </summary>
    public static async Task<IReadOnlyList<string>> WithoutSessionAsync(NpgsqlConnection connection, IReadOnlyList<string> names, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(names);
        await using var command = new NpgsqlCommand("SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE 'dashboard-agent %'", connection);
        var live = new HashSet<string>(StringComparer.Ordinal);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            live.Add(reader.GetString(0)["dashboard-agent ".Length..]);
        }

        return [.. names.Where(n => !live.Contains(n))];
    }

    /// <summary>The application name of agent <paramref name="name"/>'s database sessions.</summary>
    public static string ApplicationName(string name) => $"dashboard-agent {name}";

    /// <summary>Every registered agent, by name, with its state by the database's clock; empty when no agent ever registered.</summary>
    /// <exception cref="NpgsqlException">The database cannot be reached.</exception>
    public async Task<IReadOnlyList<AgentInfo>> ListAsync(CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand("""
            SELECT name, queue, machine, cores, technologies, unavailable::text, runtimes::text, clock_offset_ms, clock_uncertainty_ms,
                   started_at, last_heartbeat, extract(epoch FROM now() - last_heartbeat)::double precision, stopped_at IS NOT NULL, stop_reason
            FROM dashboard_agents WHERE to_regclass('dashboard_agents') IS NOT NULL ORDER BY name
            """, connection);
        var agents = new List<AgentInfo>();
        try
        {
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                var age = reader.GetDouble(11);
                var stopped = reader.GetBoolean(12);
                var state = stopped || age > OfflineAfter.TotalSeconds ? AgentState.Offline
                    : age > OnlineWindow.TotalSeconds ? AgentState.Stale
                    : AgentState.Online;
                agents.Add(new AgentInfo(
                    reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.GetInt32(3), reader.GetFieldValue<string[]>(4),
                    JsonSerializer.Deserialize<Dictionary<string, string>>(reader.GetString(5)) ?? [],
                    JsonSerializer.Deserialize<Dictionary<string, string>>(reader.GetString(6)) ?? [],
                    reader.GetDouble(7), reader.GetDouble(8),
                    reader.GetFieldValue<DateTime>(9), reader.GetFieldValue<DateTime>(10), age, state,
                    reader.IsDBNull(13) ? null : reader.GetString(13)));
            }
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.UndefinedTable)
        {
            return [];
        }

        return agents;
    }
}
