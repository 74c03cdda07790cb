using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Runs;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using SQLitePCL;

namespace Dashboard.Data.Samples;

/// <summary>
/// <see cref="SampleStore"/> on SQLite: writes raw samples into the <c>Samples</c> table of a migrated
/// <c>results.db</c>: one row per sample, one transaction per <see cref="Append"/>, multi-row
/// <c>INSERT</c> statements prepared once and reused (a full-size one, plus one per tail size met,
/// prepared on first use). Keeps each level's rowid range
/// (<c>Levels.FirstSampleId</c>/<c>LastSampleId</c>) up to date in the same transaction.
/// </summary>
/// <remarks>
/// The connection and transactions are <c>Microsoft.Data.Sqlite</c>'s; the insert statements are
/// bound by position through its native handle (<c>SQLitePCL.raw</c>), because
/// <see cref="SqliteCommand"/> looks every parameter up by name on every execution, which makes
/// multi-row statements slower, not faster. Not thread-safe: one store per writer.
/// </remarks>
internal sealed class SqliteSampleWriter : ISampleWriter
{
    private const string UpdateLevelSql = """
        UPDATE "Levels"
        SET "FirstSampleId" = min(coalesce("FirstSampleId", $first), $first),
            "LastSampleId" = max(coalesce("LastSampleId", $last), $last)
        WHERE "Id" = $level
        """;

    private readonly SqliteConnection _connection;
    // Index = rows per statement; prepared on first use.
    private readonly sqlite3_stmt?[] _inserts;
    private readonly SqliteCommand _updateLevel;
    private readonly int _rowsPerStatement;
    private bool _disposed;

    /// <summary>Opens a writer on the file at <paramref name="databasePath"/> with <paramref name="rowsPerStatement"/> rows per statement, 1–10,000.</summary>
    internal SqliteSampleWriter(string databasePath, int rowsPerStatement)
    {
        // SQLite allows at most 32,766 parameters per statement.
        ArgumentOutOfRangeException.ThrowIfLessThan(rowsPerStatement, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(rowsPerStatement, 10_000);
        var connectionString = new SqliteConnectionStringBuilder(ResultsDatabase.ConnectionString(databasePath))
        {
            // The raw statements must be finalized before the connection really closes.
            Pooling = false,
            Mode = SqliteOpenMode.ReadWrite,
        }.ToString();

        _rowsPerStatement = rowsPerStatement;
        _connection = new SqliteConnection(connectionString);
        try
        {
            _connection.Open();
            using (var pragma = _connection.CreateCommand())
            {
                pragma.CommandText = SqlitePragmaInterceptor.PragmaSql;
                pragma.ExecuteNonQuery();
            }

            _inserts = new sqlite3_stmt?[rowsPerStatement + 1];
            _inserts[rowsPerStatement] = Prepare(SampleInsertSql.Insert(rowsPerStatement));
            _updateLevel = _connection.CreateCommand();
            _updateLevel.CommandText = UpdateLevelSql;
            _updateLevel.Parameters.Add("$first", SqliteType.Integer);
            _updateLevel.Parameters.Add("$last", SqliteType.Integer);
            _updateLevel.Parameters.Add("$level", SqliteType.Integer);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <inheritdoc />
    public long Append(long levelId, ReadOnlySpan<Sample> samples, string? agent = null)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (agent is not null)
        {
            throw new NotSupportedException($"Samples tagged with agent '{agent}': load agents need the PostgreSQL storage (Dashboard:Storage=PostgreSql, docs/agents.md); nothing is stored.");
        }

        if (samples.IsEmpty)
        {
            return 0;
        }

        using var transaction = _connection.BeginTransaction();
        InsertAll(transaction, levelId, samples);
        transaction.Commit();
        return samples.Length;
    }

    /// <inheritdoc />
    public long AppendLevel(LevelEntity level, ReadOnlySpan<Sample> samples, bool onlyWhileRunning)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        // Microsoft.Data.Sqlite begins IMMEDIATE transactions: the status read below cannot change before the commit.
        using var transaction = _connection.BeginTransaction();
        if (onlyWhileRunning)
        {
            using var status = _connection.CreateCommand();
            status.Transaction = transaction;
            status.CommandText = "SELECT \"Status\" FROM \"Runs\" WHERE \"Id\" = $run";
            status.Parameters.AddWithValue("$run", level.RunId);
            var value = status.ExecuteScalar() as string;
            if (value != nameof(RunStatus.Running))
            {
                throw new RunNotRunningException(level.RunId, value);
            }
        }

        using (var context = new ResultsDbContext(new DbContextOptionsBuilder<ResultsDbContext>().UseSqlite(_connection).Options))
        {
            context.Database.UseTransaction(transaction);
            context.Levels.Add(level);
            context.SaveChanges();
        }

        if (!samples.IsEmpty)
        {
            (level.FirstSampleId, level.LastSampleId) = InsertAll(transaction, level.Id, samples);
        }

        transaction.Commit();
        return samples.Length;
    }

    /// <summary>Finalizes the statements and closes the connection. Safe to call twice.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        foreach (var statement in _inserts ?? [])
        {
            statement?.Dispose();
        }

        _updateLevel?.Dispose();
        _connection.Dispose();
    }

