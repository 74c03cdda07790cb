using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using FsCheck;
using FsCheck.Fluent;

namespace Dashboard.Tests.Properties;

/// <summary>
/// One generated scenario document (issue #14, part 1): its text and the recipe that made it, so a failing case reads
/// as "set levels[1] = 1e308; truncate at 37" rather than as a wall of JSON.
/// </summary>
/// <param name="Text">The document as a string; may hold a byte-order mark, lone surrogates, NUL, anything.</param>
/// <param name="Recipe">How it was made from a valid document.</param>
public sealed record ScenarioInput(string Text, string Recipe)
{
    /// <summary>The text as UTF-8 bytes, as a file or an HTTP body carries it (unpaired surrogates become U+FFFD).</summary>
    public byte[] Utf8 => new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: false).GetBytes(Text);

    /// <summary>The text as a reader of UTF-8 (a file, an HTTP body) sees it: a BOM skipped, invalid sequences as U+FFFD.</summary>
    public string Decoded
    {
        get
        {
            using var reader = new StreamReader(new MemoryStream(Utf8), Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
            return reader.ReadToEnd();
        }
    }

    /// <inheritdoc />
    public override string ToString()
    {
        var preview = Text.Length > 400 ? Text[..400] + $"… ({Text.Length} characters)" : Text;
        var shown = new StringBuilder();
        foreach (var c in preview)
        {
            shown.Append(char.IsControl(c) || char.IsSurrogate(c) ? $"\\u{(int)c:x4}" : c.ToString());
        }

        return $"[{Recipe}] {shown}";
    }
}

/// <summary>
/// FsCheck generators of scenario documents: a valid document (README.md, "Scenario document") with 0–3 field mutations (wrong types,
/// nulls, missing and extra fields, extreme numbers, huge strings, odd Unicode, duplicate keys, arrays where a value is
/// expected and the reverse) and at most one text mutation (truncated JSON, byte-order mark, wrapped in an array,
/// trailing garbage, the whole document replaced). About a third come out valid, so both outcomes are exercised.
/// </summary>
public static class ScenarioInputs
{
    /// <summary>The scenario's top-level fields.</summary>
    public static readonly string[] Fields = ["name", "host", "variants", "clients", "payloads", "levels", "requestsPerClient", "duration", "warmup", "repetitions"];

    private static readonly string[] ArrayFields = ["variants", "clients", "payloads", "levels"];

    private static readonly JsonSerializerOptions Raw = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>Documents whose valid form names <paramref name="host"/> (use an address that refuses connections where one could be called).</summary>
    public static Gen<ScenarioInput> Documents(string host) =>
        from fields in Valid(host)
        from mutations in Gen.Choose(0, 3).SelectMany(n => FieldMutation(fields).ArrayOf(n))
        from text in TextMutations()
        select Render(fields, mutations, text);

    /// <summary>Valid documents with exactly one known field's value (or one element of it) replaced by an odd value.</summary>
    public static Gen<(ScenarioInput Input, string Field)> OneFieldChanged(string host) =>
        from fields in Valid(host)
        from field in Gen.Elements(Fields)
        from odd in OddValue()
        from element in Gen.Choose(0, 3)
        let isArray = ArrayFields.Contains(field) && element < 3
        select (Render(fields, [isArray ? SetElement(field, element, odd) : Set(field, odd)], Identity), field);

    private static Gen<ValidFields> Valid(string host) =>
        from name in Gen.Elements("smoke", "Thesis × quick", "اختبار الحمل", "בדיקה", "🚀 run 1", "Ünïcödé — ok", new string('a', 200), "a")
        from variants in NonEmptySubset("AspNetHttpJson", "AspNetHttpXml", "AspNetH2BinXml", "AspNetUdsBinXml")
        from payloads in NonEmptySubset("Int", "String500", "Empty", "UDTypeArray1000", "Bytes4K")
        from levels in NonEmptySubset(1, 2, 5, 10, 50, 300, 1000)
        from byDuration in Gen.Elements(false, false, true)
        from requests in Gen.Choose(1, 100)
        from seconds in Gen.Choose(1, 59)
        from warmup in Gen.Choose(0, 10)
        from repetitions in Gen.Choose(1, 3)
        from optional in Gen.SubListOf("levels", "warmup", "repetitions")
        select new ValidFields(host, name, variants, payloads, levels, byDuration, requests, seconds, warmup, repetitions, optional);

