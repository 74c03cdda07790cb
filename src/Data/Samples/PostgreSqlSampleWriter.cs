using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Runs;
using Microsoft.EntityFrameworkCore;
using Npgsql;
using NpgsqlTypes;

namespace Dashboard.Data.Samples;

/// <summary>
/// <see cref="SampleStore"/> on PostgreSQL: one binary <c>COPY … FROM STDIN</c> per call (Npgsql's
/// <see cref="NpgsqlBinaryImporter"/>), the fastest way into PostgreSQL, with explicit ids taken as one block of the
/// <c>Samples_Id_seq</c> sequence (created by the initial migration), reserved under a short session advisory lock so
/// several writers (runners on several machines) never take overlapping blocks. The level's range is updated in the
/// same transaction as the rows.
/// </summary>
internal sealed class PostgreSqlSampleWriter : ISampleWriter
{
    /// <summary>The sequence the sample ids come from (created by the initial migration on PostgreSQL).</summary>
    internal const string IdSequence = "Samples_Id_seq";

    /// <summary>The advisory lock key (an arbitrary constant: "samples" in ASCII) held while a block of ids is reserved; 0x73616d706c6573.</summary>
    internal const string IdBlockLockKey = "32476744987207027";

    private const string CopySql = """
        COPY "Samples" ("Id", "LevelId", "ClientIndex", "StartOffsetUs", "LatencyUs", "Outcome", "IsWarmup", "RequestBytes", "ResponseBytes", "Agent")
        FROM STDIN (FORMAT BINARY)
        """;

    // nextval then setval under the lock: the block [first, first + n - 1] is this writer's alone, and consecutive.
    private const string ReserveSql = $"""
        SELECT pg_advisory_lock({IdBlockLockKey});
        SELECT setval('"{IdSequence}"', nextval('"{IdSequence}"') + @count - 1) - @count + 1;
        SELECT pg_advisory_unlock({IdBlockLockKey});
        """;

    private const string UpdateLevelSql = """
        UPDATE "Levels"
        SET "FirstSampleId" = LEAST(COALESCE("FirstSampleId", @first), @first),
            "LastSampleId" = GREATEST(COALESCE("LastSampleId", @last), @last)
        WHERE "Id" = @level
        """;

    private readonly NpgsqlConnection _connection;
    private bool _disposed;

    /// <summary>Opens a writer on the database of <paramref name="connectionString"/>.</summary>
    /// <exception cref="NpgsqlException">The server cannot be reached or refuses the login.</exception>
    internal PostgreSqlSampleWriter(string connectionString)
    {
        _connection = new NpgsqlConnection(connectionString);
        try
        {
            _connection.Open();
        }
        catch
        {
            _connection.Dispose();
            throw;
        }
    }

    /// <inheritdoc />
    public long Append(long levelId, ReadOnlySpan<Sample> samples, string? agent = null)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (samples.IsEmpty)
        {
            return 0;
        }

        using var transaction = _connection.BeginTransaction();
        if (agent is not null)
        {
            // An agent writes into a level the runner made: the run's row is locked until the commit, and a run that ended
            // meanwhile (cancelled, or marked Interrupted by a restarted dashboard) never receives another sample.
            using var status = new NpgsqlCommand(
                """SELECT r."Status", r."Id" FROM "Runs" r JOIN "Levels" l ON l."RunId" = r."Id" WHERE l."Id" = @level FOR UPDATE OF r""", _connection, transaction);
            status.Parameters.AddWithValue("level", levelId);
            using (var reader = status.ExecuteReader())
            {
                if (!reader.Read())
                {
                    throw new ArgumentException($"No level has id {levelId}.", nameof(levelId));
                }

                if (reader.GetString(0) != nameof(RunStatus.Running))
                {
                    throw new RunNotRunningException(reader.GetInt32(1), reader.GetString(0));
                }
            }
        }

        InsertAll(transaction, levelId, samples, agent);
        transaction.Commit();
        return samples.Length;
    }

    /// <inheritdoc />
    public long AppendLevel(LevelEntity level, ReadOnlySpan<Sample> samples, bool onlyWhileRunning)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        using var transaction = _connection.BeginTransaction();
        if (onlyWhileRunning)
        {
            // The run's row stays locked until the commit: whoever ends the run meanwhile waits, then sees the level.
            using var status = new NpgsqlCommand("""SELECT "Status" FROM "Runs" WHERE "Id" = @run FOR UPDATE""", _connection, transaction);
            status.Parameters.AddWithValue("run", level.RunId);
            var value = status.ExecuteScalar() as string;
            if (value != nameof(RunStatus.Running))
            {
                throw new RunNotRunningException(level.RunId, value);
            }
        }

        using (var context = new ResultsDbContext(new DbContextOptionsBuilder<ResultsDbContext>().UseNpgsql(_connection).Options))
        {
            context.Database.UseTransaction(transaction);
            context.Levels.Add(level);
            context.SaveChanges();
        }

        if (!samples.IsEmpty)
        {
            (level.FirstSampleId, level.LastSampleId) = InsertAll(transaction, level.Id, samples, null);
        }

        transaction.Commit();
        return samples.Length;
    }

    /// <summary>Closes the connection. Safe to call twice.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _connection.Dispose();
    }

    private (long First, long Last) InsertAll(NpgsqlTransaction transaction, long levelId, ReadOnlySpan<Sample> samples, string? agent)
    {
        var first = ReserveIds(samples.Length);
        using (var importer = _connection.BeginBinaryImport(CopySql))
        {
            var id = first;
            foreach (ref readonly var sample in samples)
            {
                importer.StartRow();
                importer.Write(id++, NpgsqlDbType.Bigint);
                importer.Write(levelId, NpgsqlDbType.Bigint);
                importer.Write(sample.ClientIndex, NpgsqlDbType.Integer);
                importer.Write(sample.StartOffsetUs, NpgsqlDbType.Bigint);
                importer.Write(sample.LatencyUs, NpgsqlDbType.Bigint);
                importer.Write((short)(byte)sample.Outcome, NpgsqlDbType.Smallint);
                importer.Write(sample.IsWarmup, NpgsqlDbType.Boolean);
                importer.Write(sample.RequestBytes, NpgsqlDbType.Integer);
                importer.Write(sample.ResponseBytes, NpgsqlDbType.Integer);
                if (agent is null)
                {
                    importer.WriteNull();
                }
                else
                {
                    importer.Write(agent, NpgsqlDbType.Text);
                }
            }

            importer.Complete();
        }

        var last = first + samples.Length - 1;
        using var update = new NpgsqlCommand(UpdateLevelSql, _connection, transaction);
        update.Parameters.AddWithValue("first", first);
        update.Parameters.AddWithValue("last", last);
        update.Parameters.AddWithValue("level", levelId);
        if (update.ExecuteNonQuery() != 1)
        {
            throw new ArgumentException($"No level has id {levelId}; no sample was stored.", nameof(levelId));
        }

        return (first, last);
    }

    // Sequence changes are not transactional: a rolled-back write leaves a gap, never a reuse.
    private long ReserveIds(int count)
    {
        using var reserve = new NpgsqlCommand(ReserveSql, _connection);
        reserve.Parameters.AddWithValue("count", (long)count);
        using var reader = reserve.ExecuteReader();
        reader.NextResult();
        reader.Read();
        return reader.GetInt64(0);
    }
}
