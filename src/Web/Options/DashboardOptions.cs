using System.ComponentModel.DataAnnotations;
using Dashboard.Data;

namespace Dashboard.Web.Options;

/// <summary>
/// Section <c>Dashboard</c>: where results live (<c>Dashboard:Storage</c>, with <c>ConnectionStrings:Results</c> for
/// PostgreSQL) and whether a local service host is started.
/// </summary>
public sealed class DashboardOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard";

    /// <summary>Folder of the results database and the list of hosts; relative paths start at the repository root.</summary>
    [Required]
    public string DataFolder { get; set; } = "data";

    /// <summary>
    /// Where results are stored (docs/architecture.md, "Storage"): <see cref="StorageProvider.Sqlite"/> (default, the
    /// <see cref="Database"/> file) or <see cref="StorageProvider.PostgreSql"/> (<see cref="ResultsConnectionString"/>;
    /// the queue's Hangfire tables then live in the same database, schema <c>hangfire</c>).
    /// </summary>
    public StorageProvider Storage { get; set; } = StorageProvider.Sqlite;

    /// <summary>
    /// <c>ConnectionStrings:Results</c> (environment: <c>ConnectionStrings__Results</c>): the Npgsql connection string of the
    /// PostgreSQL results database, required when <see cref="Storage"/> is PostgreSql. Not part of this section; bound from
    /// the configuration's connection strings at start.
    /// </summary>
    public string? ResultsConnectionString { get; set; }

    /// <summary>File name (or path, relative to <see cref="DataFolder"/>) of the SQLite results database (<see cref="Storage"/> Sqlite).</summary>
    [Required]
    public string Database { get; set; } = "results.db";

    /// <summary>Start the local service host as a child process (<c>--Dashboard:StartLocalHost=false</c> to use another).</summary>
    public bool StartLocalHost { get; set; } = true;

    /// <summary>
    /// Stop the dashboard (and so its local host and runner) when its standard input ends: for a parent process that keeps
    /// the dashboard's standard input open, such as a test harness, so the dashboard does not outlive it even after a
    /// SIGKILL (<see cref="Dashboard.Service.Contracts.Processes.ParentWatch"/>; docs/architecture.md, "A process tree that
    /// dies together"). Default false: <c>./run.sh</c> and services have no such parent.
    /// </summary>
    public bool StopAtStdinEof { get; set; }

    /// <summary>Folder of the preset scenarios (<c>*.json</c>) offered on the New run page.</summary>
    [Required]
    public string PresetsFolder { get; set; } = "examples";

    /// <summary>The data folder, absolute.</summary>
    public string DataFolderPath => BuildInfo.Resolve(DataFolder);

    /// <summary>The results database file, absolute.</summary>
    public string DatabasePath => Path.GetFullPath(Path.Combine(DataFolderPath, Database));

    /// <summary>The results store these options name: the SQLite file at <see cref="DatabasePath"/> or PostgreSQL at <see cref="ResultsConnectionString"/>.</summary>
    /// <remarks>A method, not a property: option validators read every property, and this one throws before validation says why.</remarks>
    /// <exception cref="ArgumentException">PostgreSql without a valid connection string (validation at start prevents it).</exception>
    public ResultsStore CreateResultsStore() => Storage == StorageProvider.PostgreSql
        ? Data.ResultsStore.PostgreSql(ResultsConnectionString ?? "")
        : Data.ResultsStore.Sqlite(DatabasePath);

    /// <summary>
    /// Null when the storage settings are usable, else the error naming the key (<c>ConnectionStrings:Results</c> missing
    /// or not a connection string).
    /// </summary>
    public string? StorageError()
    {
        if (Storage != StorageProvider.PostgreSql)
        {
            return null;
        }

        if (string.IsNullOrWhiteSpace(ResultsConnectionString))
        {
            return "ConnectionStrings:Results is required when Dashboard:Storage is PostgreSql: give the PostgreSQL connection string (e.g. Host=db;Database=results;Username=u;Password=p)";
        }

        try
        {
            _ = Data.ResultsStore.PostgreSql(ResultsConnectionString);
            return null;
        }
        catch (ArgumentException e)
        {
            return $"ConnectionStrings:Results is {e.Message}";
        }
    }

    /// <summary>The presets folder, absolute.</summary>
    public string PresetsFolderPath => BuildInfo.Resolve(PresetsFolder);
}
