using System.ComponentModel.DataAnnotations;

namespace Dashboard.Service.Host.Jvm;

/// <summary>Section <c>Jvm</c>: the JVM service process that serves the metro and ice variants (docs/jvm-service.md).</summary>
public sealed class JvmOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Jvm";

    /// <summary>False to serve the aspnet variants only.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>The <c>java</c> executable.</summary>
    [Required]
    public string JavaPath { get; set; } = "java";

    /// <summary>Folder with <c>dashboard-service.jar</c> and <c>classpath</c> (written by <c>src/Service/Jvm/build.sh</c>); default <c>jvm/</c> beside the host's executable.</summary>
    public string? ServiceDirectory { get; set; }

    /// <summary>
    /// Extra JVM options. Default: heap up to 15 % of the machine's memory (3.6 GB on 24 GiB): 300 clients of the
    /// WS-Security variants with 1000-element arrays kept a 1 GB heap in full collections (stress run, 2026-11-22).
    /// </summary>
    public string[] JvmArguments { get; set; } = ["-Xms256m", "-XX:MaxRAMPercentage=15"];

    /// <summary>
    /// How long the JVM may take to write its <c>ready</c> line, in seconds. Ten variants (eight Metro endpoints, each
    /// building its JAXB context) take about 20 s on 2 cores at load average 100; several hosts starting at once take
    /// longer, and a JVM stopped for being slow would only start again from the beginning.
    /// </summary>
    [Range(1, 600)]
    public int StartTimeoutSeconds { get; set; } = 180;

    /// <summary>
    /// Wait before the first restart of a JVM that died, in seconds; each further restart waits twice as long as the
    /// one before, up to <see cref="RestartMaxDelaySeconds"/> (exponential backoff, no jitter).
    /// </summary>
    [Range(0.0, 600.0)]
    public double RestartFirstDelaySeconds { get; set; } = 2;

    /// <summary>The longest wait before a restart, in seconds.</summary>
    [Range(0.0, 3600.0)]
    public double RestartMaxDelaySeconds { get; set; } = 60;

    /// <summary>
    /// How many restarts <see cref="RestartWindowMinutes"/> may hold: a JVM that dies once more than this stays down
    /// ("down: restarted N times in M min, giving up (last exit code X)" in <c>/healthz</c> and the log) until the host restarts.
    /// </summary>
    [Range(1, 1000)]
    public int MaxRestarts { get; set; } = 5;

    /// <summary>
    /// The window of <see cref="MaxRestarts"/>, in minutes (restarts older than this no longer count). A JVM that
    /// stayed up this long before it died counts as recovered: its backoff starts again from <see cref="RestartFirstDelaySeconds"/>.
    /// </summary>
    [Range(0.01, 1440.0)]
    public double RestartWindowMinutes { get; set; } = 10;

    /// <summary>The folder to use: <see cref="ServiceDirectory"/> or <c>jvm/</c> beside the executable.</summary>
    public string EffectiveServiceDirectory => ServiceDirectory ?? Path.Combine(AppContext.BaseDirectory, "jvm");
}
