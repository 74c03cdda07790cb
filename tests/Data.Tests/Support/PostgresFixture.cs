using Dashboard.Tests.RealProcesses;

namespace Dashboard.Data.Tests.Support;

/// <summary>One real PostgreSQL server for the test classes of <see cref="PostgresTests"/>; each test creates its own database.</summary>
public sealed class PostgresFixture : IAsyncLifetime
{
    private PostgresServer? _server;

    /// <summary>The running server.</summary>
    public PostgresServer Server => _server ?? throw new InvalidOperationException("the server has not started");

    /// <summary>A fresh, empty database as a <see cref="ResultsStore"/> (not migrated).</summary>
    public async Task<ResultsStore> NewStoreAsync() => ResultsStore.PostgreSql(await Server.CreateDatabaseAsync());

    /// <inheritdoc />
    public async Task InitializeAsync() => _server = await PostgresServer.StartAsync();

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

/// <summary>Test classes that share one <see cref="PostgresFixture"/>.</summary>
[CollectionDefinition(Name)]
public sealed class PostgresTests : ICollectionFixture<PostgresFixture>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "PostgreSQL";
}
