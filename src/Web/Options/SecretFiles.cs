namespace Dashboard.Web.Options;

/// <summary>
/// Settings read from files, as docker-compose secrets and the official images' <c>*_FILE</c> variables do
/// (docs/security.md, "docker-compose secrets"): a configuration key ending in <c>_FILE</c> names a file whose content
/// (one trailing line break removed) becomes the value of the key without the suffix, e.g. the environment variable
/// <c>Dashboard__LocalHost__ControlToken_FILE=/run/secrets/host_token</c> sets <c>Dashboard:LocalHost:ControlToken</c>.
/// The file's value wins over the key given directly. Only keys with a section (a <c>:</c>, <c>__</c> in the environment)
/// are read, so a machine's own variables such as <c>SSL_CERT_FILE</c> are left alone.
/// </summary>
public static class SecretFiles
{
    /// <summary>The suffix of a key that names a file.</summary>
    public const string Suffix = "_FILE";

    /// <summary>
    /// Reads every <c>KEY_FILE</c> of <paramref name="configuration"/> and adds the values as <c>KEY</c> (a source added last,
    /// so it wins). Returns the keys set (never their values).
    /// </summary>
    /// <exception cref="InvalidOperationException">A named file is missing or unreadable; the message names the key and the path.</exception>
    public static IReadOnlyList<string> Apply(IConfigurationManager configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        var values = Read(configuration);
        if (values.Count > 0)
        {
            configuration.AddInMemoryCollection(values);
        }

        return [.. values.Keys];
    }

    /// <summary>The values of every <c>KEY_FILE</c> of <paramref name="configuration"/>, by <c>KEY</c>.</summary>
    /// <exception cref="InvalidOperationException">A named file is missing or unreadable.</exception>
    public static Dictionary<string, string?> Read(IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        var values = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        foreach (var (key, path) in configuration.AsEnumerable())
        {
            // Section keys only (Section:Key_FILE, Section__Key_FILE in the environment): a machine's own variables such as
            // SSL_CERT_FILE are not the dashboard's settings.
            if (!key.EndsWith(Suffix, StringComparison.OrdinalIgnoreCase) || !key.Contains(':', StringComparison.Ordinal) || string.IsNullOrEmpty(path))
            {
                continue;
            }

            string text;
            try
            {
                text = File.ReadAllText(path);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                throw new InvalidOperationException($"{key}: cannot read the secret file '{path}': {e.Message}", e);
            }

            values[key[..^Suffix.Length]] = text.EndsWith("\r\n", StringComparison.Ordinal) ? text[..^2] : text.EndsWith('\n') ? text[..^1] : text;
        }

        return values;
    }
}
