using Npgsql;

namespace Dashboard.Data.Agents;

/// <summary>
/// The start barrier of a level spread over several agents (docs/agents.md, "A level over several agents"), through the
/// database: table <c>dashboard_level_barriers</c>, one row per (barrier, agent). Each agent measures its clock offset
/// afresh and says it is ready; once all are, the coordinator sets one start instant on the database's clock
/// (<c>now() + lead</c>); each agent converts it to its own clock with its offset, starts then, and records its actual
/// start converted back to the database's clock. The start skew bound is (latest − earliest actual start) plus the two
/// largest offset uncertainties (each actual start is known on the database's clock within its agent's uncertainty).
/// Like <see cref="AgentRegistry"/>, coordination state of the PostgreSQL mode kept out of the EF Core model.
/// </summary>
public static class LevelBarrier
{
    private const string Schema = """
        CREATE TABLE IF NOT EXISTS dashboard_level_barriers (
            barrier uuid NOT NULL,
            agent text NOT NULL,
            clients integer NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            ready_at timestamptz NULL,
            clock_offset_ms double precision NULL,
            clock_uncertainty_ms double precision NULL,
            start_at timestamptz NULL,
            actual_start timestamptz NULL,
            ended_at timestamptz NULL,
            completed integer NULL,
            failed integer NULL,
            load_start timestamptz NULL,
            load_end timestamptz NULL,
            generator_cpu_percent double precision NULL,
            error text NULL,
            abandoned text NULL,
            PRIMARY KEY (barrier, agent));
        ALTER TABLE dashboard_level_barriers ADD COLUMN IF NOT EXISTS cores_busy_percent double precision NULL
        """;

    /// <summary>Creates <c>dashboard_level_barriers</c> if it is missing (under the registry's schema lock).</summary>
    public static async Task EnsureSchemaAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using (var lockCommand = new NpgsqlCommand($"SELECT pg_advisory_xact_lock({AgentRegistry.SchemaLock})", connection, transaction))
        {
            await lockCommand.ExecuteNonQueryAsync(cancellationToken);
        }

        await using (var create = new NpgsqlCommand(Schema, connection, transaction))
        {
            await create.ExecuteNonQueryAsync(cancellationToken);
        }

