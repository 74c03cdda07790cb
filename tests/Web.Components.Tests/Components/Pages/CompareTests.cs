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
        Assert.Contains("1 of 3 level(s) have fewer than 2 repetitions (or launches) on a side", warnings, StringComparison.Ordinal);
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

    [Fact]
    public async Task Render_ImportedRunAndItsRerun_EnvironmentsSideBySideWithDifferingRowsHighlighted()
    {
        var original = Run("bundle source", repetitions: 1);
        original.EnvironmentJson = Environment("Intel(R) Xeon(R) E5-2680", 16, "paper-box", 0.42);
        original.ImportedJson = """{"originalRunId": 12, "exportedUtc": "2026-11-26T10:00:00Z", "product": {"version": "1.2.3", "commit": "abcdef0123456789"}, "reproduce": "curl …"}""";
        original = await _context.AddRunAsync(original, [.. Levels("AspNetHttpJson", [1000])]);
        var rerun = Run("bundle source", repetitions: 1);
        rerun.EnvironmentJson = Environment("AMD EPYC 7B13", 2, "ci-box", 1.75);
        rerun = await _context.AddRunAsync(rerun, [.. Levels("AspNetHttpJson", [600])]);

        var page = Open($"{original.Id},{rerun.Id}");

        page.WaitForAssertion(() => Assert.NotEmpty(page.FindAll("[data-testid=compare-environments]")));
        var headers = page.FindAll("[data-testid=compare-environments] tr")[0].QuerySelectorAll("th").Select(h => h.TextContent.Trim()).ToList();
        Assert.Equal(["", $"#{original.Id} (imported)", $"#{rerun.Id}"], headers);
        var rows = page.FindAll("[data-testid=environment-compare-row]").ToDictionary(
            r => r.QuerySelector("th")!.TextContent.Trim(),
            r => (Values: r.QuerySelectorAll("td").Select(c => c.TextContent.Trim()).ToList(), Differs: r.GetAttribute("data-differs") == "true"));
        string Row(string label) => string.Join(" | ", rows[label].Values) + (rows[label].Differs ? " (differs)" : " (same)");
        Assert.Equal("Intel(R) Xeon(R) E5-2680 | AMD EPYC 7B13 (differs)", Row("CPU"));
        Assert.Equal("16 | 2 (differs)", Row("Cores (machine)"));
        Assert.Equal("paper-box | ci-box (differs)", Row("Machine"));
        Assert.Equal("Debian GNU/Linux 12 (bookworm) | Debian GNU/Linux 12 (bookworm) (same)", Row("OS"));
        Assert.Equal(".NET 10.0.3 | .NET 10.0.3 (same)", Row(".NET"));
        Assert.Equal("on-machine | on-machine (same)", Row("Topology"));
        Assert.Contains("load average 0.42", rows["Machine at start"].Values[0], StringComparison.Ordinal);
        Assert.Contains("load average 1.75", rows["Machine at start"].Values[1], StringComparison.Ordinal);
        Assert.Equal("Dashboard 1.2.3 (commit abcdef012345), imported (run #12 there)", rows["Product"].Values[0]);
        Assert.Equal("measured here", rows["Product"].Values[1]);
        Assert.Contains("differs", page.FindAll("[data-testid=environment-compare-row]").First(r => r.TextContent.Contains("CPU", StringComparison.Ordinal)).ClassName, StringComparison.Ordinal);
    }

    private static string Environment(string cpu, int cores, string machine, double load) => System.Text.Json.JsonSerializer.Serialize(new Dictionary<string, object?>
    {
        ["cpuModel"] = cpu, ["machineCores"] = cores, ["osDescription"] = "Debian GNU/Linux 12 (bookworm)", ["runtime"] = ".NET 10.0.3",
        ["machineName"] = machine, ["commit"] = "0123abc", ["machineAtStart"] = Dashboard.Data.Statistics.MachineAtStart.Of(load, null, null),
    }, System.Text.Json.JsonSerializerOptions.Web);

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
