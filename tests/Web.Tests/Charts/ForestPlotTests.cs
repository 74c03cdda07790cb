using Dashboard.Data.Claims;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Plotly.Blazor.Traces;

namespace Dashboard.Web.Tests.Charts;

/// <summary>A claim's forest plot: cases in (a real evaluation), traces out.</summary>
public sealed class ForestPlotTests
{
    // Thesis 9.1.1 "best throughput cross machine": a general statement, so 3 cases give a summary effect.
    private static ClaimResult CrossMachine()
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.1.1-cross-machine-throughput");
        var levels = new List<ClaimLevel>();
        foreach (var payload in new[] { "Int", "String500", "Order50" })
        {
            levels.Add(Level(payload, ClaimCatalogue.EmulatedLan, [1200, 1210, 1190]));
            levels.Add(Level(payload, ClaimCatalogue.SameMachine, [1000, 1010, 990]));
        }

        return ClaimEvaluator.Default.Evaluate(claim, levels);
    }

    private static ClaimLevel Level(string payload, string topology, double[] throughputs) => new(
        LevelAggregation.Aggregate(throughputs.Select((t, r) => new LevelEntity
        {
            Variant = "IceTcp", Client = "java", Payload = payload, Clients = 20, Repetition = r, Requests = 100, ThroughputRps = t, MeanMs = 20_000 / t,
        })).Single(), topology, 1);

    [Fact]
    public void Of_ThreeCasesOfAGeneralStatement_RowPerCaseBandAndSummary()
    {
        var result = CrossMachine();

        var spec = ForestSpec.Of(result)!;

        Assert.Equal(3, spec.Rows.Count);
        Assert.All(spec.Rows, r => Assert.Contains("emulated-lan vs same-machine · ", r.Case, StringComparison.Ordinal));
        Assert.Contains(spec.Rows, r => r.Case.Contains("String500", StringComparison.Ordinal));
        Assert.All(spec.Rows, r => Assert.InRange(r.Ratio, 1.19, 1.21));
        Assert.All(spec.Rows, r => Assert.True(r.Low < r.Ratio && r.Ratio < r.High));
        Assert.All(spec.Rows, r => Assert.Contains("Holm-adjusted p = ", r.Detail, StringComparison.Ordinal));
        // "Better": the shaded band is the "no advantage" margin around 1 (±5 %).
        Assert.Equal(1 / 1.05, spec.BandLow, 6);
        Assert.Equal(1.05, spec.BandHigh!.Value, 6);
        Assert.Equal("no advantage: within ±5 %", spec.BandName);
        Assert.NotNull(result.Summary);
        Assert.Equal(result.Summary!.Ratio, spec.Summary!.Ratio);
        Assert.Equal("summary over 3 cases", spec.Summary.Case);
        Assert.Equal("ratio A ÷ B of throughput (req/s), log scale", spec.XTitle);
    }

    [Fact]
    public void Build_ThreeCases_CaseTraceWithHorizontalErrorBarsSummaryDiamondBandAndLogAxis()
    {
        var spec = ForestSpec.Of(CrossMachine())!;

        var figure = ForestPlot.Build(spec, ChartStyle.Screen, 1000);

        var cases = figure.Data.OfType<Scatter>().Single(t => t.Name == ForestPlot.CasesName);
        Assert.Equal(spec.Rows.Select(r => r.Ratio), cases.X.Cast<double>());
        // Top to bottom: the cases in the slots of rows 3, 2, 1, the summary in row 0's.
        var ys = cases.Y.Cast<double>().ToList();
        Assert.Equal(3, ys.Count);
        Assert.Equal([3, 2, 1], ys.Select(y => (int)Math.Round(y)));
        Assert.Equal(spec.Rows.Select(r => r.High - r.Ratio), cases.ErrorX.Array.Cast<double>());
        Assert.Equal(spec.Rows.Select(r => r.Ratio - r.Low), cases.ErrorX.ArrayMinus.Cast<double>());
        var summary = figure.Data.OfType<Scatter>().Single(t => t.Name == ForestPlot.SummaryName);
        Assert.Equal(Plotly.Blazor.Traces.ScatterLib.MarkerLib.SymbolEnum.Diamond, summary.Marker.Symbol);
        Assert.Equal(0, (int)Math.Round(summary.Y.Cast<double>().Single()));
        var band = figure.Data.OfType<Scatter>().Single(t => t.Name == spec.BandName);
        Assert.Equal(Plotly.Blazor.Traces.ScatterLib.FillEnum.ToSelf, band.Fill);
        Assert.Equal([spec.BandLow, spec.BandHigh!.Value], band.X.Cast<double>().Distinct().Order());
        var axis = figure.Layout.XAxis[0];
        Assert.Equal(Plotly.Blazor.LayoutLib.XAxisLib.TypeEnum.Log, axis.Type);
        Assert.Equal("ratio A ÷ B of throughput (req/s), log scale", axis.Title.Text);
        Assert.Contains("1", axis.TickText.Cast<string>());
        var keys = figure.Data.OfType<Scatter>().Single(t => t.Name == "case keys");
        Assert.Equal([.. spec.Rows.Select(r => r.Case), "summary over 3 cases"], keys.TextArray.Cast<string>());
        Assert.All(keys.Y.Cast<double>().Zip([.. ys, summary.Y.Cast<double>().Single()]), p => Assert.True(p.First > p.Second, "a key is written above its marker"));
        Assert.Null(figure.Layout.Width); // on screen: the page's width
        Assert.Equal(900, ForestPlot.Build(spec, ChartStyle.Paper, 1600, 900).Layout.Height);
    }

    [Fact]
    public void Of_RangeClaimOpenAtTheTop_BandToTheAxisEnd()
    {
        var claim = ClaimCatalogue.All[0] with { Comparison = ClaimComparison.RatioInRange, RangeLow = 2, RangeHigh = null };
        var result = new ClaimResult(claim, ClaimVerdict.Holds, "", [new ContrastResult("A vs B", ClaimVerdict.Holds, "", true) { Ratio = 3, RatioLow = 2.5, RatioHigh = 3.5, HasInterval = true, Case = "java × Int" }], "");

        var spec = ForestSpec.Of(result)!;
        var figure = ForestPlot.Build(spec, ChartStyle.Screen, 390);

        Assert.Null(spec.BandHigh);
        Assert.StartsWith("claimed: A ÷ B ≥ ", spec.BandName, StringComparison.Ordinal);
        var band = figure.Data.OfType<Scatter>().Single(t => t.Name == spec.BandName);
        Assert.Equal(Math.Pow(10, (double)figure.Layout.XAxis[0].Range[1]!), band.X.Cast<double>().Max(), 6);
        Assert.Null(figure.Data.OfType<Scatter>().SingleOrDefault(t => t.Name == ForestPlot.SummaryName));
        Assert.Equal("A vs B · java × Int", figure.Data.OfType<Scatter>().Single(t => t.Name == "case keys").TextArray.Cast<string>().Single());
    }

    [Fact]
    public void Of_NoMeasuredCase_Null()
    {
        var claim = ClaimCatalogue.All[0];

        Assert.Null(ForestSpec.Of(new ClaimResult(claim, ClaimVerdict.NotMeasuredInTheseRuns, "", [new ContrastResult("A vs B", ClaimVerdict.NotMeasuredInTheseRuns, "", false)], "")));
    }
}
