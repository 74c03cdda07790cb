using System.ComponentModel.DataAnnotations;

namespace Dashboard.Service.Host.Hosting;

/// <summary>Section <c>ServiceHost</c>: where the variants listen and how their addresses are advertised.</summary>
public sealed class ServiceHostOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "ServiceHost";

    /// <summary>Address the variants listen on: <c>127.0.0.1</c> (default, this machine only) or <c>0.0.0.0</c> for remote runners.</summary>
    [Required]
    public string BindAddress { get; set; } = "127.0.0.1";

    /// <summary>Host name written into the addresses of <c>GET /endpoints</c>, e.g. <c>localhost</c> or this machine's name.</summary>
    [Required]
    public string AdvertisedHost { get; set; } = "localhost";

    /// <summary>TCP port per network variant; 0 lets the OS choose (the real port is listed in <c>/endpoints</c>). A variant without a port is not served.</summary>
    public Dictionary<string, int> Ports { get; set; } = [];

    /// <summary>Folder of the Unix domain sockets of the local-IPC variants; default <c>$TMPDIR/dashboard-host-{pid}</c>, removed at exit.</summary>
    public string? SocketDirectory { get; set; }

    /// <summary>Largest request body any variant accepts, in bytes (default 8 MiB; a 1000-element UDType array in text XML is about 0.5 MB).</summary>
    [Range(64 * 1024, 256 * 1024 * 1024)]
    public long MaxRequestBodyBytes { get; set; } = 8 * 1024 * 1024;

    /// <summary>
    /// Slow clients, in seconds (default 30): Kestrel closes a connection whose request headers have not all arrived
    /// within this time (<c>RequestHeadersTimeout</c>) and one idle for this long, an HTTP/2 connection whose preface
    /// never completes included (<c>KeepAliveTimeout</c>, Kestrel's default 130 s); the JVM's HTTP server closes one whose
    /// whole request (headers and body) has not arrived within it (<c>sun.net.httpserver.maxReqTime</c>), and one whose
    /// response has not been taken within max(300 s, this) (<c>maxRspTime</c>, which also counts processing). Request bodies must also keep up 240 bytes/s after a grace period of at most 5 s (Kestrel's
    /// <c>MinRequestBodyDataRate</c>). Ice holds no thread for a slow client and has no such timeout.
    /// </summary>
    [Range(1, 3600)]
    public int SlowClientTimeoutSeconds { get; set; } = 30;

    /// <summary>
    /// The JVM options that carry the limits above to the JVM service (docs/jvm-service.md): the request size limit
    /// (<c>dashboard.maxRequestBytes</c>, read by its Metro filter and as Ice's <c>Ice.MessageSizeMax</c>) and the
    /// JDK HTTP server's request and response time limits.
    /// </summary>
    public IEnumerable<string> JvmLimitArguments() =>
    [
        $"-Ddashboard.maxRequestBytes={MaxRequestBodyBytes}",
        $"-Dsun.net.httpserver.maxReqTime={SlowClientTimeoutSeconds}",
        // The JDK counts the service's own processing into the response time (from the request's last byte read to the
        // response's last byte written): generous, so a slow level is never cut off, while a client that never reads
        // its response still frees the worker thread.
        $"-Dsun.net.httpserver.maxRspTime={Math.Max(300, SlowClientTimeoutSeconds)}",
    ];

    /// <summary>The socket folder to use: <see cref="SocketDirectory"/> or the per-process default.</summary>
    public string EffectiveSocketDirectory => SocketDirectory ?? Path.Combine(Path.GetTempPath(), $"dashboard-host-{Environment.ProcessId}");
}
