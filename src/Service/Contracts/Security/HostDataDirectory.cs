namespace Dashboard.Service.Contracts.Security;

/// <summary>
/// Where a service host keeps its data (docs/security.md): <c>ServiceHost:DataDirectory</c>, by default
/// <c>$XDG_DATA_HOME/dashboard-host</c>, else <c>~/.local/share/dashboard-host</c>. The host and the runner compute the
/// same default, so a runner on the host's machine finds the security material without configuration.
/// </summary>
public static class HostDataDirectory
{
    /// <summary>The folder name under the data home.</summary>
    public const string FolderName = "dashboard-host";

    /// <summary>The security material's folder name inside the data directory.</summary>
    public const string SecurityFolderName = "security";

    /// <summary>The default data directory of this user: <c>$XDG_DATA_HOME/dashboard-host</c> or <c>~/.local/share/dashboard-host</c>.</summary>
    public static string Default => DefaultFor(Environment.GetEnvironmentVariable("XDG_DATA_HOME"), Environment.GetFolderPath(Environment.SpecialFolder.UserProfile));

    /// <summary>The default security folder of this user: <see cref="Default"/><c>/security</c>.</summary>
    public static string DefaultSecurityDirectory => SecurityDirectoryOf(Default);

    /// <summary>The default data directory for a given <c>XDG_DATA_HOME</c> (ignored when empty or relative, as the XDG spec says) and home folder.</summary>
    public static string DefaultFor(string? xdgDataHome, string home) =>
        !string.IsNullOrEmpty(xdgDataHome) && Path.IsPathRooted(xdgDataHome)
            ? Path.Combine(xdgDataHome, FolderName)
            : Path.Combine(home, ".local", "share", FolderName);

    /// <summary>The security folder of the data directory <paramref name="dataDirectory"/>.</summary>
    public static string SecurityDirectoryOf(string dataDirectory) => Path.Combine(dataDirectory, SecurityFolderName);
}
