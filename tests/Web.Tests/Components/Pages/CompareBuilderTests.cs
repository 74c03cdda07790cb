using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Web.Components.Pages;

namespace Dashboard.Web.Tests.Components.Pages;

public sealed class CompareBuilderTests
{
    private static IReadOnlyList<LevelAggregate> Run(double factor, params string[] variants) => LevelAggregation.Aggregate(
        variants.SelectMany(v => new[] { 20, 50 }.Select(c => new LevelEntity
        {
            Variant = v, Client = "java", Payload = "Int", Clients = c, Repetition = 1, Requests = 10, ThroughputRps = 100 * c * factor, MeanMs = 1.0 / factor,
        })));

    [Fact]
    public void Build_ExplicitBaseline_DeltasAgainstIt()
    {
        var result = CompareBuilder.Build([(1, "#1 a", Run(1.0, "IceTcp")), (2, "#2 b", Run(1.1, "IceTcp"))], baselineId: 2, allLevels: false);

        var row = result.Rows.Single(r => r.RunId == 1);
        Assert.Equal((1.0 - 1.1) / 1.1 * 100, row.PeakDeltaPercent!.Value, 9);
        Assert.Null(result.Rows.Single(r => r.RunId == 2).PeakDeltaPercent);
    }

    [Fact]
    public void Build_SameCaseInTwoRuns_SameColourKeyGroupedByRunDifferentDash()
    {
        var result = CompareBuilder.Build([(1, "#1 a", Run(1.0, "IceTcp", "MetroSoap11")), (2, "#2 b", Run(1.1, "IceTcp", "MetroSoap11"))], 1, false);

        var series = result.Charts.Single(c => c.Key == "compare-throughput").Spec.Series;
        var ice = series.Where(s => s.Name.EndsWith("IceTcp × java × Int", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, ice.Count);
        Assert.Equal(ice[0].ColorKey, ice[1].ColorKey);
        Assert.NotEqual(ice[0].Dash, ice[1].Dash);
        Assert.Equal(["#1 a", "#2 b"], ice.Select(s => s.Group));
    }

    [Fact]
    public void Build_ManyCases_ChartsShowTheFastestEightUnlessChosen()
    {
        var variants = Enumerable.Range(0, 12).Select(i => $"V{i:00}").ToArray();
        var result = CompareBuilder.Build([(1, "#1", Run(1.0, variants))], 1, false);

        Assert.Equal(12, result.Cases.Count);
        Assert.Equal(CompareBuilder.MaxCasesByDefault, result.ShownCases.Count);
        var chosen = CompareBuilder.Build([(1, "#1", Run(1.0, variants))], 1, false, ["V03 × java × Int"]);
        Assert.Single(chosen.Charts[0].Spec.Series);
    }
}
