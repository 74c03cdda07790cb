using System.Text.Json;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Web.Api;

/// <summary>The body of <c>PATCH /api/runs/{id}</c>: a run's name and notes; a field left out stays as it is, an empty string clears it.</summary>
/// <param name="Name">The run's name, at most <see cref="MaxName"/> characters, or null.</param>
/// <param name="Notes">Free-text notes, at most <see cref="MaxNotes"/> characters, or null.</param>
public sealed record RunAnnotation(string? Name, string? Notes)
{
    /// <summary>Longest name, in characters.</summary>
    public const int MaxName = 200;

    /// <summary>Longest notes, in characters.</summary>
    public const int MaxNotes = 10_000;

    /// <summary>Reads an annotation from JSON text that parses (the caller checked).</summary>
    /// <exception cref="ScenarioException">The body is not an object, has another field, a field that is not a string, or one too long; the field is named.</exception>
    public static RunAnnotation Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        if (document.RootElement.ValueKind != JsonValueKind.Object)
        {
            throw new ScenarioException("body", "give an object: {\"name\": \"...\", \"notes\": \"...\"}");
        }

        string? name = null;
        string? notes = null;
        foreach (var property in document.RootElement.EnumerateObject())
        {
            var value = property.Value.ValueKind switch
            {
                JsonValueKind.String => property.Value.GetString(),
                JsonValueKind.Null => null,
                _ => throw new ScenarioException(property.Name, "give a string"),
            };
            switch (property.Name)
            {
                case "name" when value is { Length: > MaxName }:
                    throw new ScenarioException("name", $"at most {MaxName} characters (it has {value.Length})");
                case "name":
                    name = value;
                    break;
                case "notes" when value is { Length: > MaxNotes }:
                    throw new ScenarioException("notes", $"at most {MaxNotes} characters (it has {value.Length})");
                case "notes":
                    notes = value;
                    break;
                default:
                    throw new ScenarioException(property.Name, "unknown field; a run has 'name' and 'notes'");
            }
        }

        return new RunAnnotation(name, notes);
    }
}
