using Bunit;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Web.Components.Shared;
using MudBlazor.Services;

// Folder Components/Shared mirrors the source; the namespace stops one level up (CA1716: "Shared" is a VB keyword).
namespace Dashboard.Web.Tests.Components;

/// <summary>The issue #24 components in bunit: level quality flags, the run's environment panel, a tested difference.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001", Justification = "Disposed by IAsyncLifetime.DisposeAsync: MudBlazor's services are only IAsyncDisposable.")]
public sealed class RigorComponentsTests : IAsyncLifetime
{
    private readonly BunitContext _context = new();

    public RigorComponentsTests()
    {
        _context.JSInterop.Mode = JSRuntimeMode.Loose;
        _context.Services.AddMudServices();
    }

    public Task InitializeAsync() => Task.CompletedTask;

    // MudBlazor's services are only IAsyncDisposable.
    public async Task DisposeAsync() => await _context.DisposeAsync();

    [Fact]
    public void LevelQualityFlags_PartialGeneratorBoundTwoRepetitions_ShowsEachFlag()
    {
        var level = Aggregate([20158, 12494], complete: [true, false], bound: LevelBound.Generator, steady: false);

        var flags = _context.Render<LevelQualityFlags>(p => p.Add(c => c.Level, level));

        Assert.Contains("partial: 1 of 2 repetition(s) cut", flags.Find("[data-testid=flag-partial]").TextContent, StringComparison.Ordinal);
        Assert.Contains("generator-bound", flags.Find("[data-testid=flag-bound]").TextContent, StringComparison.Ordinal);
        Assert.Contains("measured before steady state (30 s warm-up)", flags.Find("[data-testid=flag-steady-state]").TextContent, StringComparison.Ordinal);
        Assert.Contains("n = 2: at least 3 for an interval", flags.Find("[data-testid=flag-interval]").TextContent, StringComparison.Ordinal);
        Assert.Contains("CoV", flags.Find("[data-testid=flag-cov]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void LevelQualityFlags_ThreeCompleteRepetitionsSteady_NoWarningFlags()
    {
        var level = Aggregate([1000, 1010, 990], complete: [true, true, true], bound: LevelBound.Neither, steady: true);

        var flags = LevelQualityFlags.Flags(level);

        Assert.DoesNotContain(flags, f => f.Kind is "partial" or "interval");
        Assert.All(flags, f => Assert.Equal(LevelQualityFlags.FlagSeverity.Info, f.Severity));
        Assert.Equal("CoV 1 %", Assert.Single(flags, f => f.Kind == "cov").Text);
        Assert.Equal("steady state after 30 s", Assert.Single(flags, f => f.Kind == "steady-state").Text);
    }

    [Fact]
    public void LevelQualityFlags_OneOfThreeRepetitionsDisturbed_WarningWithTheFigures()
    {
        var level = Aggregate([1000, 1010, 990], complete: [true, true, true], bound: LevelBound.Neither, steady: true)
            with { DisturbedRepetitions = 1, CheckedRepetitions = 3, OthersCpuCores = 0.25, StealPercent = 0 };

        var disturbed = Assert.Single(LevelQualityFlags.Flags(level), f => f.Kind == "disturbed");

        Assert.Equal("disturbed: 1 of 3 repetition(s)", disturbed.Text);
        Assert.Contains("mean others 0.25 cores", disturbed.Explanation, StringComparison.Ordinal);
        Assert.Equal(LevelQualityFlags.FlagSeverity.Warning, disturbed.Severity);
        Assert.DoesNotContain(LevelQualityFlags.Flags(level with { DisturbedRepetitions = 0 }), f => f.Kind == "disturbed");
    }

    [Fact]
    public void LevelQualityFlags_SharedCoresSaturated_SaysMachineBoundNotGeneratorBound()
    {
        var level = Aggregate([1000, 1010, 990], complete: [true, true, true], bound: LevelBound.Machine, steady: true);

        var bound = Assert.Single(LevelQualityFlags.Flags(level), f => f.Kind == "bound");

        Assert.Equal("machine-bound", bound.Text);
        Assert.Equal(LevelQualityFlags.FlagSeverity.Warning, bound.Severity);
    }

    [Fact]
    public void RunEnvironmentPanel_RecordedEnvironment_ShowsCpuCoresTopologyAndLibraries()
    {
        const string json = """
            {"machineName":"m","osDescription":"Debian","osArchitecture":"X64","runtime":".NET 10.0.0","processorCount":1,"totalMemoryMb":100,
             "serverGc":false,"versions":{"Runner":"1.0+abc"},"cpuModel":"Intel Xeon","machineCores":2,"generatorCores":1,"serverCores":2,
             "machineMemoryMb":24000,"kernel":"6.1.0","javaVersion":"openjdk 21","nodeVersion":"v20.1.0",
             "clientLibraries":{"node":{"soap":"1.1.0"},"java":{"jaxws-rt-4.0.2.jar":"jar","grpc-core.jar":"1.41.3"}},"commit":"abc","topology":"same-machine",
             "serverStacks":{"aspnet":{"Kestrel":"10.0.1","Grpc.AspNetCore":"2.85.0"},"jvm":{"Metro (JAX-WS RI)":"2.3.0.2","ZeroC Ice":"3.7.8"}}}
            """;

        var panel = _context.Render<RunEnvironmentPanel>(p => p.Add(c => c.EnvironmentJson, json).Add(c => c.Expanded, true));

        var text = panel.Find("[data-testid=run-environment]").TextContent;
        Assert.Contains("Intel Xeon", text, StringComparison.Ordinal);
        Assert.Contains("Cores the generator may use", text, StringComparison.Ordinal);
        Assert.Contains("same-machine", text, StringComparison.Ordinal);
        Assert.Contains("soap 1.1.0", text, StringComparison.Ordinal);
        Assert.Contains("jaxws-rt-4.0.2.jar", text, StringComparison.Ordinal);
        Assert.Contains(RunEnvironmentPanel.Rows(json), r => r == ("Kernel", "6.1.0"));
        Assert.Contains(RunEnvironmentPanel.Rows(json), r => r == ("Server aspnet", "Kestrel 10.0.1, Grpc.AspNetCore 2.85.0"));
        Assert.Contains(RunEnvironmentPanel.Rows(json), r => r == ("Server jvm", "Metro (JAX-WS RI) 2.3.0.2, ZeroC Ice 3.7.8"));
        Assert.Contains(RunEnvironmentPanel.Rows(json), r => r == ("Client java", "jaxws-rt-4.0.2.jar, grpc-core.jar 1.41.3"));
    }

    [Fact]
    public void RunEnvironmentPanel_RunOnLoadAgents_ListsEachAgentWithMachineCoresAndRuntimes()
    {
        const string json = """
            {"machineName":"m","osDescription":"Debian","osArchitecture":"X64","runtime":".NET 10.0.0","processorCount":2,"totalMemoryMb":100,
             "serverGc":false,"versions":{},"loadAgents":[
               {"name":"agent-1","machine":"client-a","cores":1,"runtimes":{"dotnet":".NET 10.0.3","java":"17.0.15"},"clockOffsetMs":0.2,"clockUncertaintyMs":0.1},
               {"name":"agent-2","machine":"client-b","cores":4,"runtimes":{"dotnet":".NET 10.0.3"},"clockOffsetMs":-1.5,"clockUncertaintyMs":0.3}]}
            """;

        var rows = RunEnvironmentPanel.Rows(json);

        Assert.Contains(rows, r => r == ("Load agents",
            "agent-1 (machine client-a, 1 core, dotnet .NET 10.0.3, java 17.0.15) · agent-2 (machine client-b, 4 cores, dotnet .NET 10.0.3)"));
        Assert.DoesNotContain(RunEnvironmentPanel.Rows(json.Replace("\"loadAgents\"", "\"other\"", StringComparison.Ordinal)), r => r.Label == "Load agents");
    }

    [Fact]
    public void RunEnvironmentPanel_RunnerLinkOrNothing_SaysNotRecorded()
    {
        var panel = _context.Render<RunEnvironmentPanel>(p => p.Add(c => c.EnvironmentJson, """{"runnerRunId":3}"""));

        Assert.Equal("Environment not recorded for this run.", panel.Find("[data-testid=run-environment-missing]").TextContent);
    }

    [Fact]
    public void DifferenceBadge_OneRepetitionEachSide_SaysNoTest()
    {
        var test = SampleTests.Difference([1000], [1617]);

        var badge = _context.Render<DifferenceBadge>(p => p.Add(c => c.Test, test));

        Assert.Equal("+61.7 %, no test (n = 1 on a side)", badge.Find("[data-testid=difference]").TextContent.Trim());
    }

    [Fact]
    public void DifferenceBadge_TestedDifference_ShowsEffectAndInterval()
    {
        var test = SampleTests.Difference([1000, 1010, 990], [2000, 2020, 1980]);

        Assert.StartsWith("+100.0 % [+", DifferenceBadge.Text(test), StringComparison.Ordinal);
        Assert.Contains("within noise", DifferenceBadge.Text(SampleTests.Difference([100, 110, 120], [105, 115, 125])), StringComparison.Ordinal);
    }

    private static LevelAggregate Aggregate(double[] throughputs, bool[] complete, LevelBound bound, bool steady) =>
        LevelAggregation.Aggregate(throughputs.Select((t, r) => new LevelEntity
        {
            Variant = "AspNetHttpJson",
            Client = "dotnet",
            Payload = "Int",
            Clients = 20,
            Repetition = r + 1,
            Requests = 1000,
            ThroughputRps = t,
            MeanMs = 1000 / t,
            P50Ms = 1000 / t,
            Complete = complete[r],
            Bound = bound,
            SteadyStateReached = steady,
            SteadyStateWarmupSeconds = 30,
            GeneratorCpuMicrosPerRequest = 45,
        }), includePartial: true).Single();
}
