using Dashboard.Data.Entities;
using Dashboard.Data.Queries;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Dashboard.Web.Results;

namespace Dashboard.Web.Tests.Charts;

public sealed class RunChartsTests
{
    private static readonly DateTime Start = new(2026, 11, 25, 8, 0, 0, DateTimeKind.Utc);

    private static LevelEntity Level(string variant, string client, int clients, double throughput, double meanMs, string payload = "Int") => new()
    {
        Variant = variant, Client = client, Payload = payload, Clients = clients, Repetition = 1, Requests = 100,
        ThroughputRps = throughput, MeanMs = meanMs, P50Ms = meanMs, P90Ms = meanMs, P99Ms = meanMs * 2, P999Ms = meanMs * 3, MaxMs = meanMs * 4,
        StartedUtc = Start, EndedUtc = Start.AddSeconds(1),
    };

    private static RunPageData Data(IReadOnlyList<LevelEntity> levels, IReadOnlyList<ResourcePoint>? resources = null) => new(
        new RunEntity { Id = 3, ScenarioName = "s", ScenarioJson = "{}", CreatedUtc = Start, Status = RunStatus.Completed },
        levels, LevelAggregation.Aggregate(levels), resources ?? [], [], new SampleCounts(0, 0), Start);

    [Fact]
    public void Build_OneClientOnly_BarsByVariantAndClient()
    {
        var figures = RunCharts.Build(Data([Level("IceTcp", "java", 1, 2000, 0.5), Level("AspNetHttpJson", "dotnet", 1, 3000, 0.3)]), RunView.Default);

        var throughput = figures.Panels.Single(p => p.Key == "throughput-unsecure").Spec;
        Assert.Equal("bar", throughput.Kind);
        Assert.Equal(["AspNetHttpJson × dotnet", "IceTcp × java"], throughput.Series.SelectMany(s => s.Categories!));
        Assert.Contains("1 client", throughput.XTitle, StringComparison.Ordinal);
    }

    [Fact]
    public void Build_OnePayloadSequentialCalls_FigureHasABarPerCaseInItsOwnColourNamedInTheLegend()
    {
        // Issue #36: with one payload every bar of "Sequential calls per second" had the payload's one colour.
        var data = Data([
            Level("MetroSoap11", "java", 1, 800, 1.2), Level("IceTcp", "java", 1, 2000, 0.5),
            Level("AspNetHttpJson", "dotnet", 1, 3000, 0.3), Level("AspNetHttpJson", "dotnet", 10, 9000, 1.1)]);

        var spec = RunCharts.Build(data, RunView.Default).Views.Single(v => v.Key == "sequential-calls").Spec;
        var figure = PlotlyFigure.Build(spec, ChartStyle.Screen, 1000);

        var bars = figure.Data.OfType<Plotly.Blazor.Traces.Bar>().ToList();
        string[] cases = ["AspNetHttpJson × dotnet", "IceTcp × java", "MetroSoap11 × java"];
        Assert.Equal(cases, bars.Select(b => b.Name)); // the legend names each case
        Assert.Equal(cases, bars.Select(b => (string)Assert.Single(b.X))); // and the axis, under its bar
        Assert.Equal([3000.0, 2000, 800], bars.Select(b => (double)Assert.Single(b.Y)));
        var colors = bars.Select(b => (string)b.Marker.Color).ToList();
        Assert.Equal(3, colors.Distinct(StringComparer.Ordinal).Count());
        // The colour each case has in every chart, so a bar reads the same here as on the throughput chart.
        var everywhere = ChartColors.Assign(cases);
        Assert.Equal(cases.Select(c => everywhere[c]), colors);
        // Drawn full width over their labels: one offset group, not a slot per series.
        Assert.NotNull(Assert.Single(bars.Select(b => b.OffsetGroup).Distinct()));
    }

    [Fact]
    public void Build_TwoPayloadsSequentialCalls_ABarSeriesPerPayloadOverTheCases()
    {
        var data = Data([Level("IceTcp", "java", 1, 2000, 0.5), Level("IceTcp", "java", 1, 1500, 0.7, "String500"),
            Level("AspNetHttpJson", "dotnet", 1, 3000, 0.3), Level("AspNetHttpJson", "dotnet", 1, 2500, 0.4, "String500")]);

        var spec = RunCharts.Build(data, RunView.Default with { Payload = RunView.AllPayloads }).Views.Single(v => v.Key == "sequential-calls").Spec;
        var bars = PlotlyFigure.Build(spec, ChartStyle.Screen, 1000).Data.OfType<Plotly.Blazor.Traces.Bar>().ToList();

        Assert.Equal(["Int", "String500"], bars.Select(b => b.Name));
        Assert.All(bars, b => Assert.Equal(["AspNetHttpJson × dotnet", "IceTcp × java"], b.X.Cast<string>()));
        Assert.NotEqual(bars[0].Marker.Color, bars[1].Marker.Color);
        Assert.All(bars, b => Assert.Null(b.OffsetGroup)); // grouped side by side per case
    }

