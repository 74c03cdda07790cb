using Dashboard.Data;
using Dashboard.Data.Agents;
using Dashboard.Data.Entities;
using Dashboard.Data.Runs;
using Dashboard.Runner.Agents;
using Dashboard.Runner.Tests.Support;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Agents;

/// <summary>The test classes that share the three agent machines (one set of namespaces, so they run one after another).</summary>
[CollectionDefinition(Name)]
public sealed class ThreeAgentMachinesGroup : ICollectionFixture<ThreeAgentMachines>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "three agent machines";
}

/// <summary>
/// Three agents, each in its own network namespace (its own address in 10.232.0.0/16, as its own machine, with a default
/// route to the root namespace), a real PostgreSQL server listening on the veth addresses and the real service host: one
/// fixture for the collection, so the machines are made once. Tests leave every agent online.
/// </summary>
public sealed class ThreeAgentMachines : IAsyncLifetime
{
    private readonly string _tmp = Directory.CreateTempSubdirectory("agents-3-").FullName;

    /// <summary>The namespaces, one per agent.</summary>
    public List<TestNamespace> Machines { get; } = [];

    /// <summary>The agents, by name.</summary>
    public Dictionary<string, AgentProcess> Agents { get; } = [];

    /// <summary>PostgreSQL on 127.0.0.1 and each namespace's root-side address.</summary>
    public PostgresServer Database { get; private set; } = null!;

    /// <summary>The deployment's database, from the root namespace.</summary>
    public string ConnectionString { get; private set; } = "";

    /// <summary>The service host (aspnet stack), listening on every address.</summary>
    public ServiceHostProcess Host { get; private set; } = null!;

    /// <summary>The agents' names, in order.</summary>
    public static readonly string[] Names = ["agent-1", "agent-2", "agent-3"];

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        if (!RootFactAttribute.IsRoot || !PostgresServer.IsInstalled)
        {
            return;
        }

        for (var i = 1; i <= 3; i++)
        {
            var machine = TestNamespace.Create($"g{i}", 100 + i, "10.232");
            Machines.Add(machine);
            // Every root-namespace address is reachable from every "machine", as on one LAN: the host at one address for all.
            TestNamespace.Ip("-n", machine.Name, "route", "add", "default", "via", machine.RootAddress);
        }

        Database = await PostgresServer.StartAsync(string.Join(',', ["127.0.0.1", .. Machines.Select(m => m.RootAddress)]));
        ConnectionString = await Database.CreateDatabaseAsync("agents3");
        using (ResultsStore.PostgreSql(ConnectionString).Open())
        {
            // migrated: the central results store the agents write their samples to
        }

        var database = new Npgsql.NpgsqlConnectionStringBuilder(ConnectionString).Database!;
        Host = await ServiceHostProcess.StartAsync(false, "--urls=http://0.0.0.0:0", "--ServiceHost:BindAddress=0.0.0.0");
        for (var i = 0; i < 3; i++)
        {
            StartAgent(i, database);
        }

