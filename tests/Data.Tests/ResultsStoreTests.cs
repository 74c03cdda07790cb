using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace Dashboard.Data.Tests;

/// <summary>The same migrations on a real PostgreSQL 15 and on SQLite (docs/architecture.md, "Storage").</summary>
[Collection(PostgresTests.Name)]
public sealed class ResultsStoreTests(PostgresFixture postgres) : IDisposable
{
    private readonly TempDatabase _sqlite = new();

    public void Dispose() => _sqlite.Dispose();

    [Fact]
    public async Task Open_FreshPostgreSql_AppliesEveryMigrationWithoutPendingModelChanges()
    {
        var store = await postgres.NewStoreAsync();

        using var db = store.Open();

        Assert.Equal("Npgsql.EntityFrameworkCore.PostgreSQL", db.Database.ProviderName);
        Assert.Equal(db.Database.GetMigrations(), db.Database.GetAppliedMigrations());
        Assert.Empty(db.Database.GetPendingMigrations());
        Assert.False(db.Database.HasPendingModelChanges());
    }

    [Fact]
    public async Task Open_FreshPostgreSql_GivesColumnsTheirClrTypes()
    {
        var store = await postgres.NewStoreAsync();
        using (store.Open())
        {
        }

        var types = await ColumnTypesAsync(store.Target);

        // Not SQLite's names taken literally (INTEGER would be int4, REAL float4, TEXT dates would not be dates).
        Assert.Equal("bigint", types[("Samples", "Id")]);
        Assert.Equal("bigint", types[("Samples", "LatencyUs")]);
        Assert.Equal("integer", types[("Samples", "ClientIndex")]);
        Assert.Equal("smallint", types[("Samples", "Outcome")]);
        Assert.Equal("boolean", types[("Samples", "IsWarmup")]);
        Assert.Equal("double precision", types[("Levels", "ThroughputRps")]);
        Assert.Equal("timestamp with time zone", types[("Levels", "StartedUtc")]);
        Assert.Equal("timestamp with time zone", types[("Runs", "ScheduledUtc")]);
        Assert.Equal("boolean", types[("Levels", "Complete")]);
        Assert.Equal("text", types[("Runs", "Status")]);
    }

    [Fact]
    public async Task Open_TwiceOnPostgreSql_SecondIsNoOp()
    {
        var store = await postgres.NewStoreAsync();
        using (store.Open())
        {
        }

        using var again = store.Open();

        Assert.Empty(again.Database.GetPendingMigrations());
    }

    [Fact]
    public async Task Open_FreshSqlite_KeepsSqliteColumnTypes()
    {
        using (_sqlite.Open())
        {
        }

        using var connection = _sqlite.OpenConnection();
        var types = Sql.Query<string>(connection, """
            SELECT m.name || '.' || p.name || ':' || p.type FROM sqlite_master m JOIN pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name IN ('Samples', 'Levels', 'Runs') ORDER BY 1
            """);

        // The types SQLite databases made before the migrations were provider-agnostic have (INTEGER, REAL, TEXT).
        Assert.Contains("Samples.Id:INTEGER", types);
        Assert.Contains("Samples.IsWarmup:INTEGER", types);
        Assert.Contains("Samples.Outcome:INTEGER", types);
        Assert.Contains("Levels.ThroughputRps:REAL", types);
        Assert.Contains("Levels.StartedUtc:TEXT", types);
        Assert.Contains("Levels.Complete:INTEGER", types);
        Assert.Contains("Runs.ScheduledUtc:TEXT", types);
        Assert.All(types, t => Assert.Matches(":(INTEGER|REAL|TEXT)$", t));
    }

