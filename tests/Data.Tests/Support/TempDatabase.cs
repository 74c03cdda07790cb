using Microsoft.Data.Sqlite;

namespace Dashboard.Data.Tests.Support;

/// <summary>A fresh directory under the system temp directory for one test's database; deleted on dispose.</summary>
internal sealed class TempDatabase : IDisposable
{
    public TempDatabase()
    {
        RootDirectory = Path.Combine(Path.GetTempPath(), "dashboard-data-tests", Guid.NewGuid().ToString("N"));
        FilePath = Path.Combine(RootDirectory, "sub", "results.db");
    }

    /// <summary>The directory holding the database (not created until the database is).</summary>
    public string RootDirectory { get; }

    /// <summary>Path of the database file, in a sub-directory that does not exist yet.</summary>
    public string FilePath { get; }

    /// <summary>Creates and migrates the database, returning a context on it.</summary>
    public ResultsDbContext Open() => ResultsDatabase.Open(FilePath);

    /// <summary>A new context on the database, without migrating.</summary>
    public ResultsDbContext NewContext() => new(ResultsDatabase.CreateOptions(FilePath));

    /// <summary>Opens a plain connection on the file (caller disposes).</summary>
    public SqliteConnection OpenConnection()
    {
        var connection = new SqliteConnection(ResultsDatabase.ConnectionString(FilePath));
        connection.Open();
        return connection;
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        if (Directory.Exists(RootDirectory))
        {
            Directory.Delete(RootDirectory, recursive: true);
        }
    }
}
