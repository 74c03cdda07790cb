using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Scenarios;

namespace Dashboard.Web.Components.Tests.Scenarios;

/// <summary>The New run page's draft: its field errors in the page's terms, and the load agents it carries.</summary>
public sealed class ScenarioDraftTests
{
    [Theory]
    [InlineData("levels[2]", "Concurrency level 3")]
    [InlineData("variants[0]", "Endpoint variant 1")]
    [InlineData("requestsPerClient", "Requests per client")]
    [InlineData("duration", "Measured time per level")]
    [InlineData("clients", "Client technologies")]
    [InlineData("agents", "Load agents")]
    [InlineData("rates[1]", "Arrival rate 2")]
    [InlineData("p99TargetMs", "p99 target")]
    [InlineData("somethingElse", "somethingElse")]
    public void FieldLabel_JsonField_LabelOfThePage(string field, string expected) => Assert.Equal(expected, ScenarioDraft.FieldLabel(field));

    [Fact]
    public void Validate_ZeroRequestsAndNoVariant_BothNamedInTheirFields()
    {
        var draft = new ScenarioDraft { Name = "x", Host = "http://localhost:5090", RequestsPerClient = 0 };
        draft.Clients.Add("dotnet");
        draft.Payloads.Add("Int");

        var errors = draft.Validate();

        Assert.StartsWith("Requests per client: 0 is out of range", Assert.Single(errors["requestsPerClient"]), StringComparison.Ordinal);
        Assert.StartsWith("Endpoint variants: choose at least one", Assert.Single(errors["variants"]), StringComparison.Ordinal);
        Assert.Equal(0, draft.ToDocument().RequestsPerClient);
    }

    [Fact]
    public void SetAgents_RequestsAndSteadyState_SwitchedToDurationSteadyStateOffEachSaid()
    {
        var draft = Valid();
        draft.SteadyState = SteadyStateSettings.Defaults;
        draft.DurationSeconds = 7;

        var changes = draft.SetAgents(["bench-2", "bench-1"]);

        Assert.Equal(["bench-2", "bench-1"], draft.Agents!.Names!);
        Assert.Equal(WorkloadBound.Duration, draft.Bound);
        Assert.Null(draft.SteadyState);
        Assert.Equal(2, changes.Count);
        Assert.Contains("measured time (7 s) instead of 100 requests per client", changes[0], StringComparison.Ordinal);
        Assert.Contains("steady-state warm-up is off", changes[1], StringComparison.Ordinal);
        Assert.Empty(draft.Validate());
    }