    private static Gen<T[]> NonEmptySubset<T>(params T[] items) =>
        Gen.Shuffle(items).SelectMany(all => Gen.Choose(1, all.Length).Select(n => all.Take(n).ToArray()));

    /// <summary>An odd JSON value (raw text): each family the issue names, and plain valid ids in the wrong place.</summary>
    public static Gen<string> OddValue() => Gen.Frequency(
        (3, Gen.Elements("null", "true", "false", "0", "-1", "1", "2147483647", "2147483648", "-2147483649", "4294967296",
            "9223372036854775808", "1e308", "-1e308", "1.7976931348623157e309", "1.5", "-0", "1e-400", "0.0",
            "123456789012345678901234567890", "1E2")),
        (2, Gen.Elements("\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"\"", "\"  \"", "\"1e3\"", "\"0x10\"", "\"12\"", "\"-5\"",
            "\"2147483648\"")),
        (3, Gen.Elements("\"\\u0000\"", "\"a\\u0000b\"", "\"\\ud800\"", "\"\\udc00x\"", "\"x\\ud83d\"", "\"\\u202eevil\"",
            "\"שלום עולם\"", "\"مرحبا\"", "\"a\\nb\"", "\"tab\\there\"", "\"\\u2028\"", "\"😀\"", "\"\uD800\"", "\"x\uDC00y\"",
            "\"\0\"", "\"line\nbreak\"", "\"\uFEFF\"", "\"\\\\\"", "\"\\\"\"")),
        (1, Gen.Choose(1_000, 100_000).SelectMany(n => Gen.Elements(
            "\"" + new string('x', n) + "\"",
            "\"" + string.Concat(Enumerable.Repeat("😀", n / 2)) + "\"",
            "[" + string.Join(",", Enumerable.Repeat("1", n)) + "]"))),
        (2, Gen.Elements("[]", "[null]", "[1,\"a\",{}]", "{}", "{\"a\":1}", "[[[[[[[[[[]]]]]]]]]]", new string('[', 70) + new string(']', 70),
            new string('[', 300) + new string(']', 300), "{\"name\":\"nested\"}", "[{}]")),
        (2, Gen.Elements("\"00:00:00\"", "\"-00:00:01\"", "\"99:99:99\"", "\"1.00:00:00\"", "\"00:00:01\"", "\"01:00:00\"",
            "\"10675199.02:48:05.4775807\"", "\"00:00:00.0000001\"", "\"P1D\"", "\"1:2\"")),
        (2, Gen.Elements("\"http://\"", "\"ftp://x\"", "\"http://127.0.0.1:9\"", "\"https://[::1]:1\"", "\"file:///etc/passwd\"",
            "\"//x\"", "\"http://a b\"", "\"localhost:5090\"")),
        (3, Gen.Elements("\"AspNetHttpJson\"", "\"IceTcp\"", "\"AspNetHttpsJson\"", "\"CoreWcfHttp\"", "\"dotnet\"", "\"java\"", "\"Int\"",
            "[\"IceTcp\"]", "[\"AspNetHttpJson\",\"AspNetHttpJson\"]", "[\"aspnethttpjson\"]", "[\"java\"]", "[\"node\"]",
            "[\"dotnet\",\"dotnet\"]", "[0]", "[1001]", "[1,1]", "[-1]", "[2147483648]", "[\"10\"]", "[\"NaN\"]", "[1.5]", "[1e308]")),
        (1, Gen.Elements("NaN", "Infinity", "undefined", "'x'", "01", "+1", ".5", "0x10", "tru", "nul", "\"unterminated", "[1,", "{\"a\"")));

