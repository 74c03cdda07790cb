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

    /// <summary>Base address of the local host's control API (DESIGN.md §4).</summary>
    [Required]
    public Uri Address { get; set; } = new("http://localhost:5090");

    /// <summary>How often every known host's <c>GET /healthz</c> is polled.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan HealthPollInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>The executable, absolute.</summary>
    public string ExecutableFullPath => BuildInfo.Resolve(ExecutablePath);
}
