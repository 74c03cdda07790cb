using Dashboard.Data.Samples;
using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace Dashboard.Data;

/// <summary>
/// Where the results are stored and the one factory for everything that opens them: EF Core options, a migrated
/// context and the raw-sample writer, for SQLite (a file path) or PostgreSQL (a connection string) alike.
/// Every process that reads or writes results (dashboard, runner, tests, benchmarks) goes through this type.
/// </summary>
/// <param name="Provider">The database engine.</param>
/// <param name="Target">SQLite: the database file's path (made absolute); PostgreSQL: an Npgsql connection string.</param>
public sealed record ResultsStore(StorageProvider Provider, string Target)
{
    /// <summary>
    /// The environment variable that carries the PostgreSQL connection string to a runner (and to the dashboard):
    /// the configuration key <c>ConnectionStrings:Results</c> in environment form. A password in it stays off command
    /// lines, which every user of the machine can read.
    /// </summary>
    public const string ConnectionVariable = "ConnectionStrings__Results";

    /// <summary>The results in the SQLite file at <paramref name="path"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null, empty or white space.</exception>
    public static ResultsStore Sqlite(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        return new ResultsStore(StorageProvider.Sqlite, Path.GetFullPath(path));
    }

    /// <summary>The results in the PostgreSQL database of <paramref name="connectionString"/> (Npgsql syntax, e.g. <c>Host=db;Database=results;Username=u;Password=p</c>).</summary>
    /// <exception cref="ArgumentException">The connection string is null, empty, white space or not a valid Npgsql connection string.</exception>
    public static ResultsStore PostgreSql(string connectionString)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(connectionString);
        try
        {
            _ = new NpgsqlConnectionStringBuilder(connectionString);
        }
        catch (ArgumentException e)
        {
            throw new ArgumentException($"not a valid PostgreSQL connection string: {e.Message}", nameof(connectionString), e);
        }

        return new ResultsStore(StorageProvider.PostgreSql, connectionString);
    }

    /// <summary>
    /// A description for logs and pages: the SQLite file's path, or host, port and database of PostgreSQL (never the password).
    /// </summary>
    public string Description => Provider switch
    {
        StorageProvider.Sqlite => Target,
        _ => new NpgsqlConnectionStringBuilder(Target) is var b ? $"PostgreSQL {b.Host}:{b.Port}/{b.Database}" : Target,
    };

    /// <summary>
    /// Configures <paramref name="builder"/> for this store: the provider, migrations from
    /// <see cref="ResultsDbContext.MigrationsAssemblyName"/> and, on SQLite, WAL mode on every connection opened.
    /// Use it from <c>AddDbContext</c>/<c>AddDbContextFactory</c>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is null.</exception>
    public DbContextOptionsBuilder Configure(DbContextOptionsBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return Provider switch
        {
            StorageProvider.Sqlite => builder
                .UseSqlite(ResultsDatabase.ConnectionString(Target), sqlite => sqlite.MigrationsAssembly(ResultsDbContext.MigrationsAssemblyName))
                .AddInterceptors(new SqlitePragmaInterceptor()),
            _ => builder.UseNpgsql(Target, npgsql => npgsql.MigrationsAssembly(ResultsDbContext.MigrationsAssemblyName)),
        };
    }

    /// <summary>Options of a <see cref="ResultsDbContext"/> on this store (no migration is applied).</summary>
    public DbContextOptions<ResultsDbContext> CreateOptions()
    {
        var builder = new DbContextOptionsBuilder<ResultsDbContext>();
        Configure(builder);
        return builder.Options;
    }

    /// <summary>
    /// Creates or upgrades the database (<c>Database.Migrate()</c>; SQLite: the file's folder is created first, WAL mode)
    /// and returns a context on it; the caller disposes it. Concurrent callers are safe: EF Core takes the migrations lock.
    /// </summary>
    /// <exception cref="InvalidOperationException">The <c>Dashboard.Migrations</c> assembly is not deployed, or the model has changes no migration covers.</exception>
    /// <exception cref="Microsoft.Data.Sqlite.SqliteException">SQLite: the file cannot be created, opened or upgraded.</exception>
    /// <exception cref="NpgsqlException">PostgreSQL: the server cannot be reached or refuses the login.</exception>
    public ResultsDbContext Open()
    {
        if (Provider == StorageProvider.Sqlite)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Target)!);
        }

        var context = new ResultsDbContext(CreateOptions());
        try
        {
            ResultsDatabase.EnsureMigrationsDeployed(context);
            context.Database.Migrate();
            return context;
        }
        catch
        {
            context.Dispose();
            throw;
        }
    }

    /// <summary>The writer of raw samples on this store (the hot path; SQLite: prepared multi-row inserts, PostgreSQL: binary COPY). The database must be migrated.</summary>
    public SampleStore OpenSampleStore() => new(this);

    /// <inheritdoc />
    public override string ToString() => $"{Provider} {Description}";
}