    private static Gen<string> OddKey() => Gen.Elements(
        "\"color\"", "\"Name\"", "\"NAME\"", "\"name \"", "\"\"", "\"\\u0000\"", "\"na\\nme\"", "\"\\ud800\"", "\"$type\"", "\"$id\"",
        "\"__proto__\"", "\"" + new string('k', 5_000) + "\"", "\"LEVELS\"", "\"requestsperclient\"", "\"Duration\"", "\"\uD800\"",
        "\"variants[0]\"", "\"ключ\"");

    private static Gen<Mutation> FieldMutation(ValidFields fields) => Gen.Frequency(
        (3, Gen.Elements(Fields).Select(Remove)),
        (5, Gen.Elements(Fields).SelectMany(f => OddValue().Select(v => Set(f, v)))),
        (3, Gen.Elements(ArrayFields).SelectMany(f => Gen.Choose(0, 4).SelectMany(i => OddValue().Select(v => SetElement(f, i, v))))),
        (2, OddKey().SelectMany(k => Gen.OneOf(OddValue(), Gen.Constant("1")).Select(v => AddRaw(k, v)))),
        (2, Gen.Elements(Fields).SelectMany(f => Gen.Elements(f, f.ToUpperInvariant(), char.ToUpperInvariant(f[0]) + f[1..])
            .SelectMany(k => Gen.OneOf(OddValue(), Gen.Constant(fields.ValueOf(f) ?? "1")).Select(v => AddRaw(Quote(k), v, "duplicate "))))));

    private static readonly TextMutation Identity = new("", t => t);

    private static Gen<TextMutation> TextMutations() => Gen.Frequency(
        (12, Gen.Constant(Identity)),
        (3, Gen.Choose(0, 1000).Select(p => new TextMutation($"truncate at {p}", t => t[..Math.Min(p, Math.Max(0, t.Length - 1))]))),
        (2, Gen.Constant(new TextMutation("BOM", t => "\uFEFF" + t))),
        (1, Gen.Constant(new TextMutation("BOM twice", t => "\uFEFF\uFEFF" + t))),
        (1, Gen.Constant(new TextMutation("in an array", t => "[" + t + "]"))),
        (1, Gen.Elements("}", ",", " // comment", "\0", " {}", "x").Select(g => new TextMutation($"append {Shown(g)}", t => t + g))),
        (1, Gen.Constant(new TextMutation("trailing comma", t => t.EndsWith('}') ? t[..^1] + ",}" : t))),
        (2, OddValue().Select(v => new TextMutation($"whole document = {Shown(v)}", _ => v))),
        (1, Gen.Elements("", " ", "\n", "\uFEFF").Select(v => new TextMutation($"whole document = {Shown(v)}", _ => v))));

    private static ScenarioInput Render(ValidFields fields, Mutation[] mutations, TextMutation text)
    {
        var members = fields.Members();
        foreach (var mutation in mutations)
        {
            mutation.Apply(members);
        }

        var json = "{\n  " + string.Join(",\n  ", members.Select(m => $"{m.Key}: {m.Value}")) + "\n}";
        var recipe = string.Join("; ", mutations.Select(m => m.Description).Append(text.Description).Where(d => d.Length > 0));
        return new ScenarioInput(text.Apply(json), recipe.Length == 0 ? "valid" : recipe);
    }

    private static Mutation Remove(string field) =>
        new($"remove {field}", members => members.RemoveAll(m => m.Key == Quote(field)));

    private static Mutation Set(string field, string value) =>
        new($"set {field} = {Shown(value)}", members =>
        {
            var index = members.FindIndex(m => m.Key == Quote(field));
            if (index >= 0)
            {
                members[index] = new Member(Quote(field), value);
            }
            else
            {
                members.Add(new Member(Quote(field), value));
            }
        });

    private static Mutation SetElement(string field, int element, string value) =>
        new($"set {field}[{element}] = {Shown(value)}", members =>
        {
            var index = members.FindIndex(m => m.Key == Quote(field));
            if (index < 0 || members[index].Elements is not { } elements)
            {
                return;
            }

            var copy = elements.ToList();
            if (element < copy.Count)
            {
                copy[element] = value;
            }
            else
            {
                copy.Add(value);
            }

            members[index] = Member.Array(Quote(field), copy);
        });

