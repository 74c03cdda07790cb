using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Runs;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Samples;

/// <summary>
/// The hot path that writes raw samples into the <c>Samples</c> table of a migrated results database: one row per
/// sample, one transaction per call, and each level's id range (<c>Levels.FirstSampleId</c>/<c>LastSampleId</c>) kept
/// up to date in the same transaction. On SQLite the rows go through multi-row <c>INSERT</c> statements prepared once
/// (ids are rowids); on PostgreSQL through one binary <c>COPY</c> per call, with ids reserved as one block of the
/// <c>Samples_Id_seq</c> sequence (so writers on several machines never collide). Open it with
/// <see cref="ResultsStore.OpenSampleStore"/>. Not thread-safe: one store per writer.
/// </summary>
public sealed class SampleStore : IDisposable
{
    /// <summary>SQLite: rows per prepared multi-row <c>INSERT</c>; chosen by measurement (bench/README.md).</summary>
    public const int DefaultRowsPerStatement = 128;

    private readonly ISampleWriter _writer;

    /// <summary>Opens a store on the SQLite database file at <paramref name="databasePath"/>.</summary>
    /// <param name="databasePath">A database already created by <see cref="ResultsDatabase.Open"/>.</param>
    /// <exception cref="ArgumentException"><paramref name="databasePath"/> is null, empty or white space.</exception>
    /// <exception cref="Microsoft.Data.Sqlite.SqliteException">The file cannot be opened, or has no <c>Samples</c> table (not migrated).</exception>
    public SampleStore(string databasePath)
        : this(databasePath, DefaultRowsPerStatement)
    {
    }

    /// <summary>Opens a store on <paramref name="store"/> (SQLite or PostgreSQL), already migrated.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="store"/> is null.</exception>
    /// <exception cref="Microsoft.Data.Sqlite.SqliteException">SQLite: the file cannot be opened, or is not migrated.</exception>
    /// <exception cref="Npgsql.NpgsqlException">PostgreSQL: the server cannot be reached or refuses the login.</exception>
    public SampleStore(ResultsStore store)
    {
        ArgumentNullException.ThrowIfNull(store);
        _writer = store.Provider == StorageProvider.Sqlite
            ? new SqliteSampleWriter(store.Target, DefaultRowsPerStatement)
            : new PostgreSqlSampleWriter(store.Target);
    }

    /// <summary>Opens a SQLite store with a given number of rows per statement, 1–10,000 (for measurements).</summary>
    internal SampleStore(string databasePath, int rowsPerStatement) => _writer = new SqliteSampleWriter(databasePath, rowsPerStatement);

    /// <summary>
    /// Stores <paramref name="samples"/> as rows of level <paramref name="levelId"/>, in order, in one
    /// transaction: either all are stored or none.
    /// </summary>
    /// <param name="levelId">Id of an existing <see cref="LevelEntity"/>.</param>
    /// <param name="samples">The samples; may be empty (nothing is written).</param>
    /// <returns>The number of rows written: the length of <paramref name="samples"/>.</returns>
    /// <exception cref="ObjectDisposedException">The store is disposed.</exception>
    /// <exception cref="ArgumentException">No level has id <paramref name="levelId"/>; nothing is stored.</exception>
    /// <exception cref="System.Data.Common.DbException">The database failed (disk full, locked beyond the timeout, connection lost...); nothing is stored.</exception>
    public long Append(long levelId, ReadOnlySpan<Sample> samples) => _writer.Append(levelId, samples);

    /// <summary>
    /// Stores <paramref name="samples"/> as rows of level <paramref name="levelId"/> sent by load agent
    /// <paramref name="agent"/> (column <c>Samples.Agent</c>; docs/agents.md), in one transaction: all or none. Several
    /// agents may write the same level at once: each takes its own block of ids.
    /// </summary>
    /// <param name="levelId">Id of an existing <see cref="LevelEntity"/>.</param>
    /// <param name="samples">The agent's share of the level's samples; may be empty (nothing is written).</param>
    /// <param name="agent">The agent's name (docs/agents.md, "Starting an agent").</param>
    /// <returns>The number of rows written.</returns>
    /// <exception cref="ArgumentException"><paramref name="agent"/> is empty, or no level has id <paramref name="levelId"/>; nothing is stored.</exception>
    /// <exception cref="NotSupportedException">The store is SQLite: agents need PostgreSQL; nothing is stored.</exception>
    /// <exception cref="RunNotRunningException">The level's run is no longer Running (cancelled, or marked Interrupted): nothing is stored.</exception>
    /// <exception cref="System.Data.Common.DbException">The database failed; nothing is stored.</exception>
    public long AppendFromAgent(long levelId, ReadOnlySpan<Sample> samples, string agent)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(agent);
        return _writer.Append(levelId, samples, agent);
    }

    /// <summary>
    /// Stores a new level row and its <paramref name="samples"/> in ONE transaction: a process killed at any moment
    /// leaves either the level with every sample or neither, never a level whose samples are missing. The level's
    /// warm-up count and time series (<see cref="Results.LevelSummaries"/>) are set from the samples unless given.
    /// </summary>
    /// <param name="level">A new level: <see cref="LevelEntity.Id"/> 0, <see cref="LevelEntity.RunId"/> an existing run, <see cref="LevelEntity.Run"/> null; its id and sample range are set here.</param>
    /// <param name="samples">The level's samples, warm-up included; may be empty.</param>
    /// <returns>The number of sample rows written.</returns>
    /// <exception cref="ObjectDisposedException">The store is disposed.</exception>
    /// <exception cref="ArgumentException"><paramref name="level"/> has an id or a <see cref="LevelEntity.Run"/>.</exception>
    /// <exception cref="DbUpdateException">The level row was refused (no such run); nothing is stored.</exception>
    /// <exception cref="System.Data.Common.DbException">The database failed (disk full, locked beyond the timeout, connection lost...); nothing is stored.</exception>
    public long AppendLevel(LevelEntity level, ReadOnlySpan<Sample> samples) => AppendLevel(level, samples, onlyWhileRunning: false);

    /// <summary>
    /// Like <see cref="AppendLevel(LevelEntity, ReadOnlySpan{Sample})"/>; with <paramref name="onlyWhileRunning"/> the run's
    /// status is read inside the same write transaction and nothing is stored unless it is still <see cref="RunStatus.Running"/>:
    /// a run someone else marked Interrupted or Cancelled (a restarted dashboard, a user) never receives another sample.
    /// (SQLite: the write transaction is exclusive; PostgreSQL: the run's row is locked, <c>SELECT … FOR UPDATE</c>.)
    /// </summary>
    /// <exception cref="RunNotRunningException">With <paramref name="onlyWhileRunning"/>: the run is not Running any more; nothing is stored.</exception>
    public long AppendLevel(LevelEntity level, ReadOnlySpan<Sample> samples, bool onlyWhileRunning)
    {
        ArgumentNullException.ThrowIfNull(level);
        if (level.Run is not null || level.Id != 0)
        {
            throw new ArgumentException("a new level with its RunId set and no Run navigation (the run is not inserted here)", nameof(level));
        }

        if (level.TimeSeriesJson is null)
        {
            // The page's summaries of the level, computed once here while the samples are in memory.
            Results.LevelSummaries.Fill(level, samples);
        }

        return _writer.AppendLevel(level, samples, onlyWhileRunning);
    }

    /// <summary>Releases the statements and the connection. Safe to call twice.</summary>
    public void Dispose() => _writer.Dispose();
}
