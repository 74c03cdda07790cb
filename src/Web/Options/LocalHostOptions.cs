using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Options;

/// <summary>Section <c>Dashboard:LocalHost</c>: the service host the dashboard starts as a child process.</summary>
public sealed class LocalHostOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard:LocalHost";

    /// <summary>Path of the built service host; relative paths start at the repository root.</summary>
    [Required]
    public string ExecutablePath { get; set; } = $"src/Service/Host/bin/{BuildInfo.Configuration}/net10.0/Dashboard.Service.Host";

    /// <summary>Base address of the local host's control API (docs/architecture.md).</summary>
    [Required]
    public Uri Address { get; set; } = new("http://localhost:5090");

    /// <summary>How often every known host's <c>GET /healthz</c> is polled.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan HealthPollInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// How often every known host's <c>GET /healthz</c> is polled while a run goes: the runner watches the host it loads,
    /// and the dashboard's CPU is others' to the run's disturbed check (bench/README.md, "The dashboard's own CPU while a
    /// run goes"). The hosts are polled again as soon as the run ends.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan HealthPollIntervalWhileRunning { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>
    /// How long a run for the local host waits for it to answer <c>GET /healthz</c> at all (up, or "starting" while its
    /// JVM starts) when the dashboard has just started it: a dashboard restarted with runs waiting starts the first one at
    /// once, before the host listens. The run starts as soon as the host answers, or at the end of this wait, when the runner reports what it finds (a host that is
    /// down fails the run with the reason). 0 does not wait.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:10:00")]
    public TimeSpan StartWait { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>
    /// The local host's data folder (its <c>ServiceHost:DataDirectory</c>: certificates and credential profiles,
    /// docs/security.md); null: the host's default, which is also the runner's. When set, the dashboard passes it to the
    /// host and its <c>security</c> subfolder to the runner (<c>--security-dir</c>).
    /// </summary>
    public string? DataDirectory { get; set; }

    /// <summary>
    /// The local host's control token (docs/security.md), or null (default): the dashboard then reads the one the host
    /// made in its security folder (<see cref="SecurityDirectory"/>, <c>control-token</c>). When set and the dashboard
    /// starts the host, it hands it to the host (<c>ServiceHost__ControlToken</c> in its environment). Set it when the
    /// host is another machine's or container's (docker-compose.yml). Never logged.
    /// </summary>
    public string? ControlToken { get; set; }

    /// <summary>The local host's security folder: <c>&lt;DataDirectory&gt;/security</c>, else the host's default one.</summary>
    public string SecurityDirectory => Service.Contracts.Security.HostDataDirectory.SecurityDirectoryOf(
        DataDirectory is { } data ? Path.GetFullPath(data) : Service.Contracts.Security.HostDataDirectory.Default);

    /// <summary>The executable, absolute.</summary>
    public string ExecutableFullPath => BuildInfo.Resolve(ExecutablePath);
}
