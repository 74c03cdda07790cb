using System.Text.RegularExpressions;
using Dashboard.Data.Entities;
using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Tests.Support;
using Dashboard.Web.Hosts;
using Microsoft.Extensions.DependencyInjection;

namespace Dashboard.Web.Components.Tests.Components.Pages;

/// <summary>Home rendered with the dashboard's services on a real results database.</summary>
public sealed partial class HomeTests : IAsyncLifetime
{
    private readonly DashboardContext _context = new();

    [Fact]
    public void Render_NewUser_SaysWhatTheProductDoesAndNamesSourceDocumentsByTitleAndAuthor()
    {
        var home = _context.RenderPage<Home>();

        home.WaitForAssertion(() => Assert.Contains("benchmarks of service stacks", home.Find("[data-testid=product-sentence]").TextContent, StringComparison.Ordinal));
        var sources = home.Find("[data-testid=source-documents]").TextContent;
        Assert.Contains("Performance Comparison of Selected Object Oriented Middleware Technologies for the .NET Platform", sources, StringComparison.Ordinal);
        Assert.Contains("Bjarke N. Rahbek", sources, StringComparison.Ordinal);
        Assert.Contains("Bram Veldhoen", sources, StringComparison.Ordinal);
        Assert.Contains("Essential Windows Communication Foundation", sources, StringComparison.Ordinal);
        Assert.DoesNotContain("seed 00", home.Markup, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("DESIGN.md", home.Markup, StringComparison.Ordinal);
        Assert.DoesNotContain("pid ", home.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Render_CompletedRuns_ShowFullNamesStartDurationAndPeakThroughput()
    {
        var started = new DateTime(2026, 11, 25, 8, 0, 0, DateTimeKind.Utc);
        const string common = "Preset 1 quick (thesis ch. 8.1, local IPC vs network): AspNetUdsBinXml, AspNetH2BinXml × dotnet × Int, IntArray500 × 1, 20, 50 clients";
        var first = await _context.AddRunAsync(Run(common + ", run A", started, TimeSpan.FromSeconds(19)),
            Level("AspNetUdsBinXml", 20, 2345.4, 8.5), Level("AspNetH2BinXml", 50, 1200, 40));
        var second = await _context.AddRunAsync(Run(common + ", run B", started.AddMinutes(5), TimeSpan.FromMinutes(3)));

        var home = _context.RenderPage<Home>();

        home.WaitForAssertion(() => Assert.Equal(common + ", run A", home.Find($"[data-testid=run-link-{first.Id}]").TextContent));
        Assert.Equal(common + ", run B", home.Find($"[data-testid=run-link-{second.Id}]").TextContent);
        var rows = home.FindAll("tr.run-row");
        Assert.Equal(2, rows.Count);
        var firstRow = rows.Single(r => r.TextContent.Contains("run A", StringComparison.Ordinal));
        Assert.Contains("2026-11-25 08:00", firstRow.QuerySelector("[data-testid=run-started]")!.TextContent, StringComparison.Ordinal);
        Assert.Equal("19 s", firstRow.QuerySelector("[data-testid=run-duration]")!.TextContent);
        Assert.Equal("2,345 req/s", firstRow.QuerySelector("[data-testid=run-headline]")!.TextContent);
        Assert.Contains("AspNetUdsBinXml × dotnet, Int, 20 clients", firstRow.TextContent, StringComparison.Ordinal);
        var secondRow = rows.Single(r => r.TextContent.Contains("run B", StringComparison.Ordinal));
        Assert.Equal("3 min", secondRow.QuerySelector("[data-testid=run-duration]")!.TextContent);
        Assert.Null(secondRow.QuerySelector("[data-testid=run-headline]"));
    }

    [Fact]
    public void Render_HostChecked_LastCheckIsATimeAndTheErrorBelow()
    {
        var registry = _context.Services.GetRequiredService<HostRegistry>();
        registry.Report(registry.LocalAddress, HostHealth.Down, "Connection refused (127.0.0.1:9)");

        var home = _context.RenderPage<Home>();

        home.WaitForAssertion(() => Assert.Matches(TimeOfDay(), home.Find("[data-testid=last-check]").TextContent));
        Assert.Contains("Connection refused", home.Find("[data-testid=host-grid]").TextContent, StringComparison.Ordinal);
    }

    /// <inheritdoc />
    public Task InitializeAsync() => Task.CompletedTask;

    /// <inheritdoc />
    public Task DisposeAsync() => _context.DisposeAndDeleteAsync();

    private static RunEntity Run(string name, DateTime started, TimeSpan took) => new()
    {
        ScenarioName = name,
        ScenarioJson = "{}",
        Status = RunStatus.Completed,
        CreatedUtc = started,
        StartedUtc = started,
        EndedUtc = started + took,
        CompletedLevels = 2,
        TotalLevels = 2,
    };

    private static LevelEntity Level(string variant, int clients, double throughput, double meanMs) => new()
    {
        Variant = variant,
        Client = "dotnet",
        Payload = "Int",
        Clients = clients,
        Requests = 100,
        ThroughputRps = throughput,
        MeanMs = meanMs,
    };

    [GeneratedRegex(@"^\d\d:\d\d:\d\d$")]
    private static partial Regex TimeOfDay();
}
