namespace Dashboard.Data;

/// <summary>
/// Where the results live (<c>Dashboard:Storage</c>; docs/architecture.md, "Storage"): an embedded SQLite file, or a
/// PostgreSQL database shared by several machines. The same migrations serve both.
/// </summary>
public enum StorageProvider
{
    /// <summary>An embedded SQLite file (<c>results.db</c>, WAL mode); the default.</summary>
    Sqlite,

    /// <summary>A PostgreSQL database (15 or later), reached through <c>ConnectionStrings:Results</c>.</summary>
    PostgreSql,
}
