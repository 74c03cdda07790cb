using Dashboard.Data.Agents;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Runner.Tests.Support;
using Hangfire;
using Hangfire.PostgreSql;
using Hangfire.PostgreSql.Factories;
using Hangfire.States;
using Hangfire.Storage;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Agents;

/// <summary>A real PostgreSQL server (tests/Shared/PostgresServer.cs) shared by the agent tests of one class; each test takes its own database.</summary>
public sealed class AgentPostgresFixture : IAsyncLifetime
{
    /// <summary>The server.</summary>
    public PostgresServer Server { get; private set; } = null!;

    /// <inheritdoc />
    public async Task InitializeAsync() => Server = await PostgresServer.StartAsync();

    /// <inheritdoc />
    public async Task DisposeAsync() => await Server.DisposeAsync();
}

/// <summary>The built runner's <c>agent</c> command against a real PostgreSQL server (docs/agents.md).</summary>
public sealed class AgentCommandTests(AgentPostgresFixture database) : IClassFixture<AgentPostgresFixture>, IDisposable
{
    private readonly string _tmp = Directory.CreateTempSubdirectory("agent-test-").FullName;

    [Fact]
    public async Task Agent_UnreachableDatabase_ExitsWithTheReason()
    {
        using var agent = AgentProcess.Start("Host=127.0.0.1;Port=1;Database=dashboard;Username=postgres", "nowhere", _tmp);

        var code = await agent.WaitForExitAsync();

        Assert.Equal(ExitCodes.DatabaseUnavailable, code);
        Assert.Contains("error: cannot reach the database 127.0.0.1:1/dashboard", agent.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_AgentsField_CheckedAgainstTheOnlineAgentsAndNamed()
    {
        var connection = await database.Server.CreateDatabaseAsync("agents");
        using var agent = AgentProcess.Start(connection, "bench-1", _tmp);
        var registry = new AgentRegistry(connection);
        Assert.True(await Eventually.HoldsAsync(() => Find(registry, "bench-1") is { State: AgentState.Online }, TimeSpan.FromSeconds(60)), agent.Stderr);

        var ghost = await RunScenarioAsync(connection, """["bench-1", "ghost"]""");
        var tooMany = await RunScenarioAsync(connection, "2");

        Assert.Equal((2, true), (ghost.Exit, ghost.Stderr.Contains("agents: agent(s) 'ghost' not online; online: bench-1", StringComparison.Ordinal)));
        Assert.Equal((2, true), (tooMany.Exit, tooMany.Stderr.Contains("agents: 2 agents asked for, 1 online (bench-1)", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Run_OneAgent_LevelsRunOnTheAgentAndAreStoredTaggedWithItsShare()
    {
        var connection = await database.Server.CreateDatabaseAsync("agents");
        await using var host = await ServiceHostProcess.StartAsync();
        using var agent = AgentProcess.Start(connection, "bench-1", _tmp);
        var registry = new AgentRegistry(connection);
        Assert.True(await Eventually.HoldsAsync(() => Find(registry, "bench-1") is { State: AgentState.Online }, TimeSpan.FromSeconds(60)), agent.Stderr);

        var (exit, stderr) = await RunScenarioAsync(connection, "1", host.ControlAddress.ToString(), levels: "[2, 4]");

        Assert.True(exit == ExitCodes.Success, stderr);
        using var db = Dashboard.Data.ResultsStore.PostgreSql(connection).Open();
        var levels = db.Levels.OrderBy(l => l.Clients).ToList();
        Assert.Equal([2, 4], levels.Select(l => l.Clients));
        Assert.All(levels, level =>
        {
            Assert.True(level.Complete, level.PartialReason);
            Assert.Equal([("bench-1", level.Clients)], LevelAgentShare.FromJson(level.AgentsJson).Select(s => (s.Agent, s.Clients)));
            var samples = db.Samples.Where(s => s.LevelId == level.Id).ToList();
            Assert.All(samples, s => Assert.Equal("bench-1", s.Agent));
            Assert.Equal(samples.Count(s => !s.IsWarmup), level.Requests);
            Assert.True(level.ThroughputRps > 0);
        });
    }

    private async Task<(int Exit, string Stderr)> RunScenarioAsync(string connection, string agents, string host = "http://127.0.0.1:9", string levels = "[3]")
    {
        var scenario = Path.Combine(_tmp, "scenario.json");
        await File.WriteAllTextAsync(scenario, $$"""
            { "name": "agents", "host": "{{host}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
              "payloads": ["Int"], "levels": {{levels}}, "duration": "00:00:01", "warmup": 2, "agents": {{agents}} }
            """);
        var start = new System.Diagnostics.ProcessStartInfo("dotnet") { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var argument in new[] { Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner.dll"), "run", "--scenario", scenario, "--storage", "postgresql", "--results-connection", connection })
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["TMPDIR"] = _tmp;
        start.Environment[Dashboard.Service.Contracts.Security.HostControlToken.EnvironmentVariable] = Dashboard.Tests.RealProcesses.ServiceHostProcess.TestControlToken;
        using var process = System.Diagnostics.Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        _ = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, await stderr);
    }

    [Fact]
    public async Task Agent_Started_RegistersHeartbeatsServesItsQueueAndSignsOff()
    {
        var connection = await database.Server.CreateDatabaseAsync("agents");
        var registry = new AgentRegistry(connection);
        using var agent = AgentProcess.Start(connection, "Load.Agent-1", _tmp);

        Assert.True(await Eventually.HoldsAsync(() => Find(registry, "Load.Agent-1") is { State: AgentState.Online }, TimeSpan.FromSeconds(60)), agent.Stderr);
        var first = Find(registry, "Load.Agent-1")!;
        Assert.Equal("agent_load_agent-1", first.Queue);
        Assert.Equal(Environment.ProcessorCount, first.Cores);
        Assert.Contains("dotnet", first.Technologies);
        Assert.Contains("wcf", first.Technologies);
        Assert.StartsWith(".NET 10", first.Runtimes["dotnet"], StringComparison.Ordinal);
        // Same machine, same clock: the offset is within its own bound plus a little scheduling noise.
        Assert.InRange(Math.Abs(first.ClockOffsetMs), 0, first.ClockUncertaintyMs + 20);
        Assert.True(await Eventually.HoldsAsync(() => Find(registry, "Load.Agent-1")!.LastHeartbeatUtc > first.LastHeartbeatUtc, TimeSpan.FromSeconds(20)), "no heartbeat after registration");

        // A job on the agent's own queue is taken by the agent.
        var options = new PostgreSqlStorageOptions { PrepareSchemaIfNecessary = true };
        var storage = new PostgreSqlStorage(new NpgsqlConnectionFactory(connection, options), options);
        var jobs = new BackgroundJobClient(storage);
        var id = jobs.Create<Dashboard.Runner.Agents.AgentJobs>(j => j.Ping("hello"), new EnqueuedState(first.Queue));
        Assert.True(await Eventually.HoldsAsync(() => State(storage, id) == SucceededState.StateName, TimeSpan.FromSeconds(30)), $"job {id} is {State(storage, id)}; {agent.Stderr}");

        agent.CloseInput();
        Assert.Equal(ExitCodes.Success, await agent.WaitForExitAsync());
        var after = Find(registry, "Load.Agent-1")!;
        Assert.Equal(AgentState.Offline, after.State);
        Assert.Contains("standard input", after.StopReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Agent_NameOfAnOnlineAgent_IsRefusedNamingTheField()
    {
        var connectionString = await database.Server.CreateDatabaseAsync("agents");
        var registry = new AgentRegistry(connectionString);
        using var first = AgentProcess.Start(connectionString, "twin", _tmp);
        Assert.True(await Eventually.HoldsAsync(() => Find(registry, "twin") is { State: AgentState.Online }, TimeSpan.FromSeconds(60)), first.Stderr);
        // Another machine's agent (as far as the registry knows): its process would not be this one's restart.
        await using (var connection = await registry.OpenAsync(CancellationToken.None))
        await using (var update = new Npgsql.NpgsqlCommand("UPDATE dashboard_agents SET machine = 'elsewhere' WHERE name = 'twin'", connection))
        {
            await update.ExecuteNonQueryAsync();
        }

        using var second = AgentProcess.Start(connectionString, "twin", _tmp);

        Assert.Equal(ExitCodes.AgentRefused, await second.WaitForExitAsync());
        Assert.Contains("--name: an agent named 'twin' is online", second.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Agent_DatabaseGoesAway_StopsWithinSecondsAndSaysWhy()
    {
        var own = await PostgresServer.StartAsync();
        var connection = await own.CreateDatabaseAsync("agents");
        var registry = new AgentRegistry(connection);
        using var agent = AgentProcess.Start(connection, "orphan", _tmp, extra: ["--heartbeat", "1"]);
        Assert.True(await Eventually.HoldsAsync(() => Find(registry, "orphan") is { State: AgentState.Online }, TimeSpan.FromSeconds(60)), agent.Stderr);

        await own.DisposeAsync();
        var stopped = System.Diagnostics.Stopwatch.StartNew();
        var code = await agent.WaitForExitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(ExitCodes.DatabaseUnavailable, code);
        Assert.Contains("lost the database", agent.Stderr, StringComparison.Ordinal);
        Assert.True(stopped.Elapsed < TimeSpan.FromSeconds(20), $"the agent took {stopped.Elapsed.TotalSeconds:0.0} s to stop: {agent.Stderr}");
    }

    private static AgentInfo? Find(AgentRegistry registry, string name)
    {
        try
        {
            return registry.ListAsync(CancellationToken.None).GetAwaiter().GetResult().SingleOrDefault(a => a.Name == name);
        }
        catch (Npgsql.NpgsqlException)
        {
            return null;
        }
    }

    private static string? State(JobStorage storage, string id)
    {
        using var connection = storage.GetConnection();
        return connection.GetStateData(id)?.Name;
    }

    /// <inheritdoc />
    public void Dispose() => Directory.Delete(_tmp, recursive: true);
}
