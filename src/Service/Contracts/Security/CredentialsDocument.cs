using System.Text.Json;
using System.Text.Json.Serialization;

namespace Dashboard.Service.Contracts.Security;

/// <summary>
/// <c>credentials.json</c> of the security folder (docs/security.md):
/// <c>{"profiles":{"bench":{"userName":"bench","password":"…"}}}</c>. Written by the host, read by the runner and the
/// JVM service.
/// </summary>
/// <param name="Profiles">Profile name → user name and password.</param>
public sealed record CredentialsDocument(IReadOnlyDictionary<string, CredentialProfile> Profiles)
{
    /// <summary>camelCase, indented.</summary>
    public static JsonSerializerOptions JsonOptions { get; } = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
    };

    /// <summary>Reads the document from <paramref name="path"/>.</summary>
    /// <exception cref="InvalidDataException">The file is not a credentials document (bad JSON, a profile without user name or password).</exception>
    /// <exception cref="IOException">The file cannot be read.</exception>
    /// <exception cref="UnauthorizedAccessException">The file cannot be read.</exception>
    public static CredentialsDocument Read(string path) => Parse(File.ReadAllText(path), path);

    /// <summary>Parses the document from <paramref name="json"/>; <paramref name="source"/> names it in errors.</summary>
    /// <exception cref="InvalidDataException">Not a credentials document.</exception>
    public static CredentialsDocument Parse(string json, string source)
    {
        CredentialsDocument? document;
        try
        {
            document = JsonSerializer.Deserialize<CredentialsDocument>(json, JsonOptions);
        }
        catch (JsonException e)
        {
            // The message of a JsonException quotes no values, only the path and position.
            throw new InvalidDataException($"{source} is not a credentials document: {e.Message}", e);
        }

        if (document?.Profiles is null)
        {
            throw new InvalidDataException($"{source} is not a credentials document: no 'profiles' object");
        }

        foreach (var (name, profile) in document.Profiles)
        {
            if (profile is null || string.IsNullOrEmpty(profile.UserName) || string.IsNullOrEmpty(profile.Password))
            {
                throw new InvalidDataException($"{source}: profile '{name}' needs a userName and a password");
            }
        }

        return document;
    }

    /// <summary>The document as JSON text.</summary>
    public string ToJson() => JsonSerializer.Serialize(this, JsonOptions);
}
