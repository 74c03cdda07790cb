using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The one rule for a mixed scenario: every variant with every chosen client that can call it; refused only when no pair works.</summary>
public sealed class ScenarioCellsTests
{
    [Fact]
    public void Of_DotnetAndJavaOverJsonAndIce_RunsTwoPairsAndSkipsTwoWithReasons()
    {
        var cells = ScenarioCells.Of(["AspNetHttpJson", "IceTcp"], ["dotnet", "java"]);

        Assert.Equal([new CellPair("AspNetHttpJson", "dotnet"), new CellPair("IceTcp", "java")], cells.Runnable);
        Assert.Equal(["AspNetHttpJson × java", "IceTcp × dotnet"], cells.Skipped.Select(p => $"{p.Variant} × {p.Client}"));
        Assert.Equal("the java client calls only the gRPC, Metro (SOAP), Ice and WCF bindings variants", cells.Skipped[0].Reason);
        Assert.Equal("the dotnet client calls only the ASP.NET Core, gRPC, Metro (SOAP) and WCF bindings variants", cells.Skipped[1].Reason);
    }

    [Fact]
    public void Of_UnknownAndUnavailableIds_LeftOutOfBothLists()
    {
        var cells = ScenarioCells.Of(["CoreWcf", "Nope", null, "MetroSoap11"], ["corba", null, "node"]);

        Assert.Equal([new CellPair("MetroSoap11", "node")], cells.Runnable);
        Assert.Empty(cells.Skipped);
    }

    [Fact]
    public void Validate_MixedScenarioWithARunnablePair_Accepted()
    {
        var scenario = Scenario(["AspNetHttpJson", "IceTcp"], ["dotnet", "java"]);

        ScenarioLoader.Validate(scenario); // does not throw
    }

    [Fact]
    public void Validate_NoPairWorks_RefusedAtClientsNamingEveryPairWithoutDesignCitation()
    {
        var scenario = Scenario(["IceTcp", "IceSsl"], ["dotnet"]);

        var e = Assert.Throws<ScenarioException>(() => ScenarioLoader.Validate(scenario));

        var problem = Assert.Single(e.Problems, p => p.Field == "clients");
        Assert.Contains("no chosen client can call any chosen variant: the dotnet client cannot call IceTcp, IceSsl", problem.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("DESIGN", problem.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void CanCall_PairsOfTheCatalogue_FollowTheClientsCallableSets()
    {
        Assert.True(ScenarioCells.CanCall("IceTcp", "java"));
        Assert.False(ScenarioCells.CanCall("IceTcp", "dotnet"));
        Assert.False(ScenarioCells.CanCall("IceTcp", "corba"));
        Assert.False(ScenarioCells.CanCall("Nope", "java"));
    }

    private static ScenarioDocument Scenario(string[] variants, string[] clients) => new()
    {
        Name = "mixed",
        Host = "http://localhost:5090",
        Variants = variants,
        Clients = clients,
        Payloads = ["Int"],
        Levels = [1],
        RequestsPerClient = 10,
    };
}
