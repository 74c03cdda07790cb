using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The scenario fields of the open workload: <c>workload</c>, <c>rates</c>, <c>p99TargetMs</c> and <c>maxConnections</c> (docs/statistics.md).</summary>
public class ScenarioWorkloadTests
{
    private const string Open = ",\"workload\":\"open\",\"rates\":[500,1000,2000]";

    private static string Document(string extra, string clients = "\"dotnet\"", string bound = ",\"duration\":\"00:00:05\"") => $$"""
        {"name":"t","host":"http://localhost:5090","variants":["AspNetHttpJson"],"clients":[{{clients}}],"payloads":["Int"]{{bound}}{{extra}}}
        """;

    [Fact]
    public void Parse_NoWorkload_ClosedWithTheGivenLevelsAndNoOpenFields()
    {
        var scenario = ScenarioLoader.Parse(Document(",\"levels\":[1,10]"));

        Assert.False(scenario.IsOpen);
        Assert.Equal([1, 10], scenario.LevelValues);
        Assert.DoesNotContain("workload", ScenarioLoader.ToJson(scenario), StringComparison.Ordinal);
        Assert.DoesNotContain("rates", ScenarioLoader.ToJson(scenario), StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_OpenWithRatesTargetAndBound_LevelsAreTheRatesAndRoundTrip()
    {
        var scenario = ScenarioLoader.Parse(Document(Open + ",\"p99TargetMs\":20,\"maxConnections\":32"));

        Assert.True(scenario.IsOpen);
        Assert.Equal([500, 1000, 2000], scenario.LevelValues);
        Assert.Equal((20.0, 32), (scenario.P99TargetMs!.Value, scenario.MaxConnections!.Value));
        var again = ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario));
        Assert.Equal((Workload.Open, 20.0, 32), (again.Workload, again.P99TargetMs!.Value, again.MaxConnections!.Value));
        Assert.Equal(scenario.Rates, again.Rates);
    }

    [Fact]
    public void ToJson_Open_NoClientLevelsBesideTheRates()
    {
        // The New run page's open draft carried the thesis sweep's 16 client counts into the stored scenario, beside its rates.
        var scenario = ScenarioLoader.Parse(Document(Open + ",\"levels\":[1,10,20]"));

        var json = ScenarioLoader.ToJson(scenario);

        Assert.DoesNotContain("\"levels\"", json, StringComparison.Ordinal);
        Assert.Contains("\"rates\": [", json, StringComparison.Ordinal);
        Assert.Equal(json, ScenarioLoader.ToJson(ScenarioLoader.Parse(json)));
        Assert.Contains("\"levels\": [", ScenarioLoader.ToJson(ScenarioLoader.Parse(Document(",\"levels\":[1,10]"))), StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_OpenWithSteadyState_AcceptedWithTheSettings()
    {
        // An open level warms up at its own rate until its median response time settles (docs/statistics.md).
        var scenario = ScenarioLoader.Parse(Document(Open + ",\"steadyState\":\"defaults\""));

        Assert.True(scenario.IsOpen);
        Assert.Equal(SteadyStateSettings.Defaults, scenario.SteadyState);
    }

    [Fact]
    public void Parse_ClosedWorkloadNamed_SameAsAbsent()
    {
        var scenario = ScenarioLoader.Parse(Document(",\"workload\":\"closed\",\"levels\":[3]"));

        Assert.False(scenario.IsOpen);
        Assert.Equal([3], scenario.LevelValues);
    }

    [Theory]
    [InlineData(",\"workload\":\"poisson\"", "workload")]
    [InlineData(",\"workload\":\"open\"", "rates")]
    [InlineData(",\"workload\":\"open\",\"rates\":[]", "rates")]
    [InlineData(",\"workload\":\"open\",\"rates\":[100,0]", "rates[1]")]
    [InlineData(",\"workload\":\"open\",\"rates\":[100,2000000]", "rates[1]")]
    [InlineData(",\"workload\":\"open\",\"rates\":[100,100]", "rates")]
    [InlineData(Open + ",\"p99TargetMs\":0", "p99TargetMs")]
    [InlineData(Open + ",\"maxConnections\":0", "maxConnections")]
    [InlineData(Open + ",\"maxConnections\":100000", "maxConnections")]
    [InlineData(",\"rates\":[100]", "rates")]
    [InlineData(",\"p99TargetMs\":10", "p99TargetMs")]
    [InlineData(",\"maxConnections\":10", "maxConnections")]
    public void Parse_BadOpenFields_RefusedNamingTheField(string extra, string field)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document(extra)));

        Assert.Contains(error.Problems, p => p.Field == field);
        Assert.All(error.Problems, p => Assert.Equal(field, p.Field));
    }

    [Fact]
    public void Parse_OpenWithRequestsPerClient_RefusedAskingForDuration()
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document(Open, bound: ",\"requestsPerClient\":10")));

        Assert.Equal("requestsPerClient", error.Field);
        Assert.Contains("give duration", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("\"dotnet\",\"node\"", "clients[1]", "node")]
    [InlineData("\"node\"", "clients[0]", "node")]
    public void Parse_OpenWithAnExternalClient_RefusedNamingTheClientAndWhy(string clients, string field, string id)
    {
        var error = Assert.Throws<ScenarioException>(() => ScenarioLoader.Parse(Document(Open, clients)));

        var problem = Assert.Single(error.Problems);
        Assert.Equal(field, problem.Field);
        Assert.Contains($"the {id} client runs closed loops in a driver process of its own", problem.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_OpenWithAnInProcessClient_Accepted()
    {
        var scenario = ScenarioLoader.Parse(Document(Open, "\"dotnet\",\"wcf\"").Replace("AspNetHttpJson", "WcfBasicHttp", StringComparison.Ordinal));

        Assert.Equal(["dotnet", "wcf"], scenario.Clients);
    }

    [Fact]
    public void Estimate_OpenLevels_ScaleWithTheRatesCount()
    {
        var one = new DurationEstimator([]).Estimate(ScenarioLoader.Parse(Document(",\"workload\":\"open\",\"rates\":[500]")));
        var three = new DurationEstimator([]).Estimate(ScenarioLoader.Parse(Document(Open)));

        Assert.InRange((three.Duration - one.Duration).TotalSeconds, 2 * 5, 2 * 5 + 10);
    }
}