        await transaction.CommitAsync(cancellationToken);
    }

    /// <summary>Coordinator: a new barrier with one row per agent and its share of the clients.</summary>
    public static async Task<Guid> CreateAsync(NpgsqlConnection connection, IReadOnlyList<(string Agent, int Clients)> shares, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(shares);
        var barrier = Guid.NewGuid();
        await using var batch = new NpgsqlBatch(connection);
        foreach (var (agent, clients) in shares)
        {
            var command = new NpgsqlBatchCommand("INSERT INTO dashboard_level_barriers (barrier, agent, clients) VALUES ($1, $2, $3)");
            command.Parameters.Add(new NpgsqlParameter { Value = barrier });
            command.Parameters.Add(new NpgsqlParameter { Value = agent });
            command.Parameters.Add(new NpgsqlParameter { Value = clients });
            batch.BatchCommands.Add(command);
        }

        await batch.ExecuteNonQueryAsync(cancellationToken);
        return barrier;
    }

    /// <summary>Agent: ready, with the clock offset it will convert the start with.</summary>
    /// <returns>The agent's share of the clients; null when the barrier was abandoned (the coordinator gave up) or has no row for it.</returns>
    public static async Task<int?> ReadyAsync(NpgsqlConnection connection, Guid barrier, string agent, ClockOffset offset, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(offset);
        await using var command = new NpgsqlCommand("""
            UPDATE dashboard_level_barriers SET ready_at = now(), clock_offset_ms = $3, clock_uncertainty_ms = $4
            WHERE barrier = $1 AND agent = $2 AND abandoned IS NULL RETURNING clients
            """, connection);
        command.Parameters.Add(new NpgsqlParameter { Value = barrier });
        command.Parameters.Add(new NpgsqlParameter { Value = agent });
        command.Parameters.Add(new NpgsqlParameter { Value = offset.OffsetMs });
        command.Parameters.Add(new NpgsqlParameter { Value = offset.UncertaintyMs });
        return await command.ExecuteScalarAsync(cancellationToken) is int clients ? clients : null;
    }

    /// <summary>
    /// Coordinator: waits until every agent of <paramref name="barrier"/> is ready, then sets the start at
    /// <c>now() + lead</c> (database clock). If some are not ready within <paramref name="timeout"/>, abandons the barrier
    /// (the ready agents give up without starting) and throws.
    /// </summary>
    /// <returns>The agreed start, database clock (UTC).</returns>
    /// <exception cref="BarrierTimeoutException">Agents did not answer in time; the message names them.</exception>
    /// <exception cref="BarrierFailedException">An agent failed before it was ready (its reason); the barrier is abandoned.</exception>
    public static async Task<DateTime> ReleaseWhenReadyAsync(NpgsqlConnection connection, Guid barrier, TimeSpan timeout, TimeSpan lead, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            var missing = await NotReadyAsync(connection, barrier, cancellationToken);
            if (missing.Count == 0)
            {
                break;
            }

            // An agent that failed before it was ready (host unreachable, client unavailable) says why at once.
            if ((await ReadAsync(connection, barrier, cancellationToken)).FirstOrDefault(r => r.Error is not null && r.ReadyUtc is null) is { } failed)
            {
                await AbandonAsync(connection, barrier, failed.Error!, cancellationToken);
                throw new BarrierFailedException(failed.Agent, failed.Error!);
            }

            if (DateTime.UtcNow >= deadline)
            {
                var reason = $"agent{(missing.Count == 1 ? "" : "s")} {string.Join(", ", missing)} did not answer the start barrier within {timeout.TotalSeconds:0} s";
                await AbandonAsync(connection, barrier, reason, cancellationToken);
                throw new BarrierTimeoutException(missing, reason);
            }

            await Task.Delay(50, cancellationToken);
        }

        await using var release = new NpgsqlCommand(
            "UPDATE dashboard_level_barriers SET start_at = now() + $2 WHERE barrier = $1 RETURNING start_at", connection);
        release.Parameters.Add(new NpgsqlParameter { Value = barrier });
        release.Parameters.Add(new NpgsqlParameter { Value = lead });
        return (DateTime)(await release.ExecuteScalarAsync(cancellationToken))!;
    }

    /// <summary>Coordinator: marks the barrier abandoned with <paramref name="reason"/>; agents waiting on it give up.</summary>
    public static async Task AbandonAsync(NpgsqlConnection connection, Guid barrier, string reason, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        await using var command = new NpgsqlCommand("UPDATE dashboard_level_barriers SET abandoned = $2 WHERE barrier = $1", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = barrier });
        command.Parameters.Add(new NpgsqlParameter { Value = reason });
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <summary>Agent: whether the coordinator abandoned <paramref name="barrier"/> (the level was cancelled or failed): its load should stop.</summary>
    public static async Task<bool> IsAbandonedAsync(NpgsqlConnection connection, Guid barrier, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        await using var command = new NpgsqlCommand("SELECT count(*) FROM dashboard_level_barriers WHERE barrier = $1 AND abandoned IS NOT NULL", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = barrier });
        return (long)(await command.ExecuteScalarAsync(cancellationToken))! > 0;
    }

    /// <summary>
    /// Agent: waits for the start instant (polling every 10 ms), then until it comes on the local clock
    /// (<c>start − offset</c>; the last 2 ms spun, not slept), and records the actual start on the database's clock.
    /// </summary>
    /// <returns>The actual start, local clock (UTC); null when the barrier was abandoned or <paramref name="timeout"/> passed without a start.</returns>
    public static async Task<DateTime?> WaitForStartAsync(NpgsqlConnection connection, Guid barrier, string agent, ClockOffset offset, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(offset);
        var deadline = DateTime.UtcNow + timeout;
        DateTime startAt;
        await using (var poll = new NpgsqlCommand("SELECT start_at, abandoned FROM dashboard_level_barriers WHERE barrier = $1 AND agent = $2", connection))
        {
            poll.Parameters.Add(new NpgsqlParameter { Value = barrier });
            poll.Parameters.Add(new NpgsqlParameter { Value = agent });
            await poll.PrepareAsync(cancellationToken);
            while (true)
            {
                await using var reader = await poll.ExecuteReaderAsync(cancellationToken);
                if (!await reader.ReadAsync(cancellationToken) || !reader.IsDBNull(1))
                {
                    return null;
                }

                if (!reader.IsDBNull(0))
                {
                    startAt = reader.GetFieldValue<DateTime>(0);
                    break;
                }

                await reader.DisposeAsync();
                if (DateTime.UtcNow >= deadline)
                {
                    return null;
                }

                await Task.Delay(10, cancellationToken);
            }
        }

        var localStart = startAt.ToUniversalTime().AddMilliseconds(-offset.OffsetMs);
        var wait = localStart - DateTime.UtcNow - TimeSpan.FromMilliseconds(2);
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, cancellationToken);
        }

        while (DateTime.UtcNow < localStart)
        {
            Thread.SpinWait(50);
        }

        var actual = DateTime.UtcNow;
        await using var record = new NpgsqlCommand("UPDATE dashboard_level_barriers SET actual_start = $3 WHERE barrier = $1 AND agent = $2", connection);
        record.Parameters.Add(new NpgsqlParameter { Value = barrier });
        record.Parameters.Add(new NpgsqlParameter { Value = agent });
        record.Parameters.Add(new NpgsqlParameter { Value = actual.AddMilliseconds(offset.OffsetMs) });
        await record.ExecuteNonQueryAsync(cancellationToken);
        return actual;
    }

    /// <summary>
    /// Agent: its share ended: <paramref name="completed"/> successful and <paramref name="failed"/> failed requests between
    /// <paramref name="loadStartUtc"/> and <paramref name="loadEndUtc"/> (converted to the database clock), at
    /// <paramref name="generatorCpuPercent"/> generator CPU (% of the agent's cores); or it failed with <paramref name="error"/>.
    /// </summary>
    public static async Task EndAsync(NpgsqlConnection connection, Guid barrier, string agent, ShareOutcome outcome, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(outcome);
        await using var command = new NpgsqlCommand("""
            UPDATE dashboard_level_barriers SET ended_at = now(), completed = $3, failed = $4, load_start = $5, load_end = $6, generator_cpu_percent = $7, error = $8,
                cores_busy_percent = $9
            WHERE barrier = $1 AND agent = $2
            """, connection);
        command.Parameters.Add(new NpgsqlParameter { Value = barrier });
        command.Parameters.Add(new NpgsqlParameter { Value = agent });
        command.Parameters.Add(new NpgsqlParameter { Value = outcome.Completed });
        command.Parameters.Add(new NpgsqlParameter { Value = outcome.Failed });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)outcome.LoadStartUtc ?? DBNull.Value });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)outcome.LoadEndUtc ?? DBNull.Value });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)outcome.GeneratorCpuPercent ?? DBNull.Value });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)outcome.Error ?? DBNull.Value });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)outcome.CoresBusyPercent ?? DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Double });
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <summary>The barrier's rows as they stand.</summary>
    public static async Task<IReadOnlyList<BarrierParticipant>> ReadAsync(NpgsqlConnection connection, Guid barrier, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        await using var command = new NpgsqlCommand("""
            SELECT agent, clients, ready_at, clock_offset_ms, clock_uncertainty_ms, start_at, actual_start, ended_at, completed, error,
                   failed, load_start, load_end, generator_cpu_percent, cores_busy_percent
            FROM dashboard_level_barriers WHERE barrier = $1 ORDER BY agent
            """, connection);
        command.Parameters.Add(new NpgsqlParameter { Value = barrier });
        var rows = new List<BarrierParticipant>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            rows.Add(new BarrierParticipant(reader.GetString(0), reader.GetInt32(1),
                reader.IsDBNull(2) ? null : reader.GetFieldValue<DateTime>(2),
                reader.IsDBNull(3) ? null : reader.GetDouble(3),
                reader.IsDBNull(4) ? null : reader.GetDouble(4),
                reader.IsDBNull(5) ? null : reader.GetFieldValue<DateTime>(5),
                reader.IsDBNull(6) ? null : reader.GetFieldValue<DateTime>(6),
                reader.IsDBNull(7) ? null : reader.GetFieldValue<DateTime>(7),
                reader.IsDBNull(8) ? null : reader.GetInt32(8),
                reader.IsDBNull(9) ? null : reader.GetString(9))
            {
                Failed = reader.IsDBNull(10) ? null : reader.GetInt32(10),
                LoadStartUtc = reader.IsDBNull(11) ? null : reader.GetFieldValue<DateTime>(11),
                LoadEndUtc = reader.IsDBNull(12) ? null : reader.GetFieldValue<DateTime>(12),
                GeneratorCpuPercent = reader.IsDBNull(13) ? null : reader.GetDouble(13),
                CoresBusyPercent = reader.IsDBNull(14) ? null : reader.GetDouble(14),
            });
        }

        return rows;
    }

    /// <summary>
    /// The start skew bound of <paramref name="participants"/> in ms: latest − earliest actual start (database clock) plus
    /// the two largest offset uncertainties; null until every participant has started.
    /// </summary>
    public static double? SkewBoundMs(IReadOnlyList<BarrierParticipant> participants)
    {
        ArgumentNullException.ThrowIfNull(participants);
        if (participants.Count == 0 || participants.Any(p => p.ActualStartUtc is null))
        {
            return null;
        }

        var starts = participants.Select(p => p.ActualStartUtc!.Value).ToList();
        var spread = (starts.Max() - starts.Min()).TotalMilliseconds;
        var uncertainty = participants.Select(p => p.ClockUncertaintyMs ?? 0).OrderDescending().Take(2).Sum();
        return spread + uncertainty;
    }

    private static async Task<List<string>> NotReadyAsync(NpgsqlConnection connection, Guid barrier, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand("SELECT agent FROM dashboard_level_barriers WHERE barrier = $1 AND ready_at IS NULL ORDER BY agent", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = barrier });
        var missing = new List<string>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            missing.Add(reader.GetString(0));
        }

        return missing;
    }
}

