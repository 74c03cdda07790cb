using Dashboard.Data.Entities;
using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Tests.Support;
using Microsoft.AspNetCore.Components;
using Microsoft.Extensions.DependencyInjection;

namespace Dashboard.Web.Components.Tests.Components.Pages;

/// <summary>The compare page rendered with the dashboard's services on a real results database: tested differences and warnings.</summary>
public sealed class CompareTests : IAsyncLifetime
{
    private readonly DashboardContext _context = new();

    [Fact]
    public async Task Render_ThreeRepetitionsPerSide_ColoursOnlyTheDifferenceTheTestCalls()
    {
        var baseline = await _context.AddRunAsync(Run("baseline", repetitions: 3),
            [.. Levels("AspNetHttpJson", [1000, 1010, 990]), .. Levels("MetroSoap11", [500, 505, 495]), .. Levels("AspNetHttpsJson", [800])]);
        var candidate = await _context.AddRunAsync(Run("candidate", repetitions: 3),
            [.. Levels("AspNetHttpJson", [1500, 1510, 1490]), .. Levels("MetroSoap11", [520, 470, 515]), .. Levels("AspNetHttpsJson", [1200])]);

        var page = Open($"{baseline.Id},{candidate.Id}");

        page.WaitForAssertion(() => Assert.NotEmpty(page.FindAll("[data-testid=compare-deltas] [data-testid=difference]")));
        var rows = page.FindAll("[data-testid=compare-deltas] tr").Skip(2).ToList();
        Assert.Equal(3, rows.Count);
        var faster = rows.Single(r => r.TextContent.Contains("AspNetHttpJson ×", StringComparison.Ordinal)).QuerySelectorAll("[data-testid=difference]");
        Assert.Equal(2, faster.Length); // throughput and mean response time, candidate's column
        Assert.Contains("+50.0 % [", faster[0].TextContent, StringComparison.Ordinal);
        Assert.Contains("mud-chip-color-success", faster[0].ClassName, StringComparison.Ordinal);
        Assert.Contains("mud-chip-color-success", faster[1].ClassName, StringComparison.Ordinal); // lower response time is better
        var noise = rows.Single(r => r.TextContent.Contains("MetroSoap11 ×", StringComparison.Ordinal)).QuerySelectorAll("[data-testid=difference]");
        Assert.Contains("within noise", noise[0].TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("mud-chip-color-success", noise[0].ClassName, StringComparison.Ordinal);
        Assert.DoesNotContain("mud-chip-color-error", noise[0].ClassName, StringComparison.Ordinal);
        var single = rows.Single(r => r.TextContent.Contains("AspNetHttpsJson ×", StringComparison.Ordinal)).QuerySelectorAll("[data-testid=difference]");
        Assert.Contains("+50.0 %, no test (n = 1 on a side)", single[0].TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("mud-chip-color-success", single[0].ClassName, StringComparison.Ordinal);

        var warnings = page.Find("[data-testid=compare-warnings]").TextContent;
        Assert.Contains($"#{candidate.Id} vs #{baseline.Id}", warnings, StringComparison.Ordinal);
        Assert.Contains("1 of 3 level(s) have fewer than 2 repetitions on a side", warnings, StringComparison.Ordinal);
        // The claims of the two runs taken together: the security claim (AspNetHttpJson vs AspNetHttpsJson) concerns them.
        page.WaitForAssertion(() => Assert.NotEmpty(page.FindAll(".claims-table tr[data-claim]")));
        Assert.Empty(page.FindAll("#claims .mud-alert"));
        Assert.Empty(page.FindAll("[data-testid=topology-side-by-side]"));
    }

    [Fact]
    public async Task Render_SameMachineAndEmulatedLanRuns_WarnsAndShowsTheTopologiesSideBySide()
    {
        var onMachine = await _context.AddRunAsync(Run("on machine", repetitions: 3), [.. Levels("AspNetHttpJson", [1000, 1010, 990])]);
        var lan = Run("emulated lan", repetitions: 2);
        lan.Topology = "emulated-lan";
        lan.LinkRateMbps = 100;
        lan = await _context.AddRunAsync(lan, [.. Levels("AspNetHttpJson", [900, 905])]);

        var page = Open($"{onMachine.Id},{lan.Id}");

        page.WaitForAssertion(() => Assert.NotEmpty(page.FindAll("[data-testid=topology-side-by-side]")));
        var warnings = page.Find("[data-testid=compare-warnings]").TextContent;
        Assert.Contains("topology", warnings, StringComparison.Ordinal);
        Assert.Contains("repetitions differ (3 in run", warnings, StringComparison.Ordinal);
        Assert.Equal(2, page.FindAll("[data-testid=topology-header]").Count);
        Assert.Contains("100 Mbit/s", page.Find("[data-testid=compare-deltas]").TextContent, StringComparison.Ordinal);
    }

    private IRenderedComponent<Compare> Open(string runs)
    {
        _context.Services.GetRequiredService<NavigationManager>().NavigateTo($"compare?runs={runs}");
        return _context.RenderPage<Compare>();
    }

    /// <inheritdoc />
    public Task InitializeAsync() => Task.CompletedTask;

    /// <inheritdoc />
    public Task DisposeAsync() => _context.DisposeAndDeleteAsync();

    private static RunEntity Run(string name, int repetitions) => new()
    {
        ScenarioName = name,
        ScenarioJson = $$"""{"name": "{{name}}", "requestsPerClient": 100, "repetitions": {{repetitions}}}""",
        Status = RunStatus.Completed,
        CreatedUtc = new DateTime(2026, 11, 25, 8, 0, 0, DateTimeKind.Utc),
        CompletedLevels = 3,
        TotalLevels = 3,
    };

    // One stored level per repetition at 20 clients: mean response time 20 000 / throughput ms (a closed workload).
    private static IEnumerable<LevelEntity> Levels(string variant, double[] throughputs) => throughputs.Select((t, r) => new LevelEntity
    {
        Variant = variant,
        Client = "dotnet",
        Payload = "Int",
        Clients = 20,
        Repetition = r,
        Requests = 2000,
        ThroughputRps = t,
        MeanMs = 20_000 / t,
        P50Ms = 20_000 / t,
    });
}
