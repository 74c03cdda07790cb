using System.Reflection;

namespace Dashboard.Web.Options;

/// <summary>
/// Where this build came from: the repository root and the configuration it was built with (MSBuild writes both
/// into the assembly). Default paths of the runner, the service host and the web root are derived from them.
/// </summary>
public static class BuildInfo
{
    private static readonly Assembly Assembly = typeof(BuildInfo).Assembly;

    /// <summary>The repository root this assembly was built from, or null when it is not on this machine (published elsewhere).</summary>
    public static string? RepositoryRoot { get; } = FindRepositoryRoot();

    /// <summary>The build configuration, e.g. <c>Debug</c>.</summary>
    public static string Configuration { get; } = Metadata("Configuration") ?? "Debug";

    /// <summary>
    /// Resolves <paramref name="path"/>: absolute paths stay; relative ones are taken from the repository root when it
    /// exists, else from the application's directory.
    /// </summary>
    public static string Resolve(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        return Path.GetFullPath(Path.IsPathRooted(path) ? path : Path.Combine(RepositoryRoot ?? AppContext.BaseDirectory, path));
    }

    /// <summary>
    /// The web root: the published copy next to the executable (it also holds the packages' <c>_content</c>) when
    /// there is one, else the repository's top-level <c>wwwroot</c> (build output; package assets then come from the
    /// static web assets manifest).
    /// </summary>
    public static string WebRoot()
    {
        var published = Path.Combine(AppContext.BaseDirectory, "wwwroot");
        if (Directory.Exists(published) || RepositoryRoot is null)
        {
            return published;
        }

        return Path.Combine(RepositoryRoot, "wwwroot");
    }

    private static string? FindRepositoryRoot()
    {
        var root = Metadata("RepositoryRoot");
        return root is not null && File.Exists(Path.Combine(root, "Dashboard.sln")) ? Path.GetFullPath(root) : null;
    }

    private static string? Metadata(string key) =>
        Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == key)?.Value;
}
