using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

public class ScenarioLoaderTests
{
    private const string Valid = """
        {
          "name": "smoke",
          "host": "http://localhost:5090",
          "variants": ["AspNetHttpJson", "AspNetH2BinXml"],
          "clients": ["dotnet"],
          "payloads": ["Int"],
          "levels": [1, 10, 20],
          "requestsPerClient": 20
        }
        """;

    [Fact]
    public void Parse_ValidDocument_ReadsEveryField()
    {
        var scenario = ScenarioLoader.Parse(Valid);
        Assert.Equal("smoke", scenario.Name);
        Assert.Equal(["AspNetHttpJson", "AspNetH2BinXml"], scenario.Variants);
        Assert.Equal([1, 10, 20], scenario.Levels);
        Assert.Equal(20, scenario.RequestsPerClient);
        Assert.Equal(5, scenario.Warmup);
        Assert.Equal(1, scenario.Repetitions);
    }

    [Fact]
    public void Parse_NoLevels_DefaultsToTheThesisSweep()
    {
        var scenario = ScenarioLoader.Parse(Valid.Replace("\"levels\": [1, 10, 20],", "", StringComparison.Ordinal));
        Assert.Equal([1, 10, 20, 30, 40, 50, 75, 100, 125, 150, 175, 200, 225, 250, 275, 300], scenario.Levels);
    }

    [Fact]
    public void ToJson_ThenParse_GivesTheSameDocument()
    {
        var scenario = ScenarioLoader.Parse(Valid) with { Duration = TimeSpan.FromSeconds(30), RequestsPerClient = null };
        var again = ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario));
        Assert.Equal(TimeSpan.FromSeconds(30), again.Duration);
        Assert.Equal(scenario.Variants, again.Variants);
        Assert.Null(again.RequestsPerClient);
    }

    [Theory]
    [InlineData("\"host\": \"http://localhost:5090\",", "\"host\": \"\",", "host")]
    [InlineData("\"host\": \"http://localhost:5090\",", "\"host\": \"localhost:5090\",", "host")]
    [InlineData("\"variants\": [\"AspNetHttpJson\", \"AspNetH2BinXml\"],", "\"variants\": [],", "variants")]
    [InlineData("\"AspNetHttpJson\", \"AspNetH2BinXml\"", "\"AspNetHttpJson\", \"NamedPipeNoSec\"", "variants[1]")]
    [InlineData("\"payloads\": [\"Int\"],", "\"payloads\": [\"Integer\"],", "payloads[0]")]
    [InlineData("[1, 10, 20]", "[1, 0, 20]", "levels[1]")]
    [InlineData("[1, 10, 20]", "[1, 10, 100000]", "levels[2]")]
    [InlineData("\"clients\": [\"dotnet\"],", "\"clients\": [\"dotnet\", \"corba\"],", "clients[1]")]
    [InlineData("\"clients\": [\"dotnet\"],", "\"clients\": [\"java\"],", "clients")]
    [InlineData("\"requestsPerClient\": 20", "\"requestsPerClient\": 20, \"duration\": \"00:00:10\"", "requestsPerClient")]
    [InlineData("\"requestsPerClient\": 20", "\"requestsPerClient\": 0", "requestsPerClient")]
    [InlineData("\"requestsPerClient\": 20", "\"requestsPerClient\": 20, \"launches\": 0", "launches")]
    [InlineData("\"requestsPerClient\": 20", "\"requestsPerClient\": 20, \"launches\": 21", "launches")]
    [InlineData("\"name\": \"smoke\",", "\"name\": \"smoke\", \"color\": \"red\",", "color")]
    [InlineData("[1, 10, 20]", "[1, \"ten\", 20]", "levels[1]")]
    public void Parse_InvalidField_IsRefusedNamingTheField(string find, string replace, string field)
    {
        var json = Valid.Replace(find, replace, StringComparison.Ordinal);
        Assert.NotEqual(Valid, json);
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));
        Assert.Equal(field, error.Field);
        Assert.StartsWith(field + ": ", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Theory]
    [InlineData("{ \"name\": ")]
    [InlineData("not json")]
    [InlineData("null")]
    public void Parse_MalformedJson_IsRefused(string json)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(json));
        Assert.False(string.IsNullOrWhiteSpace(error.Message));
    }

    [Theory]
    [InlineData("\"levels\": [1, 10, 20]", "\"levels\": \"1, 10\"", "levels", "levels: expected a list of whole numbers, e.g. [1, 10, 50]")]
    [InlineData("\"requestsPerClient\": 20", "\"requestsPerClient\": \"many\"", "requestsPerClient", "requestsPerClient: expected a whole number, e.g. 20")]
    [InlineData("\"variants\": [\"AspNetHttpJson\", \"AspNetH2BinXml\"]", "\"variants\": \"AspNetHttpJson\"", "variants", "variants: expected a list of names in quotes, e.g. [\"AspNetHttpJson\"]")]
    [InlineData("\"requestsPerClient\": 20", "\"duration\": 20", "duration", "duration: expected a duration in quotes, hh:mm:ss, e.g. \"00:00:20\"")]
    public void Parse_WrongType_SaysWhatIsExpectedInTheScenariosWords(string find, string replace, string field, string start)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Valid.Replace(find, replace, StringComparison.Ordinal)));

        Assert.Equal(field, error.Field);
        Assert.StartsWith(start, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_UnknownField_NamesItAndListsTheScenariosFields()
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Valid.Replace("\"name\": \"smoke\",", "\"name\": \"smoke\", \"colour\": 1,", StringComparison.Ordinal)));

        Assert.Equal("colour", error.Field);
        Assert.StartsWith("colour: unknown field \"colour\"; a scenario's fields are name, ", error.Message, StringComparison.Ordinal);
        Assert.Contains("requestsPerClient", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(".NET", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_BrokenJson_NoAdviceOnReaderOptions()
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse("{\"name\": \"a\",}"));

        Assert.DoesNotContain("reader options", error.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("(line 1, position", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_5000BadLevels_ThreeProblemsAndACountOfTheRest()
    {
        var levels = string.Join(", ", Enumerable.Repeat(0, 5000));
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Valid.Replace("[1, 10, 20]", $"[{levels}]", StringComparison.Ordinal)));

        Assert.Equal(4, error.Problems.Count);
        Assert.Equal(["levels[0]", "levels[1]", "levels[2]", "levels"], error.Problems.Select(p => p.Field));
        // 5,000 levels out of range, and the list's own problems (too many levels): all but the first three counted.
        var rest = System.Text.RegularExpressions.Regex.Match(error.Problems[3].Message, "^and ([0-9,]+) more problems in levels$");
        Assert.True(rest.Success, error.Problems[3].Message);
        Assert.True(int.Parse(rest.Groups[1].Value, System.Globalization.NumberStyles.AllowThousands, System.Globalization.CultureInfo.InvariantCulture) >= 4997, error.Problems[3].Message);
    }

    [Fact]
    public void Parse_UnknownVariant_MessageListsTheKnownOnes()
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Valid.Replace("\"AspNetH2BinXml\"", "\"NamedPipeNoSec\"", StringComparison.Ordinal)));
        Assert.Contains("'NamedPipeNoSec'", error.Message, StringComparison.Ordinal);
        Assert.Contains("AspNetUdsBinXml", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Load_MissingFile_IsRefusedNamingThePath()
    {
        var path = Path.Combine(Path.GetTempPath(), Guid.NewGuid() + ".json");
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Load(path));
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
    }
}
