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

    /// <summary>The socket folder to use: <see cref="SocketDirectory"/> or the per-process default.</summary>
    public string EffectiveSocketDirectory => SocketDirectory ?? Path.Combine(Path.GetTempPath(), $"dashboard-host-{Environment.ProcessId}");
}