    private static Mutation AddRaw(string key, string value, string what = "add ") =>
        new($"{what}{Shown(key)}: {Shown(value)}", members => members.Add(new Member(key, value)));

    /// <summary>A JSON string literal of <paramref name="value"/>, non-ASCII letters kept as they are.</summary>
    public static string Quote(string value) => JsonSerializer.Serialize(value, Raw);

    private static string Shown(string value)
    {
        var cut = value.Length > 40 ? value[..40] + $"…({value.Length})" : value;
        return string.Concat(cut.Select(c => char.IsControl(c) || char.IsSurrogate(c) ? $"\\u{(int)c:x4}" : c.ToString()));
    }

    private sealed record Mutation(string Description, Action<List<Member>> Apply);

    private sealed record TextMutation(string Description, Func<string, string> Apply);

    private sealed record Member(string Key, string Value, IReadOnlyList<string>? Elements = null)
    {
        public static Member Array(string key, IReadOnlyList<string> elements) => new(key, "[" + string.Join(", ", elements) + "]", elements);
    }

    private sealed record ValidFields(
        string Host, string Name, string[] Variants, string[] Payloads, int[] Levels, bool ByDuration, int Requests, int Seconds,
        int Warmup, int Repetitions, List<string> Optional)
    {
        public List<Member> Members()
        {
            var members = new List<Member>
            {
                new(Quote("name"), Quote(Name)),
                new(Quote("host"), Quote(Host)),
                Member.Array(Quote("variants"), Variants.Select(Quote).ToArray()),
                Member.Array(Quote("clients"), [Quote("dotnet")]),
                Member.Array(Quote("payloads"), Payloads.Select(Quote).ToArray()),
            };
            if (!Optional.Contains("levels"))
            {
                members.Add(Member.Array(Quote("levels"), Levels.Select(l => l.ToString(CultureInfo.InvariantCulture)).ToArray()));
            }

            members.Add(ByDuration
                ? new Member(Quote("duration"), Quote(TimeSpan.FromSeconds(Seconds).ToString("c", CultureInfo.InvariantCulture)))
                : new Member(Quote("requestsPerClient"), Requests.ToString(CultureInfo.InvariantCulture)));
            if (!Optional.Contains("warmup"))
            {
                members.Add(new Member(Quote("warmup"), Warmup.ToString(CultureInfo.InvariantCulture)));
            }

            if (!Optional.Contains("repetitions"))
            {
                members.Add(new Member(Quote("repetitions"), Repetitions.ToString(CultureInfo.InvariantCulture)));
            }

            return members;
        }

        public string? ValueOf(string field) => Members().FirstOrDefault(m => m.Key == Quote(field))?.Value;
    }
}

/// <summary>
/// How the property tests run: a random seed by default (FsCheck prints it with a failure), or a fixed one to replay a
/// failure: <c>SCENARIO_PROPERTY_REPLAY="seed,gamma"</c> (the two numbers FsCheck printed), e.g.
/// <c>SCENARIO_PROPERTY_REPLAY=12345,67891 dotnet test tests/Service.Tests --filter FullyQualifiedName~Property</c>.
/// </summary>
public static class PropertyRuns
{
    /// <summary>The environment variable that fixes the seed.</summary>
    public const string ReplayVariable = "SCENARIO_PROPERTY_REPLAY";

    /// <summary>FsCheck's configuration for <paramref name="cases"/> cases, throwing on the first failure (with its replay seed).</summary>
    public static Config Config(int cases)
    {
        var config = FsCheck.Config.QuickThrowOnFailure.WithMaxTest(cases).WithQuietOnSuccess(true);
        var replay = Environment.GetEnvironmentVariable(ReplayVariable);
        if (string.IsNullOrWhiteSpace(replay))
        {
            return config;
        }

        var parts = replay.Trim('(', ')', ' ').Split(',', StringSplitOptions.TrimEntries);
        return config.WithReplay(ulong.Parse(parts[0], CultureInfo.InvariantCulture), ulong.Parse(parts[1], CultureInfo.InvariantCulture));
    }
}