    [Fact]
    public void SetAgents_EmptyList_ThisMachineAndWorkloadLeftAlone()
    {
        var draft = Valid();
        draft.SetAgents(["bench-1"]);
        draft.Bound = WorkloadBound.Requests;

        var changes = draft.SetAgents([]);

        Assert.Null(draft.Agents);
        Assert.Empty(changes);
        Assert.Equal(WorkloadBound.Requests, draft.Bound);
        Assert.DoesNotContain("agents", ScenarioLoader.ToJson(draft.ToDocument()), StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AgentsWithRequestsPerClient_RefusedAtRequestsInThePagesTerms()
    {
        var draft = Valid();
        draft.SetAgents(["bench-1"]);
        draft.Bound = WorkloadBound.Requests;

        var errors = draft.Validate();

        Assert.StartsWith("Requests per client: levels over load agents are timed", Assert.Single(errors["requestsPerClient"]), StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AgentsWithEmulatedLan_RefusedAtAgents()
    {
        var draft = Valid();
        draft.SetAgents(["bench-1"]);
        draft.Topology = Topology.EmulatedLan;
        draft.LinkRateMbps = Topology.DefaultLinkRateMbps;

        var errors = draft.Validate();

        Assert.StartsWith("Load agents: load agents generate load from their own machines; topology 'emulated-lan'", Assert.Single(errors["agents"]), StringComparison.Ordinal);
    }

    [Fact]
    public void FromAndToDocument_AgentsCount_KeptInTheJson()
    {
        var document = Valid().ToDocument() with { Agents = AgentSelection.Of(3), RequestsPerClient = null, Duration = TimeSpan.FromSeconds(5) };

        var draft = ScenarioDraft.From(document);
        var json = ScenarioLoader.ToJson(draft.ToDocument());

        Assert.Equal(3, draft.Agents!.Count);
        Assert.Null(draft.Agents.Names);
        Assert.Contains("\"agents\": 3", json, StringComparison.Ordinal);
        Assert.Equal(AgentSelection.Of(3), ScenarioLoader.Parse(json).Agents);
    }

    // AspNetHttpJson × dotnet × Int at 1 client, 100 requests: valid as it stands.
    [Fact]
    public void ToDocument_PrecisionPercent_WrittenAsAFractionAndReadBack()
    {
        var draft = Valid();
        draft.PrecisionPercent = 2;

        var document = draft.ToDocument();

        Assert.Equal(0.02, document.Precision!.Value, 12);
        Assert.Empty(draft.Validate());
        Assert.Equal(2, ScenarioDraft.From(document).PrecisionPercent!.Value, 9);
    }

    [Fact]
    public void Validate_PrecisionWithThreeLaunches_NamedAsThePrecisionTarget()
    {
        var draft = Valid();
        draft.PrecisionPercent = 2;
        draft.Launches = 3;

        var error = Assert.Single(draft.Validate()["precision"]);

        Assert.StartsWith("Precision target: a precision target adds repetitions within one launch", error, StringComparison.Ordinal);
    }

    private static ScenarioDraft Valid()
    {
        var draft = new ScenarioDraft { Name = "x", Host = "http://localhost:5090", LevelsText = "1" };
        draft.Variants.Add("AspNetHttpJson");
        draft.Clients.Add("dotnet");
        draft.Payloads.Add("Int");
        return draft;
    }

    [Fact]
    public void FromAndToDocument_OpenScenario_RatesTargetAndBoundKept()
    {
        var document = ScenarioLoader.Parse("""
            {"name":"o","host":"http://localhost:5090","variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Int"],
             "workload":"open","rates":[100,200],"p99TargetMs":5,"maxConnections":8,"duration":"00:00:02"}
            """);

        var again = ScenarioDraft.From(document).ToDocument();

        Assert.Equal((Workload.Open, 5.0, 8), (again.Workload, again.P99TargetMs!.Value, again.MaxConnections!.Value));
        Assert.Equal([100, 200], again.Rates);
        Assert.Empty(ScenarioDraft.From(document).Validate());
    }

    [Fact]
    public void SetOpen_WithSteadyState_KeepsItAndTheDraftValidates()
    {
        var draft = new ScenarioDraft { Name = "x", Host = "http://localhost:5090", SteadyState = SteadyStateSettings.Defaults };
        draft.Variants.Add("AspNetHttpJson");
        draft.Clients.Add("dotnet");
        draft.Payloads.Add("Int");

        var notes = draft.SetOpen(true);

        Assert.DoesNotContain(notes, n => n.Contains("steady", StringComparison.OrdinalIgnoreCase));
        Assert.Equal(SteadyStateSettings.Defaults, draft.ToDocument().SteadyState);
        Assert.Empty(draft.Validate());
    }

    [Fact]
    public void Validate_OpenWithTheJavaClient_RefusedAtTheClientInThePagesTerms()
    {
        var draft = new ScenarioDraft { Name = "x", Host = "http://localhost:5090" };
        draft.SetOpen(true);
        draft.Variants.Add("AspNetHttpJson");
        draft.Clients.Add("node");
        draft.Payloads.Add("Int");

        var errors = draft.Validate();

        Assert.StartsWith("Client technology 1: the node client runs closed loops", Assert.Single(errors["clients"]), StringComparison.Ordinal);
    }
}