    [Fact]
    public void Build_OpenRates_AxesTitlesAndHoversSayOfferedRate()
    {
        LevelEntity[] levels = [Level("AspNetHttpJson", "dotnet", 1, 1, 0.5), Level("AspNetHttpJson", "dotnet", 2000, 1990, 0.9)];
        foreach (var level in levels)
        {
            level.TargetRateRps = level.Clients;
        }

        var figures = RunCharts.Build(Data(levels), RunView.Default);

        var throughput = figures.Panels.Single(p => p.Key == "throughput-unsecure").Spec;
        Assert.Equal("offered rate (req/s)", throughput.XTitle);
        Assert.Equal(["1 req/s: 1 req/s", "2,000 req/s: 1990 req/s"], throughput.Series.Single().Text);
        Assert.Contains("every offered rate", throughput.Subtitle, StringComparison.Ordinal);
        Assert.Equal("Response time percentiles, 2,000 req/s — Int", figures.Views.Single(v => v.Key == "percentile-spectrum").Spec.Title);
        Assert.DoesNotContain(figures.Views, v => v.Key == "sequential-calls");
        Assert.All(OverTimeCharts.Spans(Data(levels)), s => Assert.EndsWith(" req/s", s.Title, StringComparison.Ordinal));
    }

    [Fact]
    public void Build_ClosedSweep_AxesTitlesAndHoversSayClients()
    {
        var data = Data([Level("AspNetHttpJson", "dotnet", 1, 1000, 0.5), Level("AspNetHttpJson", "dotnet", 20, 9000, 0.9)]);

        var figures = RunCharts.Build(data, RunView.Default);

        var throughput = figures.Panels.Single(p => p.Key == "throughput-unsecure").Spec;
        Assert.Equal("concurrent clients", throughput.XTitle);
        Assert.Equal(["1 client: 1000 req/s", "20 clients: 9000 req/s"], throughput.Series.Single().Text);
        Assert.Equal("Response time percentiles, 20 clients — Int", figures.Views.Single(v => v.Key == "percentile-spectrum").Spec.Title);
        Assert.Equal(["AspNetHttpJson × dotnet × Int, 1 client", "AspNetHttpJson × dotnet × Int, 20 clients"], OverTimeCharts.Spans(data).Select(s => s.Title));
    }

    [Fact]
    public void Build_Sweep_LinesWithIntegerClientTicks()
    {
        var figures = RunCharts.Build(Data([Level("IceTcp", "java", 1, 2000, 0.5), Level("IceTcp", "java", 10, 9000, 1.1)]), RunView.Default);

        var throughput = figures.Panels.Single(p => p.Key == "throughput-unsecure").Spec;
        Assert.Equal("line", throughput.Kind);
        Assert.True(throughput.IntegerX);
    }

    [Fact]
    public void Build_SecureAndUnsecure_SharedYRangeUnlessIndependent()
    {
        LevelEntity[] levels = [Level("MetroSoap11", "java", 1, 1000, 2), Level("MetroSoap11", "java", 10, 5000, 4), Level("MetroSoap11Https", "java", 1, 500, 3), Level("MetroSoap11Https", "java", 10, 2000, 8)];

        var shared = RunCharts.Build(Data(levels), RunView.Default with { AllLevels = true });
        var independent = RunCharts.Build(Data(levels), RunView.Default with { AllLevels = true, IndependentY = true });

        var unsecure = shared.Panels.Single(p => p.Key == "throughput-unsecure").Spec.YRange;
        Assert.NotNull(unsecure);
        Assert.Equal(unsecure, shared.Panels.Single(p => p.Key == "throughput-secure").Spec.YRange);
        Assert.True(unsecure[1] >= 5000);
        Assert.All(independent.Panels, p => Assert.Null(p.Spec.YRange));
    }

    [Fact]
    public void Build_P99Off_NoP99LineAndNoHiddenEntries()
    {
        LevelEntity[] levels = [Level("IceTcp", "java", 1, 2000, 0.5), Level("IceTcp", "java", 10, 9000, 1.1)];

        var off = RunCharts.Build(Data(levels), RunView.Default);
        var on = RunCharts.Build(Data(levels), RunView.Default with { P99 = true });

        Assert.DoesNotContain(off.Panels.SelectMany(p => p.Spec.Series), s => s.Name.EndsWith(" p99", StringComparison.Ordinal));
        Assert.Contains(on.Panels.Single(p => p.Key == "response-time-unsecure").Spec.Series, s => s.Name == "IceTcp × java p99");
    }

    [Fact]
    public void Build_MemoryOver10000Mb_InGb()
    {
        var resources = new[] { new ResourcePoint(0, 10, 5, 22_350, null), new ResourcePoint(1, 12, 6, 22_300, null) };

        var figures = RunCharts.Build(Data([Level("IceTcp", "java", 1, 2000, 0.5)], resources), RunView.Default);

        var memory = figures.OverTime.Single(c => c.Key == "server-memory").Spec;
        Assert.Equal("available memory (GB)", memory.YTitle);
        Assert.Equal(22_350 / 1024.0, memory.Series[0].Y[0]!.Value, 9);
    }

    [Fact]
    public void Build_UpstartLines_UpstartViewOnLogAxes()
    {
        var upstart = new[] { new UpstartLine("IceTcp", "java", "Int", [new(1, 9.0, 0), new(5, 3.0, 0), new(10, 2.0, 0)]) };
        var data = Data([Level("IceTcp", "java", 1, 2000, 0.5)]) with { Upstart = upstart };

        var figures = RunCharts.Build(data, RunView.Default);

        var chart = figures.Views.Single(v => v.Key == "upstart").Spec;
        Assert.True(chart.LogX);
        Assert.Equal([1.0, 5, 10], chart.Series[0].X);
        Assert.Equal([9.0, 3.0, 2.0], chart.Series[0].Y.Select(v => v!.Value));
    }
}
