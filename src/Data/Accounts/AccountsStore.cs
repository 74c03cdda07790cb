using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Accounts;

/// <summary>The accounts' side of <see cref="ResultsStore"/>: the same provider and database, <see cref="AccountsDbContext"/>'s options.</summary>
public static class AccountsStore
{
    /// <summary>
    /// Configures <paramref name="builder"/> for the accounts on <paramref name="store"/>: the provider, migrations from
    /// <see cref="ResultsDbContext.MigrationsAssemblyName"/> with their own history table, and on SQLite WAL mode.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static DbContextOptionsBuilder ConfigureAccounts(this ResultsStore store, DbContextOptionsBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(builder);
        return store.Provider switch
        {
            StorageProvider.Sqlite => builder
                .UseSqlite(ResultsDatabase.ConnectionString(store.Target), sqlite => sqlite
                    .MigrationsAssembly(ResultsDbContext.MigrationsAssemblyName)
                    .MigrationsHistoryTable(AccountsDbContext.MigrationsHistoryTable))
                .AddInterceptors(new SqlitePragmaInterceptor()),
            _ => builder.UseNpgsql(store.Target, npgsql => npgsql
                .MigrationsAssembly(ResultsDbContext.MigrationsAssemblyName)
                .MigrationsHistoryTable(AccountsDbContext.MigrationsHistoryTable)),
        };
    }

    /// <summary>
    /// Creates or upgrades the accounts' tables (SQLite: the file's folder first) and returns a context on them; the
    /// caller disposes it.
    /// </summary>
    /// <exception cref="InvalidOperationException">The model has changes no migration covers.</exception>
    public static AccountsDbContext OpenAccounts(this ResultsStore store)
    {
        ArgumentNullException.ThrowIfNull(store);
        if (store.Provider == StorageProvider.Sqlite)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(store.Target)!);
        }

        var builder = new DbContextOptionsBuilder<AccountsDbContext>();
        store.ConfigureAccounts(builder);
        var context = new AccountsDbContext(builder.Options);
        try
        {
            context.Database.Migrate();
            return context;
        }
        catch
        {
            context.Dispose();
            throw;
        }
    }
}