/// <summary>One agent's row of a start barrier.</summary>
/// <param name="Agent">The agent's name.</param>
/// <param name="Clients">Its share of the level's clients.</param>
/// <param name="ReadyUtc">When it said it was ready (database clock).</param>
/// <param name="ClockOffsetMs">Its clock offset at the barrier, ms.</param>
/// <param name="ClockUncertaintyMs">The offset's uncertainty, ms.</param>
/// <param name="StartAtUtc">The agreed start (database clock).</param>
/// <param name="ActualStartUtc">Its actual start, converted to the database clock.</param>
/// <param name="EndedUtc">When its share ended (database clock).</param>
/// <param name="Completed">Requests it completed.</param>
/// <param name="Error">Why its share failed, or null.</param>
public sealed record BarrierParticipant(string Agent, int Clients, DateTime? ReadyUtc, double? ClockOffsetMs, double? ClockUncertaintyMs,
    DateTime? StartAtUtc, DateTime? ActualStartUtc, DateTime? EndedUtc, int? Completed, string? Error)
{
    /// <summary>Requests that failed (errors and timeouts).</summary>
    public int? Failed { get; init; }

    /// <summary>Its first request's start, database clock.</summary>
    public DateTime? LoadStartUtc { get; init; }

    /// <summary>Its last request's end, database clock.</summary>
    public DateTime? LoadEndUtc { get; init; }

    /// <summary>The agent's generator CPU during its share, % of its cores.</summary>
    public double? GeneratorCpuPercent { get; init; }

    /// <summary>How busy the agent's cores were during its share, by any process, % (0–100); null when not measured.</summary>
    public double? CoresBusyPercent { get; init; }
}