        await WaitOnlineAsync(Names);
    }

    /// <summary>Starts agent <paramref name="index"/> (0-2) in its namespace, pinned to <paramref name="cpus"/> when given.</summary>
    public AgentProcess StartAgent(int index, string? database = null, string? cpus = null)
    {
        database ??= new Npgsql.NpgsqlConnectionStringBuilder(ConnectionString).Database!;
        var agent = AgentProcess.Start(Database.ConnectionString(database, Machines[index].RootAddress), Names[index], _tmp, Machines[index], cpus: cpus);
        Agents[Names[index]] = agent;
        return agent;
    }

    /// <summary>Waits until every agent of <paramref name="names"/> is online.</summary>
    public async Task WaitOnlineAsync(IEnumerable<string> names)
    {
        var registry = new AgentRegistry(ConnectionString);
        var wanted = names.ToList();
        var online = await Eventually.HoldsAsync(() =>
        {
            try
            {
                var list = registry.ListAsync(CancellationToken.None).GetAwaiter().GetResult();
                return wanted.All(n => list.Any(a => a.Name == n && a.State == AgentState.Online));
            }
            catch (Npgsql.NpgsqlException)
            {
                return false;
            }
        }, TimeSpan.FromSeconds(90));
        Assert.True(online, string.Join("\n", Agents.Select(a => $"{a.Key}: {a.Value.Stderr}")));
    }

    /// <summary>The host's control address as agent <paramref name="name"/> reaches it (its namespace's root-side address).</summary>
    public string HostFor(string name) => $"http://{Machines[Array.IndexOf(Names, name)].RootAddress}:{Host.ControlAddress.Port}/";

    /// <summary>One address of the host that the runner (root namespace) and every agent reach: the first link's root side.</summary>
    public string SharedHost => $"http://{Machines[0].RootAddress}:{Host.ControlAddress.Port}/";

    /// <summary>Restarts any agent that is not running (a test killed it) and waits until all are online.</summary>
    public async Task EnsureAllOnlineAsync()
    {
        for (var i = 0; i < Names.Length; i++)
        {
            if (Agents[Names[i]].HasExited)
            {
                Agents[Names[i]].Dispose();
                StartAgent(i);
            }
        }

        await WaitOnlineAsync(Names);
    }

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        foreach (var agent in Agents.Values)
        {
            agent.Dispose();
        }

        if (Host is not null)
        {
            await Host.DisposeAsync();
        }

        foreach (var machine in Machines)
        {
            machine.Dispose();
        }

        if (Database is not null)
        {
            await Database.DisposeAsync();
        }

        Directory.Delete(_tmp, recursive: true);
    }
}

/// <summary>A level over three agents on three "machines" (docs/agents.md): split, barrier, skew, throughput, and the faults.</summary>
[Collection(ThreeAgentMachinesGroup.Name)]
public sealed class DistributedLevelTests(ThreeAgentMachines machines)
{
    private static LevelShare Share(int durationMs, long? levelId = null) => new(Guid.Empty, "", "AspNetHttpJson", "dotnet", "Int", 2, durationMs, 0, levelId);

    [RootFact]
    public async Task RunAsync_ThirtyClientsOverThreeAgents_TenEachAllStartedWithinTheSkewBound()
    {
        await machines.EnsureAllOnlineAsync();
        var level = new DistributedLevel(machines.ConnectionString);

        var levelId = NewLevel(machines.ConnectionString, 30);

        var result = await level.RunAsync(ThreeAgentMachines.Names, 30, Share(2000, levelId), machines.HostFor, CancellationToken.None);

        Assert.Equal(ThreeAgentMachines.Names, result.Agents.Select(a => a.Agent));
        Assert.All(result.Agents, a =>
        {
            Assert.Equal(10, a.Clients);
            Assert.True(a.Completed > 0, $"{a.Agent} completed nothing: {a.Error}");
            Assert.Equal(0, a.Failed);
            Assert.Null(a.Error);
            Assert.NotNull(a.ActualStartUtc);
            Assert.InRange(Math.Abs((a.ActualStartUtc!.Value - result.StartAtUtc).TotalMilliseconds), 0, 250);
        });
        Assert.Equal(result.Agents.Sum(a => a.Completed), result.Completed);
        Assert.NotNull(result.SkewBoundMs);
        Assert.InRange(result.SkewBoundMs!.Value, 0, 250);
        Assert.True(result.ThroughputRps > 0);
        var first = result.Agents.Min(a => a.LoadStartUtc!.Value);
        var last = result.Agents.Max(a => a.LoadEndUtc!.Value);
        Assert.Equal(result.Completed / (last - first).TotalSeconds, result.ThroughputRps!.Value, 6);
        // Every agent's raw samples are in the central store once, tagged with the agent, its count as it reported it.
        var stored = StoredSamples(machines.ConnectionString, levelId);
        Assert.Equal(stored.Count, stored.Select(s => s.Id).Distinct().Count());
        Assert.Equal(result.Agents.ToDictionary(a => a.Agent, a => a.Completed!.Value + a.Failed!.Value),
            stored.Where(s => !s.IsWarmup).GroupBy(s => s.Agent ?? "(untagged)").ToDictionary(g => g.Key, g => g.Count()));
        // Warm-up requests are stored too, flagged: 2 per client.
        Assert.All(stored.GroupBy(s => s.Agent), g => Assert.Equal(20, g.Count(s => s.IsWarmup)));
        Assert.All(stored.GroupBy(s => s.Agent), g => Assert.Equal(10, g.Select(s => s.ClientIndex).Distinct().Count()));
        using var db = ResultsStore.PostgreSql(machines.ConnectionString).Open();
        var row = db.Levels.Single(l => l.Id == levelId);
        Assert.Equal(stored.Min(s => s.Id), row.FirstSampleId);
        Assert.Equal(stored.Max(s => s.Id), row.LastSampleId);
    }

