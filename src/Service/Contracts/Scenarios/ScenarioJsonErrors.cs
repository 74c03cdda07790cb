using System.Globalization;
using System.Reflection;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// System.Text.Json's errors in the scenario's words (issue #36, finding 7): the field, what was expected in the
/// document's terms ("a list of whole numbers, e.g. [1, 10, 50]"), never a .NET type name or a reader option; an unknown
/// field named with the fields a scenario has.
/// </summary>
public static partial class ScenarioJsonErrors
{
    /// <summary>The scenario's top-level JSON field names (camelCase), in declaration order.</summary>
    public static IReadOnlyList<string> Fields { get; } = [.. typeof(ScenarioDocument)
        .GetProperties(BindingFlags.Public | BindingFlags.Instance)
        .Where(p => p.CanWrite || p.SetMethod is not null)
        .Select(p => JsonNamingPolicy.CamelCase.ConvertName(p.Name))];

    /// <summary>One line for people: what is wrong with the value at the error's path, and where (line and position, from 1).</summary>
    public static string Describe(JsonException error)
    {
        ArgumentNullException.ThrowIfNull(error);
        var message = error.Message;
        var where = error.LineNumber is { } line
            ? string.Create(CultureInfo.InvariantCulture, $" (line {line + 1}, position {error.BytePositionInLine + 1})")
            : "";
        if (UnmappedMember().Match(message) is { Success: true } unknown)
        {
            return $"unknown field \"{unknown.Groups[1].Value}\"; a scenario's fields are {string.Join(", ", Fields)}{where}";
        }

        if (NotConverted().Match(message) is { Success: true } converted)
        {
            return $"expected {Expected(converted.Groups[1].Value)}{where}";
        }

        // Anything else (a malformed document): the reader's first sentence, without its advice on reader options.
        var cut = message.IndexOf(". Path:", StringComparison.Ordinal);
        var first = (cut > 0 ? message[..cut] : message).Replace(Environment.NewLine, " ", StringComparison.Ordinal);
        var advice = first.IndexOf(" Change the reader options", StringComparison.Ordinal);
        return (advice > 0 ? first[..advice].TrimEnd('.', ' ') : first) + where;
    }

    /// <summary>What a .NET type of the scenario document holds, in the document's words.</summary>
    private static string Expected(string typeName)
    {
        var type = typeName.Replace("System.Nullable`1[", "", StringComparison.Ordinal);
        return type switch
        {
            _ when type.Contains("List`1[System.Int32]", StringComparison.Ordinal) => "a list of whole numbers, e.g. [1, 10, 50]",
            _ when type.Contains("List`1[System.String]", StringComparison.Ordinal) => "a list of names in quotes, e.g. [\"AspNetHttpJson\"]",
            _ when type.StartsWith("System.Int32", StringComparison.Ordinal) || type.StartsWith("System.Int64", StringComparison.Ordinal) => "a whole number, e.g. 20",
            _ when type.StartsWith("System.Double", StringComparison.Ordinal) => "a number, e.g. 0.05",
            _ when type.StartsWith("System.Boolean", StringComparison.Ordinal) => "true or false",
            _ when type.StartsWith("System.String", StringComparison.Ordinal) => "text in quotes",
            _ when type.StartsWith("System.TimeSpan", StringComparison.Ordinal) => "a duration in quotes, hh:mm:ss, e.g. \"00:00:20\"",
            _ when type.StartsWith("System.DateTime", StringComparison.Ordinal) => "an ISO 8601 time in quotes, e.g. \"2026-11-27T18:00:00Z\"",
            _ => "an object with the documented fields (docs/web.md, \"Scenario documents\")",
        };
    }

    [GeneratedRegex("The JSON property '([^']*)' could not be mapped")]
    private static partial Regex UnmappedMember();

    [GeneratedRegex("The JSON value could not be converted to ([^ .]+(?:\\.[^ .]+)*?)\\.(?: |$)")]
    private static partial Regex NotConverted();
}
