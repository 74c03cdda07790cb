using Dashboard.Web.Charts;
using Plotly.Blazor.Traces;

namespace Dashboard.Web.Tests.Charts;

public sealed class PlotlyFigureTests
{
    private static ChartSpec Spec(bool logY = false) => new(
        "Throughput", "concurrent clients", "throughput (requests/s)",
        [
            new ChartSeries("A × dotnet", [1, 10, 20], [100, 200, 150], ErrorPoints: [2]) { ColorKey = "A × dotnet" },
            new ChartSeries("B × java", [1, 10, 20], [50, 80, null]) { ColorKey = "B × java", Low = [40, 70, null], High = [60, 90, null] },
        ],
        Note: "1 level(s) with errors", LogY: logY, Subtitle: "completed requests ÷ level duration")
    { IntegerX = true };

    [Fact]
    public void Build_LineChart_ErrorCrossLegendEntryCiBarsNoSubtitleNoHiddenTrace()
    {
        var figure = PlotlyFigure.Build(Spec(), ChartStyle.Screen, 900);

        var a = Assert.IsType<Scatter>(figure.Data[0]);
        Assert.Equal([Plotly.Blazor.Traces.ScatterLib.MarkerLib.SymbolEnum.Circle, Plotly.Blazor.Traces.ScatterLib.MarkerLib.SymbolEnum.Circle, Plotly.Blazor.Traces.ScatterLib.MarkerLib.SymbolEnum.X], a.Marker.SymbolArray.Select(v => v!.Value));
        var b = Assert.IsType<Scatter>(figure.Data[1]);
        Assert.Equal([10.0, 10.0, 0.0], b.ErrorY.Array.Cast<double>());
        Assert.Contains(figure.Data, t => t is Scatter { Name: "level with errors" });
        Assert.DoesNotContain(figure.Data, t => t is Scatter { Visible: Plotly.Blazor.Traces.ScatterLib.VisibleEnum.LegendOnly });
        Assert.Contains("1 level(s) with errors", figure.Layout.Title.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("completed requests", figure.Layout.Title.Text, StringComparison.Ordinal);
        Assert.Equal([1.0, 10, 20], figure.Layout.XAxis[0].TickVals.Cast<double>());
    }

    [Fact]
    public void Build_PhoneWidth_TitleAndNoteWrapIntoTheBoxAndTheFigureGrows()
    {
        var spec = Spec() with { Title = "Upstart: mean round trip of the first calls — Int", Note = "1 level(s) with errors (✕): MetroSoap11Https × java at 50" };

        var wide = PlotlyFigure.Build(spec, ChartStyle.Screen, 1100);
        var phone = PlotlyFigure.Build(spec, ChartStyle.Screen, 358);

        Assert.Equal(1, wide.Layout.Title.Text.Split("<br>").Length - 1); // title and note, one line each
        var lines = phone.Layout.Title.Text.Split("<br>");
        Assert.True(lines.Length >= 4, phone.Layout.Title.Text); // two title lines and two note lines at least
        Assert.True(phone.Layout.Margin.T > wide.Layout.Margin.T);
        Assert.True(phone.Layout.Height > wide.Layout.Height);
    }

    [Theory]
    [InlineData(1100, 1)]
    [InlineData(358, 2)]
    public void TitleLines_Width_WholeWordsEachLineFitsTheWidth(int width, int expected)
    {
        const string title = "Response time percentiles, 301 clients — String500";

        var lines = PlotlyFigure.TitleLines(title, 15, width);

        Assert.Equal(expected, lines.Count);
        Assert.Equal(title, string.Join(" ", lines));
        Assert.All(lines, l => Assert.True(l.Length * 15 * 0.62 <= width - 30, $"'{l}' is wider than {width} px"));
    }

    [Fact]
    public void Build_LogY_FullTickLabelsAndRangeAtLabelledEnds()
    {
        var figure = PlotlyFigure.Build(Spec(logY: true), ChartStyle.Screen, 900);

        var y = figure.Layout.YAxis[0];
        Assert.Equal(["20", "50", "100", "200"], y.TickText.Cast<string>());
        Assert.Equal(Math.Log10(20), (double)y.Range[0], 9);
        Assert.Equal(Math.Log10(200), (double)y.Range[1], 9);
    }

    [Fact]
    public void Build_Paper_WhiteBackgroundLargerFontsExportSize()
    {
        var figure = PlotlyFigure.Build(Spec(), ChartStyle.Paper, 1600, 900);

        Assert.Equal("#ffffff", figure.Layout.PaperBgColor);
        Assert.True(figure.Layout.Font.Size >= 14);
        Assert.Equal(1600m, figure.Layout.Width);
        Assert.Equal(900m, figure.Layout.Height);
    }

    [Fact]
    public void Build_SharedYRange_SetOnTheAxis()
    {
        var figure = PlotlyFigure.Build(Spec() with { YRange = [0, 500] }, ChartStyle.Screen, 900);

        Assert.Equal([0.0, 500.0], figure.Layout.YAxis[0].Range.Cast<double>());
    }

    [Fact]
    public void Thinned_CrowdedLevelStarts_LeavesOutOverlappingLabels()
    {
        var spans = Enumerable.Range(0, 10).Select(i => new ChartSpan(i, i + 1, "300", false, false, $"level {i}")).ToList();

        var labels = PlotlyFigure.Thinned(spans, s => s.Label, 10, 100, 0, 10);

        Assert.Equal("300", labels[0]);
        Assert.Contains("", labels);
        Assert.True(labels.Count(l => l.Length > 0) < 10);
    }
}
