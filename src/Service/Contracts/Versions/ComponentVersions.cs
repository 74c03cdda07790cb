using System.IO.Compression;
using System.Reflection;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace Dashboard.Service.Contracts.Versions;

/// <summary>
/// Versions of the components on a measured path, read from what is really loaded or installed (docs/statistics.md,
/// "Environment"): a .NET assembly's informational version, a jar's manifest, an npm package's <c>package.json</c>.
/// Nothing here is a hard-coded version string. The service host serves them at <c>GET /versions</c>; the runner
/// records them with each run.
/// </summary>
public static partial class ComponentVersions
{
    /// <summary>
    /// The version of a loaded assembly: its informational version without the <c>+commit</c> suffix (e.g. <c>10.0.1</c>,
    /// <c>2.85.0</c>), else its assembly version; <c>"?"</c> when it has neither.
    /// </summary>
    public static string OfAssembly(Assembly assembly)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        var informational = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        if (!string.IsNullOrEmpty(informational))
        {
            var plus = informational.IndexOf('+', StringComparison.Ordinal);
            return plus >= 0 ? informational[..plus] : informational;
        }

        return assembly.GetName().Version?.ToString() ?? "?";
    }

    /// <summary>
    /// The version of the assembly file <paramref name="path"/> (not loaded into this process): its product version
    /// (the informational version, without <c>+commit</c>), else its file version; null when the file is missing.
    /// </summary>
    public static string? OfAssemblyFile(string path)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        var info = System.Diagnostics.FileVersionInfo.GetVersionInfo(path);
        var version = !string.IsNullOrEmpty(info.ProductVersion) ? info.ProductVersion : info.FileVersion;
        if (string.IsNullOrEmpty(version))
        {
            return "?";
        }

        var plus = version.IndexOf('+', StringComparison.Ordinal);
        return plus >= 0 ? version[..plus] : version;
    }

    /// <summary>
    /// The version of the jar <paramref name="path"/>: its manifest's <c>Bundle-Version</c> or <c>Implementation-Version</c>,
    /// else the version in the file name the path resolves to (Debian installs <c>grpc-core.jar</c> → <c>grpc-core-1.41.3.jar</c>);
    /// null when the jar is missing, unreadable or names no version.
    /// </summary>
    public static string? OfJar(string path)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        try
        {
            using var jar = ZipFile.OpenRead(path);
            if (jar.GetEntry("META-INF/MANIFEST.MF") is { } entry)
            {
                using var reader = new StreamReader(entry.Open());
                var attributes = reader.ReadToEnd().Split('\n').Select(l => l.TrimEnd('\r').Split(':', 2)).Where(p => p.Length == 2)
                    .GroupBy(p => p[0].Trim(), StringComparer.OrdinalIgnoreCase).ToDictionary(g => g.Key, g => g.First()[1].Trim(), StringComparer.OrdinalIgnoreCase);
                foreach (var key in new[] { "Bundle-Version", "Implementation-Version" })
                {
                    if (attributes.TryGetValue(key, out var value) && value.Length > 0)
                    {
                        return value;
                    }
                }
            }
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            // An unreadable jar: the file name may still say.
        }

        var resolved = new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? path;
        var match = VersionInFileName().Match(Path.GetFileName(resolved));
        return match.Success ? match.Groups[1].Value : null;
    }

    /// <summary>The version in an npm package's <c>package.json</c> under <paramref name="nodeModules"/>, or null when it is not installed.</summary>
    public static string? OfNodePackage(string nodeModules, string package)
    {
        var manifest = Path.Combine(nodeModules, package, "package.json");
        if (!File.Exists(manifest))
        {
            return null;
        }

        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(manifest));
            return document.RootElement.TryGetProperty("version", out var version) ? version.GetString() : null;
        }
        catch (Exception e) when (e is IOException or JsonException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    [GeneratedRegex(@"-(\d+(?:\.\d+)+(?:[.-][A-Za-z0-9]+)?)\.jar$")]
    private static partial Regex VersionInFileName();
}
