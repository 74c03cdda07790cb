using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>Reads and validates scenario documents: the one entry point for JSON from files, the API and the UI.</summary>
public static class ScenarioLoader
{
    /// <summary>The JSON options of scenario documents: camelCase, unknown fields rejected, indented output.</summary>
    public static JsonSerializerOptions JsonOptions { get; } = new(JsonSerializerDefaults.Web)
    {
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        WriteIndented = true,
        AllowTrailingCommas = false,
        // Names are shown to people (run page, exports): keep "×" and other non-ASCII letters as they are.
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>
    /// <paramref name="text"/> without a leading byte-order mark (U+FEFF), as <see cref="Parse"/> reads it. A reader that
    /// decoded the bytes (a file, an HTTP body) has skipped the encoding's own mark already; this skips one more, so every
    /// entry point (file, API, UI) accepts the same documents.
    /// </summary>
    public static string WithoutByteOrderMark(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return text.StartsWith('\uFEFF') ? text[1..] : text;
    }

    /// <summary>Parses and validates a scenario from JSON text.</summary>
    /// <remarks>
    /// A leading byte-order mark is skipped. Refused, always with a <see cref="ScenarioException"/> naming the field:
    /// text that is not valid Unicode (an unpaired surrogate), malformed JSON, a root that is not an object, a field
    /// given twice (names match case-insensitively, as binding does), an unknown field, a wrong type or a value out of
    /// range (<see cref="ScenarioValidator"/>).
    /// </remarks>
    /// <exception cref="ScenarioException">The document is refused; the message is one line, <c>field: reason</c>.</exception>
    public static ScenarioDocument Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        json = WithoutByteOrderMark(json);

        if (ScenarioText.IndexOfUnpairedSurrogate(json) is var bad and >= 0)
        {
            throw new ScenarioException("scenario", $"the text is not valid Unicode: an unpaired surrogate at character {bad + 1}");
        }

        ScenarioDocument? document;
        try
        {
            document = JsonSerializer.Deserialize<ScenarioDocument>(json, JsonOptions);
        }
        catch (JsonException e)
        {
            throw new ScenarioException(FieldOf(e), ScenarioJsonErrors.Describe(e), e);
        }

        if (document is null)
        {
            throw new ScenarioException("scenario", "the document is null; expected a JSON object");
        }

        RefuseRepeatedFields(json);
        Validate(document);
        return document;
    }

    /// <summary>Parses and validates a scenario from JSON text once (<see cref="Parse"/>): the typed document the dashboard queues.</summary>
    /// <exception cref="ScenarioException">The document is refused (see <see cref="Parse"/>).</exception>
    public static ValidScenario ParseValid(string json) => new(Parse(json));

    /// <summary>Validates a document built or changed in code (the UI's editor, a preset moved to the local host) once.</summary>
    /// <exception cref="ScenarioException">A field is invalid; <see cref="ScenarioException.Problems"/> lists all of them.</exception>
    public static ValidScenario Valid(ScenarioDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        Validate(document);
        return new ValidScenario(document);
    }

    /// <summary>Reads, parses and validates a scenario file.</summary>
    /// <exception cref="ScenarioException">The file cannot be read, or its content is refused (see <see cref="Parse"/>).</exception>
    public static ScenarioDocument Load(string path)
    {
        string json;
        try
        {
            json = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new ScenarioException("scenario", $"cannot read '{path}': {e.Message}", e);
        }

        return Parse(json);
    }

    /// <summary>Validates a document built in code (the UI's editor); same rules as <see cref="Parse"/>.</summary>
    /// <exception cref="ScenarioException">A field is invalid; <see cref="ScenarioException.Problems"/> lists all of them.</exception>
    public static void Validate(ScenarioDocument document)
    {
        var result = new ScenarioValidator().Validate(document);
        if (result.IsValid)
        {
            return;
        }

        var problems = AtMostPerField(result.Errors.Select(e => (e.PropertyName, e.ErrorMessage)).ToList());
        throw new ScenarioException(problems[0].Field, problems[0].Message) { Problems = problems };
    }

    /// <summary>Problems shown per field (its elements counted together: <c>levels[3]</c> is <c>levels</c>'s); the rest are counted in one line.</summary>
    public const int ProblemsPerField = 3;

    // At most ProblemsPerField problems of each field, in their order, and "and N more problems in FIELD" for the rest: a
    // list of 5,000 bad levels is refused with a readable answer, not 4,000 lines.
    private static (string Field, string Message)[] AtMostPerField(List<(string Field, string Message)> problems)
    {
        static string Root(string field) => field.Split('[', '.')[0];
        var kept = new List<(string Field, string Message)>();
        foreach (var group in problems.GroupBy(p => Root(p.Field), StringComparer.OrdinalIgnoreCase))
        {
            var all = group.ToList();
            kept.AddRange(all.Take(ProblemsPerField));
            if (all.Count > ProblemsPerField)
            {
                kept.Add((group.Key, string.Create(CultureInfo.InvariantCulture, $"and {all.Count - ProblemsPerField:N0} more problems in {group.Key}")));
            }
        }

        return [.. kept];
    }

    /// <summary>
    /// The document as JSON, in the shape <see cref="Parse"/> reads. An open document's levels are its <c>rates</c>: its
    /// <c>levels</c> (unused; the thesis sweep when absent) are left out, so a stored open scenario does not read as a
    /// sweep of 16 client counts beside its rates.
    /// </summary>
    public static string ToJson(ScenarioDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (!document.IsOpen)
        {
            return JsonSerializer.Serialize(document, JsonOptions);
        }

        var json = JsonSerializer.SerializeToNode(document, JsonOptions)!.AsObject();
        json.Remove("levels");
        return json.ToJsonString(JsonOptions);
    }

    /// <summary>
    /// A field given twice would be read as its last value without a word (System.Text.Json keeps the last one); a
    /// document that says two things about one field is refused instead.
    /// </summary>
    private static void RefuseRepeatedFields(string json)
    {
        using var parsed = JsonDocument.Parse(json);
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var property in parsed.RootElement.EnumerateObject())
        {
            if (!seen.Add(property.Name))
            {
                throw new ScenarioException(property.Name, "the field is given twice; give each field once");
            }
        }
    }

    private static string FieldOf(JsonException e)
    {
        var path = e.Path;
        if (string.IsNullOrEmpty(path) || path == "$")
        {
            return "scenario";
        }

        return path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : path.TrimStart('$');
    }
}
