using System.ComponentModel.DataAnnotations;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.Settings;

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

    /// <summary>
    /// A public name (DNS name or address) of this host for runners on other machines, or null (default). When set, every
    /// address in <c>GET /endpoints</c> names it whatever name the caller used, and the server certificate names it (SAN).
    /// When null, addresses name the host the caller used for <c>GET /endpoints</c> (its <c>Host</c> header); the
    /// certificate names localhost, this machine's name and every address of its network interfaces (docs/topologies.md).
    /// </summary>
    public string? PublicName { get; set; }

    /// <summary>
    /// TCP port per network variant. Default: each available variant's port in the catalogue
    /// (<see cref="EndpointVariant.DefaultPort"/>, 5091-5127); configuration overrides one at a time
    /// (<c>--ServiceHost:Ports:MetroSoap11=6100</c>); 0 lets the OS choose (the real port is listed in <c>/endpoints</c>).
    /// </summary>
    public Dictionary<string, int> Ports { get; set; } = VariantCatalogue.All
        .Where(v => v.IsAvailable && v.DefaultPort is not null)
        .ToDictionary(v => v.Name, v => v.DefaultPort!.Value, StringComparer.Ordinal);

    /// <summary>
    /// Stop when standard input ends (default false). The dashboard starts its local host with it and keeps the host's
    /// standard input open, unwritten, so the host (and the JVM it supervises) ends with the dashboard however the
    /// dashboard ends, SIGKILL included (docs/architecture.md, "A process tree that dies together").
    /// </summary>
    public bool StopAtStdinEof { get; set; }

    /// <summary>
    /// Whoever started this host starts it again when it exits with <see cref="Contracts.Resources.HostRestart.ExitCode"/>
    /// (default false). The dashboard starts its local host with it, and so does <c>Dashboard.Service.Host supervise</c>
    /// (<see cref="Hosting.HostSupervisor"/>, for a host on another machine); then <c>POST /restart</c> ends the host so that
    /// each launch of a run gets a fresh host process (docs/statistics.md, "Launches"). Without it the route answers 409.
    /// </summary>
    public bool RestartOnRequest { get; set; }

    /// <summary>
    /// The control API's token (docs/security.md, "The control API's token"): every route but <c>GET /healthz</c> asks for
    /// <c>Authorization: Bearer &lt;token&gt;</c>. Null or empty (default): one is made at first start into the security
    /// folder as <c>control-token</c> (mode 0600) and reused after. Never logged.
    /// </summary>
    public string? ControlToken { get; set; }

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

    /// <summary>
    /// The host's data folder; its <c>security/</c> subfolder holds the certificates, key stores and credential profiles
    /// (docs/security.md). Default <see cref="HostDataDirectory.Default"/> (<c>$XDG_DATA_HOME/dashboard-host</c>, else
    /// <c>~/.local/share/dashboard-host</c>), the same default the runner uses.
    /// </summary>
    public string? DataDirectory { get; set; }

    /// <summary>
    /// Credential profiles (profile name → user name and optional password): the accepted users of the Basic and
    /// UsernameToken variants. A profile without a password gets a random one, made once and kept in
    /// <c>credentials.json</c>. None configured: one profile <c>bench</c> (user <c>bench</c>).
    /// </summary>
    public Dictionary<string, CredentialProfileOptions> CredentialProfiles { get; set; } = [];

    /// <summary>The uids allowed to call <c>AspNetUdsBinXmlPeer</c> (checked with SO_PEERCRED); empty: the host's own uid.</summary>
    public int[] PeerUids { get; set; } = [];

    /// <summary>The data folder to use: <see cref="DataDirectory"/> or <see cref="HostDataDirectory.Default"/>.</summary>
    public string EffectiveDataDirectory => DataDirectory ?? HostDataDirectory.Default;

    /// <summary>The credential profiles to use: <see cref="CredentialProfiles"/>, or <c>bench</c> when none is configured.</summary>
    public IReadOnlyDictionary<string, CredentialProfileOptions> EffectiveCredentialProfiles =>
        CredentialProfiles.Count > 0 ? CredentialProfiles : new Dictionary<string, CredentialProfileOptions> { [DefaultProfile] = new() { UserName = DefaultProfile } };

    /// <summary>The profile scenarios name by default, and the one profile of the default configuration.</summary>
    public const string DefaultProfile = CredentialProfile.DefaultName;

    /// <summary>The socket folder to use: <see cref="SocketDirectory"/> or the per-process default.</summary>
    public string EffectiveSocketDirectory => SocketDirectory ?? Path.Combine(Path.GetTempPath(), $"dashboard-host-{Environment.ProcessId}");
}

/// <summary>One entry of <c>ServiceHost:CredentialProfiles</c>.</summary>
public sealed class CredentialProfileOptions
{
    /// <summary>The user name (no colon: Basic joins user name and password with one).</summary>
    public string UserName { get; set; } = "";

    /// <summary>The password, or null to have one made at random once and kept in <c>credentials.json</c>.</summary>
    public string? Password { get; set; }
}

/// <summary>Checks <see cref="ServiceHostOptions"/> beyond its attributes: data folder, profiles and peer uids.</summary>
public sealed class ServiceHostOptionsValidator : IValidateOptions<ServiceHostOptions>
{
    /// <inheritdoc />
    public ValidateOptionsResult Validate(string? name, ServiceHostOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var errors = new List<string>();
        if (options.DataDirectory is { } data && !Path.IsPathFullyQualified(data))
        {
            errors.Add($"ServiceHost:DataDirectory must be an absolute path, not '{data}'");
        }

        foreach (var (profile, entry) in options.CredentialProfiles)
        {
            if (string.IsNullOrWhiteSpace(profile) || profile.Any(c => !char.IsAsciiLetterOrDigit(c) && c is not '-' and not '_' and not '.'))
            {
                errors.Add($"ServiceHost:CredentialProfiles: profile name '{profile}' must be letters, digits, '-', '_' or '.'");
            }

            if (entry is null || string.IsNullOrWhiteSpace(entry.UserName) || entry.UserName.Contains(':', StringComparison.Ordinal))
            {
                errors.Add($"ServiceHost:CredentialProfiles:{profile}:UserName is required and has no ':'");
            }

            if (entry?.Password is { Length: 0 })
            {
                errors.Add($"ServiceHost:CredentialProfiles:{profile}:Password is empty; leave it out to have one made");
            }
        }

        if (options.PublicName is { } publicName && (string.IsNullOrWhiteSpace(publicName) || publicName.Any(c => char.IsWhiteSpace(c) || c is '/' or '"' or '\\')))
        {
            errors.Add($"ServiceHost:PublicName '{publicName}' is not a host name or address (no spaces, slashes or quotes)");
        }

        if (options.ControlToken is { Length: > 0 } token && (token.Length < 16 || token.Any(c => c <= ' ' || c > '~')))
        {
            errors.Add("ServiceHost:ControlToken must be at least 16 printable ASCII characters without spaces (or leave it out to have one made)");
        }

        errors.AddRange(options.PeerUids.Where(uid => uid < 0).Select(uid => $"ServiceHost:PeerUids: {uid} is not a uid"));
        return errors.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(errors);
    }
}
