using Dashboard.Data.Accounts;
using Dashboard.Data.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Accounts;

/// <summary>The accounts' migrations (migrations/Accounts) on SQLite and a real PostgreSQL 15, beside the results' ones.</summary>
[Collection(PostgresTests.Name)]
public sealed class AccountsStoreTests(PostgresFixture postgres) : IDisposable
{
    private readonly TempDatabase _sqlite = new();

    public void Dispose() => _sqlite.Dispose();

    [Fact]
    public void OpenAccounts_FreshSqliteBesideResults_AppliesItsMigrationsWithoutPendingModelChanges()
    {
        var store = ResultsStore.Sqlite(_sqlite.FilePath);
        using (store.Open())
        {
        }

        using var db = store.OpenAccounts();

        Assert.Equal(db.Database.GetMigrations(), db.Database.GetAppliedMigrations());
        Assert.False(db.Database.HasPendingModelChanges());
        Assert.Equal(0, db.Users.Count());
    }

    [Fact]
    public async Task OpenAccounts_FreshPostgreSql_AppliesItsMigrationsWithoutPendingModelChanges()
    {
        var store = await postgres.NewStoreAsync();
        using (store.Open())
        {
        }

        using var db = store.OpenAccounts();
        db.ApiTokens.Add(new ApiTokenEntity { Name = "t", Role = "Viewer", Hash = "h", CreatedBy = "test", CreatedUtc = DateTime.UtcNow });
        db.SaveChanges();

        Assert.Equal(db.Database.GetMigrations(), db.Database.GetAppliedMigrations());
        Assert.False(db.Database.HasPendingModelChanges());
        Assert.Equal(DateTimeKind.Utc, db.ApiTokens.AsNoTracking().Single().CreatedUtc.Kind);
    }
}
