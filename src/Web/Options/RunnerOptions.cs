using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Options;

/// <summary>Section <c>Dashboard:Runner</c>: the built runner executable the queue starts for each run.</summary>
public sealed class RunnerOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard:Runner";

    /// <summary>
    /// Path of the runner executable (never <c>dotnet run</c>, which keeps a core busy after a build); relative paths start at the repository root.
    /// Default: the runner's build output of this configuration.
    /// </summary>
    [Required]
    public string ExecutablePath { get; set; } = $"src/Runner/bin/{BuildInfo.Configuration}/net10.0/Dashboard.Runner";

    /// <summary>How long a run waits before it is tried again when the runner says the machine is busy (exit code 4).</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan BusyRetryDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How long the runner may take to exit after SIGINT before it is killed.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan StopTimeout { get; set; } = TimeSpan.FromSeconds(20);

    /// <summary>
    /// The runner's <c>--security-dir</c> (the CA, client key store and credential profiles of the hosts it calls); null:
    /// the local host's (<see cref="LocalHostOptions.DataDirectory"/>/security when set, else the runner's own default,
    /// the same folder the local host uses by default).
    /// </summary>
    public string? SecurityDirectory { get; set; }

    /// <summary>The executable, absolute.</summary>
    public string ExecutableFullPath => BuildInfo.Resolve(ExecutablePath);
}
