using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data;

/// <summary>
/// Opening a SQLite <c>results.db</c> by its path: connection strings, EF Core options and a migrated, WAL-mode context
/// (shortcuts of <see cref="ResultsStore.Sqlite"/>; <see cref="ResultsStore"/> opens PostgreSQL too).
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
    /// Configures <paramref name="builder"/> for the SQLite database file at <paramref name="path"/>
    /// (<see cref="ResultsStore.Configure"/> of <see cref="ResultsStore.Sqlite"/>).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    public static DbContextOptionsBuilder Configure(DbContextOptionsBuilder builder, string path) => ResultsStore.Sqlite(path).Configure(builder);

    /// <summary>Options of a <see cref="ResultsDbContext"/> on the SQLite database file at <paramref name="path"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    public static DbContextOptions<ResultsDbContext> CreateOptions(string path) => ResultsStore.Sqlite(path).CreateOptions();

    /// <summary>
    /// Creates the directory of <paramref name="path"/> if needed, creates or upgrades the SQLite database
    /// (<c>Database.Migrate()</c>) in WAL mode, and returns a context on it; the caller disposes it.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    /// <exception cref="InvalidOperationException">
    /// The <c>Dashboard.Migrations</c> assembly is not deployed (reference the migrations project), or
    /// the model has changes no migration covers.
    /// </exception>
    /// <exception cref="SqliteException">The file cannot be created, opened or upgraded.</exception>
    public static ResultsDbContext Open(string path) => ResultsStore.Sqlite(path).Open();

    internal static void EnsureMigrationsDeployed(ResultsDbContext context)
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