    // Inserts non-empty samples in the caller's transaction and records their rowid range on the level.
    private (long First, long Last) InsertAll(SqliteTransaction transaction, long levelId, ReadOnlySpan<Sample> samples)
    {
        var firstRowId = long.MaxValue;
        for (var index = 0; index < samples.Length; index += _rowsPerStatement)
        {
            var rows = samples.Slice(index, Math.Min(_rowsPerStatement, samples.Length - index));
            var statement = _inserts[rows.Length] ??= Prepare(SampleInsertSql.Insert(rows.Length));
            Insert(statement, levelId, rows, ref firstRowId);
        }

        var lastRowId = raw.sqlite3_last_insert_rowid(_connection.Handle);
        UpdateLevelRange(transaction, levelId, firstRowId, lastRowId);
        return (firstRowId, lastRowId);
    }

    private sqlite3_stmt Prepare(string sql)
    {
        var db = _connection.Handle!;
        var rc = raw.sqlite3_prepare_v3(db, sql, raw.SQLITE_PREPARE_PERSISTENT, out var statement);
        SqliteException.ThrowExceptionForRC(rc, db);
        return statement;
    }

    private void Insert(sqlite3_stmt statement, long levelId, ReadOnlySpan<Sample> rows, ref long firstRowId)
    {
        var db = _connection.Handle!;
        try
        {
            raw.sqlite3_bind_int64(statement, 1, levelId);
            var parameter = 2;
            foreach (ref readonly var sample in rows)
            {
                raw.sqlite3_bind_int64(statement, parameter++, SampleInsertSql.PackSmallFields(sample));
                raw.sqlite3_bind_int64(statement, parameter++, sample.StartOffsetUs);
                raw.sqlite3_bind_int64(statement, parameter++, sample.LatencyUs);
                raw.sqlite3_bind_int64(statement, parameter++, SampleInsertSql.PackWireBytes(sample));
            }

            var rc = raw.sqlite3_step(statement);
            if (rc != raw.SQLITE_DONE)
            {
                SqliteException.ThrowExceptionForRC(rc, db);
            }
        }
        finally
        {
            raw.sqlite3_reset(statement);
        }

        // Rows of one statement get consecutive rowids (max + 1 each: no AUTOINCREMENT, one writer).
        firstRowId = Math.Min(firstRowId, raw.sqlite3_last_insert_rowid(db) - rows.Length + 1);
    }

    private void UpdateLevelRange(SqliteTransaction transaction, long levelId, long firstRowId, long lastRowId)
    {
        _updateLevel.Transaction = transaction;
        _updateLevel.Parameters["$first"].Value = firstRowId;
        _updateLevel.Parameters["$last"].Value = lastRowId;
        _updateLevel.Parameters["$level"].Value = levelId;
        if (_updateLevel.ExecuteNonQuery() != 1)
        {
            throw new ArgumentException($"No level has id {levelId}; no sample was stored.", nameof(levelId));
        }
    }
}