/// <summary>What an agent reports when its share of a level ends.</summary>
/// <param name="Completed">Successful requests.</param>
/// <param name="Failed">Failed requests.</param>
/// <param name="LoadStartUtc">First request's start, database clock.</param>
/// <param name="LoadEndUtc">Last request's end, database clock.</param>
/// <param name="GeneratorCpuPercent">Generator CPU, % of the agent's cores.</param>
/// <param name="Error">Why the share failed, or null.</param>
public sealed record ShareOutcome(int Completed, int Failed, DateTime? LoadStartUtc, DateTime? LoadEndUtc, double? GeneratorCpuPercent, string? Error)
{
    /// <summary>How busy the agent's cores were during its share, by any process, % (0–100); null when not measured.</summary>
    public double? CoresBusyPercent { get; init; }
}

/// <summary>Agents did not answer a start barrier in time: the level fails before it starts. The message names them.</summary>
public sealed class BarrierTimeoutException(IReadOnlyList<string> missing, string message) : Exception(message)
{
    /// <summary>The agents that did not answer.</summary>
    public IReadOnlyList<string> Missing { get; } = missing;
}

/// <summary>An agent failed before it was ready at a start barrier: the level fails before it starts. The message is the agent's reason.</summary>
public sealed class BarrierFailedException(string agent, string message) : Exception(message)
{
    /// <summary>The agent that failed.</summary>
    public string Agent { get; } = agent;
}
