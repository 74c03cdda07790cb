using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Host.Settings;

namespace Dashboard.Service.Host.Control;

/// <summary>
/// The token the control API asks for (docs/security.md, "The control API's token"): <c>ServiceHost:ControlToken</c>, or
/// the one in the security folder's <c>control-token</c> (0600), made at first start and reused after, so runners and
/// dashboards that read it once keep working across restarts.
/// </summary>
public sealed class ControlToken
{
    private const UnixFileMode FolderMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private const UnixFileMode PrivateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;

    private ControlToken(string value, string source)
    {
        Value = value;
        Source = source;
    }

    /// <summary>The token. Never logged.</summary>
    public string Value { get; }

    /// <summary>Where it came from, for the log: <c>ServiceHost:ControlToken</c> or the file's path.</summary>
    public string Source { get; }

    /// <summary>
    /// The configured token, or the one of <c>&lt;DataDirectory&gt;/security/control-token</c>, made when the file is
    /// missing or empty: written to a temporary file created 0600 and renamed without replacing, so two hosts starting on
    /// one folder agree on the first one written.
    /// </summary>
    /// <exception cref="IOException">The folder or the file cannot be written or read.</exception>
    public static ControlToken LoadOrCreate(ServiceHostOptions options, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(logger);
        if (!string.IsNullOrEmpty(options.ControlToken))
        {
            logger.LogInformation("Control API token: from ServiceHost:ControlToken");
            return new ControlToken(options.ControlToken, "ServiceHost:ControlToken");
        }

        var directory = Path.GetFullPath(HostDataDirectory.SecurityDirectoryOf(options.EffectiveDataDirectory));
        Directory.CreateDirectory(directory, FolderMode);
        var path = Path.Combine(directory, HostControlToken.FileName);
        if (HostControlToken.ReadFile(directory) is { } existing)
        {
            File.SetUnixFileMode(path, PrivateMode);
            logger.LogInformation("Control API token: read from {Path}", path);
            return new ControlToken(existing, path);
        }

        var token = HostControlToken.Generate();
        var temporary = Path.Combine(directory, $".{HostControlToken.FileName}.{Guid.NewGuid():N}");
        using (var stream = new FileStream(temporary, new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write, UnixCreateMode = PrivateMode }))
        using (var writer = new StreamWriter(stream))
        {
            writer.Write(token + "\n");
        }

        try
        {
            // An empty file left by a crash is replaced; a token another host wrote meanwhile wins.
            File.Move(temporary, path, overwrite: File.Exists(path) && HostControlToken.ReadFile(directory) is null);
        }
        catch (IOException) when (File.Exists(path))
        {
            File.Delete(temporary);
            var winner = HostControlToken.ReadFile(directory) ?? throw new IOException($"{path} exists but holds no token");
            logger.LogInformation("Control API token: read from {Path}", path);
            return new ControlToken(winner, path);
        }

        logger.LogInformation("Control API token: made into {Path} (mode 0600; runners on this machine read it there)", path);
        return new ControlToken(token, path);
    }
}
