using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data;

/// <summary>
/// Opening <c>results.db</c>: connection strings, EF Core options and a migrated, WAL-mode context.
/// </summary>
public static class ResultsDatabase
{
    /// <summary>
    /// The connection string of the database file at <paramref name="path"/> (made absolute), with
    /// foreign keys on and pooling on.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    public static string ConnectionString(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        return new SqliteConnectionStringBuilder
        {
            DataSource = Path.GetFullPath(path),
            ForeignKeys = true,
            Pooling = true,
        }.ToString();
    }

    /// <summary>
    /// Configures <paramref name="builder"/> for the database file at <paramref name="path"/>:
    /// SQLite, migrations from <see cref="ResultsDbContext.MigrationsAssemblyName"/>, and
    /// <c>journal_mode=WAL</c> + <c>synchronous=NORMAL</c> on every connection opened.
    /// Use it from <c>AddDbContext</c>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    public static DbContextOptionsBuilder Configure(DbContextOptionsBuilder builder, string path)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder
            .UseSqlite(ConnectionString(path), sqlite => sqlite.MigrationsAssembly(ResultsDbContext.MigrationsAssemblyName))
            .AddInterceptors(new SqlitePragmaInterceptor());
    }

    /// <summary>Options of a <see cref="ResultsDbContext"/> on the database file at <paramref name="path"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    public static DbContextOptions<ResultsDbContext> CreateOptions(string path)
    {
        var builder = new DbContextOptionsBuilder<ResultsDbContext>();
        Configure(builder, path);
        return builder.Options;
    }

    /// <summary>
    /// Creates the directory of <paramref name="path"/> if needed, creates or upgrades the database
    /// (<c>Database.Migrate()</c>) in WAL mode, and returns a context on it; the caller disposes it.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    /// <exception cref="InvalidOperationException">
    /// The <c>Dashboard.Migrations</c> assembly is not deployed (reference the migrations project), or
    /// the model has changes no migration covers.
    /// </exception>
    /// <exception cref="SqliteException">The file cannot be created, opened or upgraded.</exception>
    public static ResultsDbContext Open(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var fullPath = Path.GetFullPath(path);
        Directory.CreateDirectory(Path.GetDirectoryName(fullPath)!);

        var context = new ResultsDbContext(CreateOptions(fullPath));
        try
        {
            EnsureMigrationsDeployed(context);
            context.Database.Migrate();
            return context;
        }
        catch
        {
            context.Dispose();
            throw;
        }
    }

    private static void EnsureMigrationsDeployed(ResultsDbContext context)
    {
        try
        {
            if (context.Database.GetMigrations().Any())
            {
                return;
            }
        }
        catch (FileNotFoundException)
        {
            // Reported below.
        }

        throw new InvalidOperationException(
            $"No migrations found for ResultsDbContext: reference the {ResultsDbContext.MigrationsAssemblyName} project from the application.");
    }
}