    [RootFact]
    public async Task RunAsync_AgentKilledMidLevel_FailsNamingItAndKeepsTheOthers()
    {
        await machines.EnsureAllOnlineAsync();
        var level = new DistributedLevel(machines.ConnectionString);
        var levelId = NewLevel(machines.ConnectionString, 6);
        var running = level.RunAsync(ThreeAgentMachines.Names, 6, Share(8000, levelId), machines.HostFor, CancellationToken.None);
        var barrierRows = new AgentRegistry(machines.ConnectionString);
        // Kill agent-2 once the level has started (its actual start is recorded).
        Assert.True(await Eventually.HoldsAsync(() => StartedCount(machines.ConnectionString) >= 3, TimeSpan.FromSeconds(60)), "the level did not start");
        await Task.Delay(3000); // the agents' clients connect and measure a while
        machines.Agents["agent-2"].Kill();

        var failure = await Assert.ThrowsAsync<AgentLevelFailedException>(() => running);

        Assert.Equal("agent-2", failure.Agent);
        Assert.Contains("agent agent-2", failure.Message, StringComparison.Ordinal);
        _ = barrierRows;
        // The level is abandoned: the others stop their load, store their samples and report before the failure is thrown.
        Assert.NotNull(failure.Partial);
        var barrier = failure.Partial!.Barrier;
        var ended = EndedAgents(machines.ConnectionString, barrier);
        Assert.Equal(["agent-1", "agent-3"], ended.Keys.Order());
        Assert.All(failure.Partial.Agents.Where(a => a.Agent != "agent-2"), a => Assert.Contains("abandoned", a.Error, StringComparison.Ordinal));
        Assert.True(failure.Partial.Completed > 0);
        var stored = StoredSamples(machines.ConnectionString, levelId);
        Assert.Equal(stored.Count, stored.Select(s => s.Id).Distinct().Count());
        Assert.Equal(new Dictionary<string, int> { ["agent-1"] = ended["agent-1"], ["agent-3"] = ended["agent-3"] },
            stored.Where(s => !s.IsWarmup).GroupBy(s => s.Agent ?? "(untagged)").ToDictionary(g => g.Key, g => g.Count()));
        Assert.All(ended.Values, count => Assert.True(count > 0));
        machines.StartAgent(1);
        await machines.WaitOnlineAsync(["agent-2"]);
        // An agent restarted joins the next run.
        var next = await level.RunAsync(ThreeAgentMachines.Names, 3, Share(1000), machines.HostFor, CancellationToken.None);
        Assert.All(next.Agents, a => Assert.True(a.Completed > 0, $"{a.Agent}: {a.Error}"));
    }

