using AngleSharp.Dom;
using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Tests.Support;
using Dashboard.Web.Hosts;
using Microsoft.Extensions.DependencyInjection;

namespace Dashboard.Web.Components.Tests.Components.Pages;

/// <summary>The New run page: validation messages in the page's terms, mixed scenarios with skipped pairs, estimate, host warning.</summary>
public sealed class NewRunTests : IAsyncLifetime
{
    private readonly DashboardContext _context = new();

    [Fact]
    public void Requests_Zero_RefusedNamingTheFieldNotSilentlyOne()
    {
        var page = _context.RenderPage<NewRun>();

        page.WaitForElement("#requests").Change("0");

        page.WaitForAssertion(() => Assert.Contains("Requests per client: 0 is out of range; 1..1000000 requests per client", page.Find("[data-testid=error-requestsPerClient]").TextContent, StringComparison.Ordinal));
        Assert.Contains("\"requestsPerClient\": 0", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Host_TypedThenEnterAtOnce_TheTypedAddressStays()
    {
        var page = _context.RenderPage<NewRun>();
        var host = page.WaitForElement("#host");

        host.Input("http://10.9.9.9:5090");
        host.KeyDown(new Microsoft.AspNetCore.Components.Web.KeyboardEventArgs { Key = "Enter" });

        page.WaitForAssertion(() => Assert.Contains("\"host\": \"http://10.9.9.9:5090\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        Assert.Equal("http://10.9.9.9:5090", page.Find("#host").GetAttribute("value"));
    }

    [Fact]
    public void Host_KnownHostChipClicked_TheFieldTakesItsAddress()
    {
        var page = _context.RenderPage<NewRun>();
        page.WaitForElement("#host").Input("http://10.9.9.9:5090");

        page.Find("[data-testid=host-choices] .mud-chip").Click();

        var local = page.Find("[data-testid=host-choices] .mud-chip").TextContent.Trim();
        page.WaitForAssertion(() => Assert.Contains($"\"host\": \"{local}\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void Levels_NotANumber_ErrorNamesTheLevelInUserTerms()
    {
        var page = _context.RenderPage<NewRun>();

        page.WaitForElement("#levels").Change("1, x, 20");

        page.WaitForAssertion(() => Assert.Equal("Concurrency level 2: 'x' is not a whole number of concurrent clients", page.Find("[data-testid=error-levels]").TextContent.Trim()));
    }

    [Fact]
    public void Levels_SeveralBadEntries_ErrorNamesEachOfThem()
    {
        var page = _context.RenderPage<NewRun>();

        page.WaitForElement("#levels").Change("ten, -5, 2.5");

        page.WaitForAssertion(() => Assert.Equal(
            "Concurrency level 1: 'ten' is not a whole number of concurrent clients; Concurrency level 2: -5 is out of range; a level is 1..1000 concurrent clients; Concurrency level 3: '2.5' is not a whole number of concurrent clients",
            page.Find("[data-testid=error-levels]").TextContent.Trim()));
    }

    [Fact]
    public void Levels_OutOfRange_ErrorNamesTheLevelWithoutJsonKeys()
    {
        var page = _context.RenderPage<NewRun>();

        page.WaitForElement("#levels").Change("1, 0");

        page.WaitForAssertion(() => Assert.Contains("Concurrency level 2: 0 is out of range", page.Find("[data-testid=error-levels]").TextContent, StringComparison.Ordinal));
        Assert.DoesNotContain("levels[", page.Find("[data-testid=error-levels]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void LeanGenerator_ChosenWithJsonGrpcAndIce_RunsJsonAndGrpcAndSkipsIceWithTheReason()
    {
        var page = _context.RenderPage<NewRun>();

        Assert.Contains("a load generator, not a client technology under test", page.Find("[data-testid=clients]").TextContent, StringComparison.Ordinal);
        Check(page, "variant-AspNetHttpJson");
        Check(page, "variant-AspNetGrpc");
        Check(page, "variant-IceTcp");
        Check(page, "client-lean");
        Check(page, "payload-Int");
        page.Find("#levels").Change("1");

        page.WaitForAssertion(() => Assert.NotNull(page.Find("[data-testid=runs-lean-AspNetHttpJson]")));
        Assert.NotNull(page.Find("[data-testid=runs-lean-AspNetGrpc]"));
        Assert.Contains("Ice protocol", page.Find("[data-testid=skipped-lean-IceTcp]").TextContent, StringComparison.Ordinal);
        Assert.Contains("\"lean\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void MixedScenario_DotnetJavaOverJsonAndIce_ListsSkippedPairsAndQueues()
    {
        var page = _context.RenderPage<NewRun>();
        var navigation = _context.Services.GetRequiredService<Microsoft.AspNetCore.Components.NavigationManager>();

        Check(page, "variant-AspNetHttpJson");
        Check(page, "variant-IceTcp");
        Check(page, "client-dotnet");
        Check(page, "client-java");
        Check(page, "payload-Int");
        page.Find("#levels").Change("1, 2");

        page.WaitForAssertion(() => Assert.Contains("2 pairs are skipped", page.Find("[data-testid=skipped-pairs]").TextContent, StringComparison.Ordinal));
        Assert.Contains("the java client calls only the gRPC, Metro (SOAP), Ice and WCF bindings variants", page.Find("[data-testid=skipped-java-AspNetHttpJson]").TextContent, StringComparison.Ordinal);
        Assert.NotNull(page.Find("[data-testid=skipped-dotnet-IceTcp]"));
        Assert.NotNull(page.Find("[data-testid=runs-dotnet-AspNetHttpJson]"));
        Assert.NotNull(page.Find("[data-testid=runs-java-IceTcp]"));
        Assert.Contains("2 cells", page.Find("[data-testid=summary]").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("[data-testid=error-clients]"));
        Assert.Contains("Takes ≈", page.Find("[data-testid=estimate]").TextContent, StringComparison.Ordinal);

        page.Find("[data-testid=queue-run]").Click();

        page.WaitForAssertion(() => Assert.Matches(@"/runs/\d+$", navigation.Uri));
        using var db = _context.OpenDatabase();
        Assert.Contains("IceTcp", Assert.Single(db.Runs).ScenarioJson, StringComparison.Ordinal);
    }

    [Fact]
    public void Estimate_HandBuiltScenarioNothingMeasuredHere_SaysItIsTheModelsEstimate()
    {
        var page = RenderOneCell();

        page.WaitForAssertion(() => Assert.Contains("estimate for an idle 2-core machine", page.Find("[data-testid=estimate]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Estimate_HandBuiltScenarioThroughputMeasuredHere_ComputedWithIt()
    {
        // A level of AspNetHttpJson × dotnet × Int measured here at 100 req/s: the scenario is computed with it.
        var started = DateTime.UtcNow.AddHours(-1);
        await _context.AddRunAsync(
            new Dashboard.Data.Entities.RunEntity
            {
                ScenarioName = "earlier", ScenarioJson = "{}", Status = Dashboard.Data.Entities.RunStatus.Completed, CreatedUtc = started, StartedUtc = started, EndedUtc = started.AddMinutes(1),
            },
            new Dashboard.Data.Entities.LevelEntity
            {
                Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Clients = 1, Repetition = 1, Requests = 3000, ThroughputRps = 100, StartedUtc = started, EndedUtc = started.AddSeconds(30),
            });

        var page = RenderOneCell();

        // 3 repetitions (the form's default) × (5 warm-up + 3,000 calls) at 100 req/s + starts: about 92 s, where the model said a few seconds.
        page.WaitForAssertion(() => Assert.Contains("from throughputs measured here", page.Find("[data-testid=estimate]").TextContent, StringComparison.Ordinal));
        Assert.Matches(@"≈ 9\d s", page.Find("[data-testid=estimate]").TextContent);
    }

    [Fact]
    public void Clients_NoPairWorks_RefusedAtClientsWithoutDesignCitation()
    {
        var page = _context.RenderPage<NewRun>();

        Check(page, "variant-IceTcp");
        Check(page, "client-dotnet");

        page.WaitForAssertion(() => Assert.Contains("Client technologies: no chosen client can call any chosen variant: the dotnet client cannot call IceTcp", page.Find("[data-testid=error-clients]").TextContent, StringComparison.Ordinal));
        Assert.DoesNotContain("DESIGN", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public void Host_Down_WarnsBeforeQueuing()
    {
        var registry = _context.Services.GetRequiredService<HostRegistry>();
        registry.Report(registry.LocalAddress, HostHealth.Down, "Connection refused (127.0.0.1:9)");

        var page = _context.RenderPage<NewRun>();

        page.WaitForAssertion(() => Assert.Contains("The host 127.0.0.1:9 is down", page.Find("[data-testid=host-down]").TextContent, StringComparison.Ordinal));
        Assert.Contains("Connection refused", page.Find("[data-testid=host-down]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Schedule_SaysItIsLocalTimeStoredInUtc()
    {
        var page = _context.RenderPage<NewRun>();

        page.WaitForAssertion(() => Assert.Equal("In your time (UTC); stored in UTC.", page.Find("[data-testid=schedule-zone]").TextContent.Trim()));
    }

    [Fact]
    public void Queue_Empty_StaysAndSummarisesInUserTerms()
    {
        var page = _context.RenderPage<NewRun>();

        page.WaitForElement("[data-testid=queue-run]").Click();

        page.WaitForAssertion(() => Assert.Contains("Endpoint variants: choose at least one endpoint variant", page.Find("[data-testid=error-summary]").TextContent, StringComparison.Ordinal));
        using var db = _context.OpenDatabase();
        Assert.Empty(db.Runs);
    }

    [Fact]
    public void Topology_EmulatedLanChosen_LinkRate100ByDefaultAndHostCoresValidatedAtTheField()
    {
        var page = _context.RenderPage<NewRun>();
        Assert.Contains("\"topology\": \"same-machine\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("[data-testid=link-rate]"));

        page.Find("[data-testid=topology-emulated-lan] input[type=radio], input[type=radio][data-testid=topology-emulated-lan]").Click();

        page.WaitForAssertion(() => Assert.Contains("\"topology\": \"emulated-lan\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        Assert.Contains("\"linkRateMbps\": 100", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
        Assert.Contains("100 Mbit/s", page.Find("[data-testid=link-rate]").TextContent, StringComparison.Ordinal);
        page.Find("#host-cores").Change("0");
        page.WaitForAssertion(() => Assert.Contains("Host cores: 0 is out of range", page.Find("[data-testid=error-hostCores]").TextContent, StringComparison.Ordinal));
        page.Find("#host-cores").Change("1");
        page.WaitForAssertion(() => Assert.Empty(page.FindAll("[data-testid=error-hostCores]")));
        Assert.Contains("\"hostCores\": 1", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);

        // Back on one machine: the link rate and host cores leave the document (the validator allows them for emulated-lan only).
        page.Find("[data-testid=topology-same-machine] input[type=radio], input[type=radio][data-testid=topology-same-machine]").Click();
        page.WaitForAssertion(() => Assert.DoesNotContain("linkRateMbps", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        Assert.DoesNotContain("hostCores", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("[data-testid=error-topology]"));
    }

    [Fact]
    public void Topology_UnixSocketVariantOverEmulatedLan_RefusedAtTheVariants()
    {
        var page = _context.RenderPage<NewRun>();
        Check(page, "variant-AspNetUdsBinXml");

        page.Find("[data-testid=topology-emulated-lan] input[type=radio], input[type=radio][data-testid=topology-emulated-lan]").Click();
        // The emulated-lan fields appear with the next render (on a busy machine not at once: seen in CI).
        page.WaitForElement("#host-cores").Change("1");

        page.WaitForAssertion(() => Assert.Contains("on-machine only", page.Find("[data-testid=error-variants]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void SteadyStateAndFreshClient_Ticked_InTheScenarioDocument()
    {
        var page = _context.RenderPage<NewRun>();
        Assert.DoesNotContain("steadyState", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);

        Check(page, "steady-state");
        Check(page, "fresh-client");

        page.WaitForAssertion(() => Assert.Contains("\"freshClientPerRepetition\": true", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        var json = page.Find("[data-testid=scenario-json]").TextContent;
        Assert.Contains("\"steadyState\"", json, StringComparison.Ordinal);
        Assert.Contains("\"maxCov\": 0.02", json, StringComparison.Ordinal);
        Assert.Contains("CoV ≤ 2 % over 5 × 1 s windows", page.Find("[data-testid=topology]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void SharedCore_TickedThenEmulatedLan_InTheDocumentThenRefusedAtItsField()
    {
        var page = _context.RenderPage<NewRun>();
        Assert.DoesNotContain("placement", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);

        Check(page, "shared-core");

        page.WaitForAssertion(() => Assert.Contains("\"placement\": \"shared-core\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        Click(page, "topology-emulated-lan");
        page.WaitForAssertion(() => Assert.Contains("One client on one core: placement 'shared-core' pins the host's processes", page.Find("[data-testid=error-placement]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void Agents_SqliteMode_OneLineLinkingTheAgentsPageAndNoChoice()
    {
        var page = _context.RenderPage<NewRun>();

        var section = page.WaitForElement("[data-testid=agents-sqlite]");
        Assert.Contains("The load comes from this machine", section.TextContent, StringComparison.Ordinal);
        Assert.Contains("need the PostgreSQL storage", section.TextContent, StringComparison.Ordinal);
        Assert.Equal("agents", section.QuerySelector("a")!.GetAttribute("href"));
        Assert.Empty(page.FindAll("[data-testid=agents-pick]"));
        Assert.DoesNotContain("\"agents\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Agents_SqliteModePresetNamingAgents_RefusedAtTheFieldUntilThisMachineIsChosen()
    {
        var presets = Directory.CreateTempSubdirectory("agents-presets-").FullName;
        await File.WriteAllTextAsync(Path.Combine(presets, "over-agents.json"), """
            {"name": "over agents", "host": "http://localhost:5090", "variants": ["AspNetHttpJson"], "clients": ["dotnet"], "payloads": ["Int"],
             "levels": [2], "duration": "00:00:02", "warmup": 1, "repetitions": 1, "agents": ["bench-1", "bench-2"]}
            """);
        var context = new DashboardContext(presets);
        try
        {
            var page = context.RenderPage<NewRun>();
            var select = page.FindComponent<MudBlazor.MudSelect<string>>();

            await page.InvokeAsync(() => select.Instance.ValueChanged.InvokeAsync("over-agents.json"));

            page.WaitForAssertion(() => Assert.StartsWith("Load agents: load agents need the PostgreSQL storage", page.Find("[data-testid=error-agents]").TextContent.Trim(), StringComparison.Ordinal));
            Assert.Contains("\"bench-1\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);

            page.Find("[data-testid=agents-clear]").Click();

            page.WaitForAssertion(() => Assert.Empty(page.FindAll("[data-testid=error-agents]")));
            Assert.DoesNotContain("\"agents\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
        }
        finally
        {
            await context.DisposeAndDeleteAsync();
            Directory.Delete(presets, recursive: true);
        }
    }

    [Fact]
    public void Agents_PostgreSqlMode_OnlineAgentsWithCoresAndTechnologiesThisMachineByDefault()
    {
        _context.UseAgents(DashboardContext.Agent("bench-1", cores: 4), DashboardContext.Agent("bench-2", technologies: ["dotnet", "java"]),
            DashboardContext.Agent("old-box", Dashboard.Data.Agents.AgentState.Offline));
        var page = _context.RenderPage<NewRun>();

        Click(page, "agents-pick");

        page.WaitForAssertion(() => Assert.Equal("4 cores · dotnet, wcf", page.Find("[data-testid=agent-detail-bench-1]").TextContent.Trim()));
        Assert.Equal("2 cores · dotnet, java", page.Find("[data-testid=agent-detail-bench-2]").TextContent.Trim());
        Assert.Empty(page.FindAll("[data-testid=agent-old-box]"));
        Assert.Contains("1 more registered but not online", page.Find("[data-testid=agents]").TextContent, StringComparison.Ordinal);
        Assert.NotNull(page.Find("[data-testid=agents-none-ticked]"));
        Assert.DoesNotContain("\"agents\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Agents_TwoTickedOverRequestsAndSteadyState_SwitchedToDurationWithNoteAndQueuedWithAgents()
    {
        _context.UseAgents(DashboardContext.Agent("bench-1"), DashboardContext.Agent("bench-2"));
        var page = RenderOneCell();
        Check(page, "steady-state");
        var navigation = _context.Services.GetRequiredService<Microsoft.AspNetCore.Components.NavigationManager>();

        Click(page, "agents-pick");
        Check(page, "agent-bench-1");
        Check(page, "agent-bench-2");

        page.WaitForAssertion(() => Assert.Contains("\"bench-2\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        var json = page.Find("[data-testid=scenario-json]").TextContent;
        Assert.Matches("\"agents\": \\[\\s*\"bench-1\",\\s*\"bench-2\"\\s*\\]", json);
        Assert.Contains("\"duration\"", json, StringComparison.Ordinal);
        Assert.DoesNotContain("requestsPerClient", json, StringComparison.Ordinal);
        Assert.DoesNotContain("steadyState", json, StringComparison.Ordinal);
        var notes = page.FindAll("[data-testid=agents-note]").Select(n => n.TextContent).ToList();
        Assert.Equal(2, notes.Count);
        Assert.Contains("measured time (10 s) instead of 3000 requests per client", notes[0], StringComparison.Ordinal);
        Assert.NotNull(page.Find("#duration"));
        Assert.Empty(page.FindAll("[data-testid=agents-warning]"));

        page.Find("[data-testid=queue-run]").Click();

        page.WaitForAssertion(() => Assert.Matches(@"/runs/\d+$", navigation.Uri));
        using var db = _context.OpenDatabase();
        var stored = Dashboard.Service.Contracts.Scenarios.ScenarioLoader.Parse(Assert.Single(db.Runs).ScenarioJson);
        Assert.Equal(["bench-1", "bench-2"], stored.Agents!.Names!);
    }

    [Fact]
    public void Agents_TickedThenRequestsChosenAgain_ValidatorErrorBesideRequests()
    {
        _context.UseAgents(DashboardContext.Agent("bench-1"));
        var page = RenderOneCell();
        Click(page, "agents-pick");
        Check(page, "agent-bench-1");

        Click(page, "bound-requests");

        page.WaitForAssertion(() => Assert.Contains("Requests per client: levels over load agents are timed", page.Find("[data-testid=error-requestsPerClient]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void Agents_TickedWithEmulatedLan_RefusedAtTheAgentsField()
    {
        _context.UseAgents(DashboardContext.Agent("bench-1"));
        var page = RenderOneCell();
        Click(page, "agents-pick");
        Check(page, "agent-bench-1");

        Click(page, "topology-emulated-lan");

        page.WaitForAssertion(() => Assert.Contains("Load agents: load agents generate load from their own machines; topology 'emulated-lan'", page.Find("[data-testid=error-agents]").TextContent, StringComparison.Ordinal));
        page.Find("[data-testid=queue-run]").Click();
        page.WaitForAssertion(() => Assert.Contains("Load agents:", page.Find("[data-testid=error-summary]").TextContent, StringComparison.Ordinal));
        using var db = _context.OpenDatabase();
        Assert.Empty(db.Runs);
    }

    [Fact]
    public void Agents_TickedAgentCannotRunJava_WarnsTheRunWouldBeRefused()
    {
        _context.UseAgents(DashboardContext.Agent("bench-1"));
        var page = _context.RenderPage<NewRun>();
        Check(page, "client-java");
        Click(page, "agents-pick");

        Check(page, "agent-bench-1");

        page.WaitForAssertion(() => Assert.Contains("agent(s) 'bench-1' (no java on PATH) cannot run client 'java'", page.Find("[data-testid=agents-warning]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void Agents_BackToThisMachine_AgentsLeaveTheDocument()
    {
        _context.UseAgents(DashboardContext.Agent("bench-1"));
        var page = RenderOneCell();
        Click(page, "agents-pick");
        Check(page, "agent-bench-1");
        page.WaitForAssertion(() => Assert.Contains("\"agents\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));

        Click(page, "agents-none");

        page.WaitForAssertion(() => Assert.DoesNotContain("\"agents\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        Assert.Empty(page.FindAll("[data-testid=agent-bench-1]"));
        Assert.Empty(page.FindAll("[data-testid=agents-note]"));
    }

    /// <inheritdoc />
    public Task InitializeAsync() => Task.CompletedTask;

    /// <inheritdoc />
    public Task DisposeAsync() => _context.DisposeAndDeleteAsync();

    // One cell (AspNetHttpJson × dotnet × Int), one client, 3,000 requests per client.
    private IRenderedComponent<NewRun> RenderOneCell()
    {
        var page = _context.RenderPage<NewRun>();
        Check(page, "variant-AspNetHttpJson");
        Check(page, "client-dotnet");
        Check(page, "payload-Int");
        page.Find("#levels").Change("1");
        page.Find("#requests").Change("3000");
        return page;
    }

    [Fact]
    public void Workload_OpenChosen_RatesFieldsShownAndTheJsonOpenAndTimed()
    {
        var page = _context.RenderPage<NewRun>();
        Assert.Empty(page.FindAll("#rates"));

        Click(page, "workload-open");

        page.WaitForElement("#rates");
        Assert.Empty(page.FindAll("#levels"));
        Assert.NotEmpty(page.FindAll("#p99-target"));
        Assert.NotEmpty(page.FindAll("#max-connections"));
        page.WaitForAssertion(() => Assert.Contains("\"workload\": \"open\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        var json = page.Find("[data-testid=scenario-json]").TextContent;
        Assert.Contains("\"duration\"", json, StringComparison.Ordinal);
        Assert.DoesNotContain("\"requestsPerClient\"", json, StringComparison.Ordinal);
        Assert.Contains(page.FindAll("[data-testid=workload-note]"), n => n.TextContent.Contains("measured time", StringComparison.Ordinal));
    }

    [Fact]
    public void Rates_BadEntries_ErrorsNameEachRateInUserTerms()
    {
        var page = _context.RenderPage<NewRun>();
        Click(page, "workload-open");

        page.WaitForElement("#rates").Change("100, x");

        page.WaitForAssertion(() => Assert.Equal("Arrival rate 2: 'x' is not a whole number of requests per second", page.Find("[data-testid=error-rates]").TextContent.Trim()));
        page.Find("#rates").Change("100, 0");
        page.WaitForAssertion(() => Assert.Contains("Arrival rate 2: 0 is out of range", page.Find("[data-testid=error-rates]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void P99Target_SetThenClosedChosen_TargetLeftOutOfTheJson()
    {
        var page = _context.RenderPage<NewRun>();
        Click(page, "workload-open");
        page.WaitForElement("#p99-target").Change("25");
        page.WaitForAssertion(() => Assert.Contains("\"p99TargetMs\": 25", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));

        Click(page, "workload-closed");

        page.WaitForElement("#levels");
        page.WaitForAssertion(() => Assert.DoesNotContain("p99TargetMs", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal));
        Assert.DoesNotContain("\"workload\"", page.Find("[data-testid=scenario-json]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Summary_OpenWorkload_CountsTheRatesNotTheClientLevels()
    {
        // The summary counted the closed levels' text (the thesis sweep's 16 levels) when the levels were rates.
        var page = _context.RenderPage<NewRun>();
        Check(page, "variant-AspNetHttpJson");
        Check(page, "client-dotnet");
        Check(page, "payload-Int");
        Click(page, "workload-open");

        page.WaitForElement("#rates").Change("500, 1000");
        page.Find("#repetitions").Change("1");

        page.WaitForAssertion(() => Assert.Equal("1 cell (variant × client × payload) × 2 rates × 1 repetition = 2 level runs", page.Find("[data-testid=summary]").TextContent.Trim()));
        Click(page, "workload-closed");
        page.WaitForAssertion(() => Assert.Contains("× 16 levels ×", page.Find("[data-testid=summary]").TextContent, StringComparison.Ordinal));
    }

    [Fact]
    public void Rates_HelperText_NamesEveryClientThatRunsOpenLevels()
    {
        var page = _context.RenderPage<NewRun>();

        Click(page, "workload-open");

        page.WaitForAssertion(() => Assert.Contains("dotnet, wcf, lean clients only", page.Find("[data-testid=load]").TextContent, StringComparison.Ordinal));
    }

    private static void Click(IRenderedComponent<NewRun> page, string testId) =>
        page.WaitForElement($"[data-testid={testId}] input[type=radio], input[type=radio][data-testid={testId}]").Click();

    private static void Check(IRenderedComponent<NewRun> page, string testId) =>
        page.WaitForElement($"[data-testid={testId}] input[type=checkbox], input[type=checkbox][data-testid={testId}]").Change(true);
}
