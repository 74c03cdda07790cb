using Dashboard.Data.Tests.Support;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests;

public sealed class ResultsDatabaseTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public void Open_FreshFile_CreatesDirectoryAndAppliesInitialMigration()
    {
        using var db = _database.Open();

        Assert.True(File.Exists(_database.FilePath));
        // Every migration of the assembly, in order, the first the initial one (a new migration needs no edit here).
        Assert.Equal(db.Database.GetMigrations(), db.Database.GetAppliedMigrations());
        Assert.Equal("20261122000000_Initial", db.Database.GetAppliedMigrations().First());
        Assert.Contains("20261125030000_RunTopology", db.Database.GetAppliedMigrations());
        Assert.Empty(db.Database.GetPendingMigrations());
        using var connection = _database.OpenConnection();
        var objects = Sql.Query<string>(connection, "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name");
        Assert.Superset(
            new HashSet<string> { "Levels", "ResourceSamples", "Runs", "Samples", ResultsDbContext.LevelsDeleteSamplesTrigger },
            objects.ToHashSet());
        // The saved-scenario table was never used and is dropped (20261126000000_DropSavedScenarios), with Runs.ScenarioId.
        Assert.DoesNotContain("Scenarios", objects);
        Assert.DoesNotContain("ScenarioId", Sql.Query<string>(connection, "SELECT name FROM pragma_table_info('Runs')"));
        // SQLite rebuilt Runs to drop the column: the table keeps its AUTOINCREMENT key and its Topology default.
        var runs = Sql.Query<string>(connection, "SELECT sql FROM sqlite_master WHERE name = 'Runs'").Single();
        Assert.Contains("AUTOINCREMENT", runs, StringComparison.Ordinal);
        Assert.Contains("DEFAULT 'same-machine'", runs, StringComparison.Ordinal);
    }

    [Fact]
    public void Open_FreshFile_HasNoPendingModelChanges()
    {
        using var db = _database.Open();

        Assert.False(db.Database.HasPendingModelChanges());
    }

    [Fact]
    public void Open_FreshFile_PutsDatabaseInWalMode()
    {
        using (_database.Open())
        {
        }

        SqliteConnection.ClearAllPools();
        using var connection = new SqliteConnection($"Data Source={_database.FilePath};Pooling=False");
        connection.Open();
        Assert.Equal(["wal"], Sql.Query<string>(connection, "PRAGMA journal_mode"));
    }

    [Fact]
    public void Open_EfConnection_IsWalWithSynchronousNormalAndForeignKeys()
    {
        using var db = _database.Open();
        db.Database.OpenConnection();
        try
        {
            var connection = (SqliteConnection)db.Database.GetDbConnection();
            Assert.Equal(["wal"], Sql.Query<string>(connection, "PRAGMA journal_mode"));
            Assert.Equal([1L], Sql.Query<long>(connection, "PRAGMA synchronous")); // 1 = NORMAL
            Assert.Equal([1L], Sql.Query<long>(connection, "PRAGMA foreign_keys"));
        }
        finally
        {
            db.Database.CloseConnection();
        }
    }

    [Fact]
    public async Task Open_WhileAnotherConnectionHoldsAWriteTransaction_ReadsWithoutWaiting()
    {
        using (var db = _database.Open())
        {
            db.Runs.Add(TestData.Run("committed"));
            await db.SaveChangesAsync();
        }

        using var writer = _database.OpenConnection();
        using var transaction = writer.BeginTransaction();
        using (var insert = writer.CreateCommand())
        {
            insert.CommandText = "UPDATE Runs SET ScenarioName = 'uncommitted'";
            insert.ExecuteNonQuery();
        }

        SqliteConnection.ClearAllPools();
        var stopwatch = System.Diagnostics.Stopwatch.StartNew();
        using var reader = _database.NewContext();
        var name = await reader.Runs.Select(r => r.ScenarioName).SingleAsync();

        Assert.Equal("committed", name);
        Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(5), $"The read waited {stopwatch.Elapsed}.");
    }

    [Fact]
    public async Task Open_ExistingFile_KeepsDataAndMigratesNothing()
    {
        using (var first = _database.Open())
        {
            first.Runs.Add(TestData.Run("kept"));
            await first.SaveChangesAsync();
        }

        using var second = _database.Open();

        Assert.Equal("kept", Assert.Single(await second.Runs.ToListAsync()).ScenarioName);
        Assert.Equal(second.Database.GetMigrations(), second.Database.GetAppliedMigrations());
    }

    [Fact]
    public void Open_EmptyPath_ThrowsArgumentException()
    {
        Assert.Throws<ArgumentException>(() => ResultsDatabase.Open(" "));
    }
}