    [Fact]
    public async Task Open_SqliteMadeByTheSqliteOnlyMigrations_OpensAndTakesSamples()
    {
        // The schema and history exactly as the migrations with SQLite store types wrote them (saved before they were made
        // provider-agnostic), with a run in it, in WAL mode as the dashboard left it.
        Directory.CreateDirectory(Path.GetDirectoryName(_sqlite.FilePath)!);
        using (var connection = _sqlite.OpenConnection())
        using (var command = connection.CreateCommand())
        {
            command.CommandText = await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Support", "sqlite-only-migrations.sql"));
            command.ExecuteNonQuery();
            command.CommandText = """
                INSERT INTO "Runs" ("ScenarioName", "ScenarioJson", "Status", "CreatedUtc", "CompletedLevels", "TotalLevels", "Topology")
                VALUES ('old', '{}', 'Completed', '2026-11-24 10:00:00', 1, 1, 'same-machine');
                PRAGMA journal_mode=WAL;
                """;
            command.ExecuteNonQuery();
        }

        using var db = _sqlite.Open();
        Assert.Empty(db.Database.GetPendingMigrations());
        var run = await db.Runs.SingleAsync();
        Assert.Equal(new DateTime(2026, 11, 24, 10, 0, 0, DateTimeKind.Utc), run.CreatedUtc);
        var level = TestData.Level(run);
        level.Run = null;
        level.RunId = run.Id;
        using (var store = new SampleStore(_sqlite.FilePath))
        {
            Assert.Equal(50, store.AppendLevel(level, TestData.Samples(50)));
        }

        Assert.Equal(50, (await db.CountSamplesAsync(run.Id)).Measured + (await db.CountSamplesAsync(run.Id)).Warmup);
    }

    [Fact]
    public void PostgreSql_InvalidConnectionString_ThrowsNamingIt()
    {
        var error = Assert.Throws<ArgumentException>(() => ResultsStore.PostgreSql("Hots=x;;=="));

        Assert.Contains("PostgreSQL connection string", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Description_PostgreSql_NamesHostAndDatabaseWithoutPassword()
    {
        var store = ResultsStore.PostgreSql(postgres.Server.ConnectionString("results") + ";Password=secret");

        Assert.DoesNotContain("secret", store.Description, StringComparison.Ordinal);
        Assert.Contains("/results", store.Description, StringComparison.Ordinal);
        await Task.CompletedTask;
    }

    [Fact]
    public async Task DeleteLevel_PostgreSql_TriggerDeletesItsSamplesOnly()
    {
        var store = await postgres.NewStoreAsync();
        using var db = store.Open();
        var run = TestData.Run();
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        var (first, second) = (NewLevel(run), NewLevel(run));
        using (var samples = store.OpenSampleStore())
        {
            samples.AppendLevel(first, TestData.Samples(300));
            samples.AppendLevel(second, TestData.Samples(200));
        }

        await db.Levels.Where(l => l.Id == first.Id).ExecuteDeleteAsync();

        Assert.Equal(200, await db.Samples.CountAsync());
        Assert.All(await db.Samples.Select(s => s.LevelId).Distinct().ToListAsync(), id => Assert.Equal(second.Id, id));
    }

    [Fact]
    public async Task Open_ServerListeningOnASecondAddress_MigratesThroughThatAddress()
    {
        // As the agents' tests use it: listening on another address too (there a veth address; here 127.0.0.2, which
        // the default pg_hba.conf of initdb would refuse).
        await using var server = await Dashboard.Tests.RealProcesses.PostgresServer.StartAsync("127.0.0.1,127.0.0.2");
        var connection = await server.CreateDatabaseAsync();
        var store = ResultsStore.PostgreSql(new NpgsqlConnectionStringBuilder(connection) { Host = "127.0.0.2" }.ConnectionString);

        using var db = store.Open();

        Assert.Empty(db.Database.GetPendingMigrations());
        Assert.Equal("127.0.0.1,127.0.0.2", server.ListenAddresses);
    }

    internal static LevelEntity NewLevel(RunEntity run)
    {
        var level = TestData.Level(run);
        level.Run = null;
        level.RunId = run.Id;
        return level;
    }

    private static async Task<Dictionary<(string Table, string Column), string>> ColumnTypesAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'", connection);
        await using var reader = await command.ExecuteReaderAsync();
        var types = new Dictionary<(string, string), string>();
        while (await reader.ReadAsync())
        {
            types[(reader.GetString(0), reader.GetString(1))] = reader.GetString(2);
        }

        return types;
    }
}
