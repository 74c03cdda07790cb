using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The precision target's fields: <c>precision</c>, <c>maxRepetitions</c>, <c>precisionTimeLimit</c> (docs/statistics.md, "Precision target").</summary>
public class ScenarioPrecisionTests
{
    private static string Document(string extra) => $$"""
        {"name":"t","host":"http://localhost:5090","variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Int"],"duration":"00:00:02"{{extra}}}
        """;

    [Fact]
    public void Parse_TargetWithCaps_ReadAndRoundTrip()
    {
        var scenario = ScenarioLoader.Parse(Document(",\"precision\":0.02,\"maxRepetitions\":12,\"precisionTimeLimit\":\"00:05:00\""));

        Assert.Equal((0.02, 12, TimeSpan.FromMinutes(5)), (scenario.Precision, scenario.MaxRepetitions, scenario.PrecisionTimeLimit));
        var again = ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario));
        Assert.Equal((0.02, 12, TimeSpan.FromMinutes(5)), (again.Precision, again.MaxRepetitions, again.PrecisionTimeLimit));
    }

    [Fact]
    public void Parse_NoTarget_NoPrecisionFieldsWritten()
    {
        var json = ScenarioLoader.ToJson(ScenarioLoader.Parse(Document("")));

        Assert.DoesNotContain("precision", json, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("maxRepetitions", json, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(",\"precision\":0", "precision")]
    [InlineData(",\"precision\":0.9", "precision")]
    [InlineData(",\"precision\":0.02,\"launches\":3", "precision")]
    [InlineData(",\"precision\":0.02,\"maxRepetitions\":2", "maxRepetitions")]
    [InlineData(",\"precision\":0.02,\"repetitions\":10,\"maxRepetitions\":5", "maxRepetitions")]
    [InlineData(",\"precision\":0.02,\"maxRepetitions\":101", "maxRepetitions")]
    [InlineData(",\"precision\":0.02,\"precisionTimeLimit\":\"00:00:00\"", "precisionTimeLimit")]
    [InlineData(",\"maxRepetitions\":10", "maxRepetitions")]
    [InlineData(",\"precisionTimeLimit\":\"00:01:00\"", "precisionTimeLimit")]
    public void Parse_BadPrecisionFields_RefusedNamingTheField(string extra, string field)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document(extra)));

        Assert.Contains(error.Problems, p => p.Field == field);
        Assert.All(error.Problems, p => Assert.Equal(field, p.Field));
    }

    [Fact]
    public void Parse_TargetWithSeveralLaunches_MessageSaysWhy()
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document(",\"precision\":0.02,\"launches\":3")));

        Assert.Contains("use launches or precision, not both", Assert.Single(error.Problems).Message, StringComparison.Ordinal);
    }
}
