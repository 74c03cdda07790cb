using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Options;

/// <summary>Section <c>Dashboard</c>: where results live and whether a local service host is started.</summary>
public sealed class DashboardOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard";

    /// <summary>Folder of the results database and the list of hosts; relative paths start at the repository root.</summary>
    [Required]
    public string DataFolder { get; set; } = "data";

    /// <summary>File name (or path, relative to <see cref="DataFolder"/>) of the results database.</summary>
    [Required]
    public string Database { get; set; } = "results.db";

    /// <summary>Start the local service host as a child process (<c>--Dashboard:StartLocalHost=false</c> to use another).</summary>
    public bool StartLocalHost { get; set; } = true;

    /// <summary>Folder of the preset scenarios (<c>*.json</c>) offered on the New run page.</summary>
    [Required]
    public string PresetsFolder { get; set; } = "examples";

    /// <summary>The data folder, absolute.</summary>
    public string DataFolderPath => BuildInfo.Resolve(DataFolder);

    /// <summary>The results database file, absolute.</summary>
    public string DatabasePath => Path.GetFullPath(Path.Combine(DataFolderPath, Database));

    /// <summary>The presets folder, absolute.</summary>
    public string PresetsFolderPath => BuildInfo.Resolve(PresetsFolder);
}
