using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.Properties;
using FsCheck;
using FsCheck.Fluent;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>
/// Issue #14, part 1: generated scenario documents through <see cref="ScenarioLoader"/> (FsCheck, tests/Shared/Properties).
/// A failure prints its replay seed; <c>SCENARIO_PROPERTY_REPLAY=seed,gamma</c> runs the same cases again (see
/// <see cref="PropertyRuns"/>).
/// </summary>
public sealed class ScenarioLoaderPropertyTests
{
    private const string Host = "http://localhost:5090";

    [Fact]
    public void Parse_GeneratedDocuments_AcceptedOrRefusedInOneLineNamingTheField()
    {
        var accepted = 0;
        var refused = 0;
        Prop.ForAll(ScenarioInputs.Documents(Host).ToArbitrary(), input =>
        {
            var outcome = ParseChecked(input.Text);
            if (outcome is null)
            {
                accepted++;
            }
            else
            {
                refused++;
            }
        }).Check(PropertyRuns.Config(200));

        // The generator must exercise both outcomes, or the property says little.
        Assert.True(accepted >= 10, $"only {accepted} of {accepted + refused} generated documents were valid");
        Assert.True(refused >= 60, $"only {refused} of {accepted + refused} generated documents were refused");
    }

    [Fact]
    public void Parse_OneFieldSetToAnOddValue_RefusalNamesThatField()
    {
        Prop.ForAll(ScenarioInputs.OneFieldChanged(Host).ToArbitrary(), pair =>
        {
            var (input, field) = pair;
            var error = ParseChecked(input.Text);
            if (error is null)
            {
                return;
            }

            // Text that is not valid UTF-16 (a raw lone surrogate; files and HTTP bodies never decode to one) is refused as
            // a whole, with its position.
            if (ScenarioText.IndexOfUnpairedSurrogate(input.Text) >= 0)
            {
                Assert.Equal("scenario", error.Field);
                return;
            }

            // One field is wrong: the refusal names it (or, for the either-or pair and the client × variant rule, its partner).
            string[] named = field switch
            {
                "duration" => ["duration", "requestsPerClient"],
                "requestsPerClient" => ["requestsPerClient", "duration"],
                "variants" => ["variants", "clients"],
                _ => [field],
            };
            Assert.True(named.Any(f => error.Field == f || error.Field.StartsWith(f + "[", StringComparison.Ordinal)),
                $"{field} was changed but the refusal names '{error.Field}': {error.Message}");
        }).Check(PropertyRuns.Config(100));
    }

    [Theory]
    [InlineData("{\"name\": \"a\", \"name\": \"b\"}", "name")]
    [InlineData("{\"levels\": [1], \"LEVELS\": [2]}", "LEVELS")]
    public void Parse_FieldGivenTwice_IsRefusedNamingIt(string json, string field)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));
        Assert.Equal(field, error.Field);
        Assert.Contains("given twice", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("variants", "null")]
    [InlineData("variants", "[null]")]
    [InlineData("clients", "null")]
    [InlineData("clients", "[null]")]
    [InlineData("payloads", "null")]
    [InlineData("levels", "null")]
    [InlineData("name", "null")]
    [InlineData("host", "null")]
    public void Parse_NullField_IsRefusedNamingIt(string field, string value)
    {
        var fields = new Dictionary<string, string>
        {
            ["name"] = "\"n\"", ["host"] = "\"http://localhost:5090\"", ["variants"] = "[\"AspNetHttpJson\"]", ["clients"] = "[\"dotnet\"]",
            ["payloads"] = "[\"Int\"]", ["levels"] = "[1]", ["requestsPerClient"] = "1",
        };
        fields[field] = value;
        var json = "{" + string.Join(", ", fields.Select(f => $"\"{f.Key}\": {f.Value}")) + "}";

        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));

        Assert.StartsWith(field, error.Field, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void Parse_ByteOrderMark_IsSkipped()
    {
        var scenario = ScenarioLoader.Parse("\uFEFF" + """
            {"name": "n", "host": "http://localhost:5090", "variants": ["AspNetHttpJson"], "clients": ["dotnet"], "payloads": ["Int"], "requestsPerClient": 1}
            """);
        Assert.Equal("n", scenario.Name);
    }

    [Theory]
    [InlineData("{\"name\": \"a\nb\"}")]
    [InlineData("{\"na\\nme\": 1}")]
    [InlineData("{\"name\": \"x\", \"host\": \"http://a\\nb\"}")]
    public void Parse_NewlineInTheDocument_RefusalStaysOnOneLine(string json)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));
        Assert.DoesNotContain('\n', error.Message);
        Assert.DoesNotContain('\n', error.Field);
    }

    /// <summary>Parses <paramref name="text"/>: null when accepted (and the document survives a round trip), the refusal otherwise; any other exception fails.</summary>
    private static ScenarioException? ParseChecked(string text)
    {
        try
        {
            var document = ScenarioLoader.Parse(text);
            // An accepted document is stored and sent on as JSON (the API, the queue): that must work and read back the same.
            var json = ScenarioLoader.ToJson(document);
            Assert.Equal(json, ScenarioLoader.ToJson(ScenarioLoader.Parse(json)));
            return null;
        }
        catch (ScenarioException e)
        {
            AssertOneLineNamingAField(e);
            return e;
        }
    }

    /// <summary>The refusal's shape: <c>field: reason</c> on one line, the field a JSON path, every problem one line too.</summary>
    private static void AssertOneLineNamingAField(ScenarioException e)
    {
        Assert.False(string.IsNullOrWhiteSpace(e.Field), "no field named: " + e.Message);
        Assert.StartsWith(e.Field + ": ", e.Message, StringComparison.Ordinal);
        Assert.True(e.Message.Length <= ScenarioText.MaxMessage + 1, $"message of {e.Message.Length} characters");
        foreach (var text in e.Problems.SelectMany(p => new[] { p.Field, p.Message }).Append(e.Message).Append(e.Field))
        {
            Assert.DoesNotContain(text, c => char.IsControl(c) || c is '\u2028' or '\u2029');
            Assert.Equal(-1, ScenarioText.IndexOfUnpairedSurrogate(text));
        }
    }
}