    [RootFact]
    public async Task RunAsync_AgentNotAnsweringTheBarrier_FailsBeforeTheStart()
    {
        await machines.EnsureAllOnlineAsync();
        // agent-3's worker is busy with a long share on its own queue, so it cannot answer the next barrier in time.
        var busy = new DistributedLevel(machines.ConnectionString);
        var blocking = busy.RunAsync(["agent-3"], 1, Share(25000), machines.HostFor, CancellationToken.None);
        Assert.True(await Eventually.HoldsAsync(() => StartedCount(machines.ConnectionString) >= 1, TimeSpan.FromSeconds(60)), "the blocking share did not start");
        // Long enough for the two free agents to open their clients and say they are ready on a busy machine.
        var level = new DistributedLevel(machines.ConnectionString) { BarrierTimeout = TimeSpan.FromSeconds(10) };

        var failure = await Assert.ThrowsAsync<BarrierTimeoutException>(() => level.RunAsync(ThreeAgentMachines.Names, 3, Share(1000), machines.HostFor, CancellationToken.None));

        Assert.Equal(["agent-3"], failure.Missing);
        Assert.Contains("agent agent-3 did not answer the start barrier within 10 s", failure.Message, StringComparison.Ordinal);
        await blocking;
    }

    /// <summary>
    /// P5 bench (bench/README.md, "Agents"): the same 30-client level from one agent and from three, alternated, on the
    /// same host; host pinned to core 0 and the agents to core 1 when the machine has 2 cores (so one agent and three
    /// share the same generator core: the figures compare the distribution, not more generator capacity). Prints
    /// throughput, generator CPU per agent, host CPU, the bound verdict and the start skew. Runs only with
    /// DASHBOARD_AGENTS_BENCH=1.
    /// </summary>
    [BenchFact]
    public async Task Bench_OneAgentVsThree_PrintsThroughputBoundAndSkew()
    {
        var pin = Environment.ProcessorCount >= 2;
        if (pin)
        {
            foreach (var (name, i) in ThreeAgentMachines.Names.Select((n, i) => (n, i)))
            {
                machines.Agents[name].Dispose();
                machines.StartAgent(i, cpus: "1");
            }

            await machines.WaitOnlineAsync(ThreeAgentMachines.Names);
            TestNamespace.Run("taskset", "-a", "-p", "-c", "0", machines.Host.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        var level = new DistributedLevel(machines.ConnectionString);
        var rounds = int.TryParse(Environment.GetEnvironmentVariable("DASHBOARD_AGENTS_BENCH_ROUNDS"), out var r) ? r : 3;
        var seconds = int.TryParse(Environment.GetEnvironmentVariable("DASHBOARD_AGENTS_BENCH_SECONDS"), out var d) ? d : 5;
        var lines = new List<string> { $"pinned: {pin} (host core 0, agents core 1); {rounds} rounds × {seconds} s per level; 30 clients; AspNetHttpJson × dotnet × Int" };
        var ratios = new List<double>();
        for (var round = 1; round <= rounds; round++)
        {
            double? one = null;
            foreach (var agents in new[] { ThreeAgentMachines.Names[..1], ThreeAgentMachines.Names })
            {
                var hostBefore = ProcessCpuSeconds(machines.Host.ProcessId);
                var wall = System.Diagnostics.Stopwatch.StartNew();
                var result = await level.RunAsync(agents, 30, Share(seconds * 1000), machines.HostFor, CancellationToken.None);
                var hostCpu = 100 * (ProcessCpuSeconds(machines.Host.ProcessId) - hostBefore) / wall.Elapsed.TotalSeconds / (pin ? 1 : Environment.ProcessorCount);
                var generator = result.Agents.Max(a => a.GeneratorCpuPercent ?? 0);
                var bound = Dashboard.Data.Statistics.LevelBounds.Classify(generator, null, hostCpu);
                lines.Add($"round {round}, {agents.Length} agent(s): {result.ThroughputRps:0} req/s, generator CPU per agent {string.Join(" / ", result.Agents.Select(a => $"{a.GeneratorCpuPercent:0}%"))}, host CPU ≈{hostCpu:0}%, bound {bound}, skew bound {result.SkewBoundMs:0.00} ms, errors {result.Failed}");
                Assert.Equal(0, result.Failed);
                if (agents.Length == 1)
                {
                    one = result.ThroughputRps;
                }
                else
                {
                    ratios.Add(result.ThroughputRps!.Value / one!.Value);
                }
            }
        }

        lines.Add($"three ÷ one throughput per round: {string.Join(", ", ratios.Select(x => x.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture)))}");
        File.WriteAllLines(Path.Combine(Path.GetTempPath(), "agents-bench.txt"), lines);
        Assert.Fail(string.Join(Environment.NewLine, lines)); // the figures are the output; a bench never counts as a passed test
    }

    private static double ProcessCpuSeconds(int pid)
    {
        var stat = File.ReadAllText($"/proc/{pid}/stat");
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return (long.Parse(fields[11], System.Globalization.CultureInfo.InvariantCulture) + long.Parse(fields[12], System.Globalization.CultureInfo.InvariantCulture)) / 100.0;
    }

    // A run and an empty level in the central store, as the runner makes them before the level's load.
    private static long NewLevel(string connectionString, int clients)
    {
        using var db = ResultsStore.PostgreSql(connectionString).Open();
        var run = new RunEntity { ScenarioName = "agents", ScenarioJson = """{"name":"agents"}""", Status = RunStatus.Running, CreatedUtc = DateTime.UtcNow };
        var level = new LevelEntity { Run = run, Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", Clients = clients, StartedUtc = DateTime.UtcNow, EndedUtc = DateTime.UtcNow };
        db.Levels.Add(level);
        db.SaveChanges();
        return level.Id;
    }

    private static List<SampleEntity> StoredSamples(string connectionString, long levelId)
    {
        using var db = ResultsStore.PostgreSql(connectionString).Open();
        return [.. db.Samples.Where(s => s.LevelId == levelId)];
    }

    // Completed + failed requests each agent reported at the end of its share, by agent (those that reported counts).
    private static Dictionary<string, int> EndedAgents(string connectionString, Guid barrier)
    {
        using var connection = new Npgsql.NpgsqlConnection(connectionString);
        connection.Open();
        return LevelBarrier.ReadAsync(connection, barrier, CancellationToken.None).GetAwaiter().GetResult()
            .Where(r => r.EndedUtc is not null && r.Completed is not null)
            .ToDictionary(r => r.Agent, r => r.Completed!.Value + r.Failed!.Value);
    }

    // Barrier rows whose agent has started and not yet ended.
    private static int StartedCount(string connectionString)
    {
        using var connection = new Npgsql.NpgsqlConnection(connectionString);
        connection.Open();
        using var command = new Npgsql.NpgsqlCommand("SELECT count(*) FROM dashboard_level_barriers WHERE actual_start IS NOT NULL AND ended_at IS NULL", connection);
        return (int)(long)command.ExecuteScalar()!;
    }
}

/// <summary>A root-only bench, run only when DASHBOARD_AGENTS_BENCH=1 (never in CI).</summary>
public sealed class BenchFactAttribute : FactAttribute
{
    /// <summary>Skips unless root and DASHBOARD_AGENTS_BENCH=1.</summary>
    public BenchFactAttribute()
    {
        if (!RootFactAttribute.IsRoot)
        {
            Skip = "needs root (network namespaces)";
        }
        else if (Environment.GetEnvironmentVariable("DASHBOARD_AGENTS_BENCH") != "1")
        {
            Skip = "a benchmark: set DASHBOARD_AGENTS_BENCH=1 to run it (bench/README.md, \"Agents\")";
        }
    }
}
