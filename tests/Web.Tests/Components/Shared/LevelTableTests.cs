using Bunit;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Web.Charts;
using Dashboard.Web.Components.Shared;
using Microsoft.Extensions.DependencyInjection;
using MudBlazor.Services;

namespace Dashboard.Web.Tests.Components;

/// <summary>The per-level table and the chart component rendered by bunit (no browser).</summary>
public sealed class LevelTableTests : IAsyncDisposable
{
    private readonly BunitContext _context = new();

    public LevelTableTests()
    {
        _context.JSInterop.Mode = JSRuntimeMode.Loose;
        _context.Services.AddMudServices();
    }

    // MudBlazor's services are IAsyncDisposable only.
    public ValueTask DisposeAsync() => _context.DisposeAsync();

    private static IReadOnlyList<LevelAggregate> Rows(int count) => LevelAggregation.Aggregate(Enumerable.Range(1, count).Select(i => new LevelEntity
    {
        Variant = "MetroSoap12WsaUserNameHttps", Client = "java", Payload = "UDTypeArray1000", Clients = i, Repetition = 1, Requests = 1000 + i,
        ThroughputRps = 100 + i, MeanMs = 12.3456, P50Ms = 11, P90Ms = 14, P99Ms = 20, P999Ms = 30, MaxMs = 40,
    }));

    [Fact]
    public void Render_ThirtyLevels_OnePageOf25WithEveryHeaderAndFullValues()
    {
        var table = _context.Render<LevelTable>(p => p.Add(t => t.Rows, Rows(30)));

        table.WaitForAssertion(() => Assert.Equal(25, table.FindAll("tbody tr.mud-table-row").Count));
        var headers = table.FindAll("th").Select(h => h.TextContent.Trim()).ToList();
        foreach (var title in new[] { "Variant", "Client", "Payload", "Clients", "Throughput (req/s)", "Mean (ms)", "p50 (ms)", "p99 (ms)", "Max (ms)" })
        {
            Assert.Contains(headers, h => h.StartsWith(title, StringComparison.Ordinal));
        }

        Assert.Contains("MetroSoap12WsaUserNameHttps", table.Markup, StringComparison.Ordinal);
        Assert.Contains("12.346", table.Markup, StringComparison.Ordinal);
        Assert.Contains("1,001", table.Markup, StringComparison.Ordinal);
        Assert.Contains("1-25 of 30", table.Markup.Replace("–", "-", StringComparison.Ordinal), StringComparison.Ordinal);
    }

    [Fact]
    public void Render_NoLevel_SaysSo()
    {
        var table = _context.Render<LevelTable>(p => p.Add(t => t.Rows, []));

        table.WaitForAssertion(() => Assert.Contains("No level has finished yet.", table.Markup, StringComparison.Ordinal));
    }

    [Fact]
    public void Chart_Spec_PlotElementWithTestIdCaptionOutsideTheFigureAndExportButtons()
    {
        var spec = new ChartSpec("Throughput — unsecure variants, Int", "concurrent clients", "throughput (requests/s)",
            [new ChartSeries("IceTcp × java", [1, 10], [100, 900])], Subtitle: "completed requests ÷ level duration");

        var chart = _context.Render<Chart>(p => p.Add(c => c.Spec, spec).Add(c => c.TestId, "throughput-unsecure").Add(c => c.FileName, "run-3-throughput-unsecure-Int"));

        Assert.NotNull(chart.Find("[data-testid=throughput-unsecure]"));
        Assert.Equal("run-3-throughput-unsecure-Int", chart.Find("[data-testid=throughput-unsecure]").GetAttribute("data-file-name"));
        Assert.Equal("completed requests ÷ level duration", chart.Find("[data-testid=throughput-unsecure-caption]").TextContent);
        Assert.NotNull(chart.Find("[data-testid=throughput-unsecure-png]"));
        Assert.NotNull(chart.Find("[data-testid=throughput-unsecure-svg]"));
    }
}
