using Dashboard.Data;
using Dashboard.Data.Agents;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Runner.Tests.Support;
using Dashboard.Tests.RealProcesses;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Tests.Agents;

/// <summary>
/// The runner's <c>run</c> command with the scenario field <c>agents</c> (docs/agents.md, "A level over several agents"):
/// the real runner process, three real agents each in its own network namespace, a real PostgreSQL server and the real
/// service host at one address every "machine" reaches.
/// </summary>
[Collection(ThreeAgentMachinesGroup.Name)]
public sealed class AgentRunTests(ThreeAgentMachines machines) : IDisposable
{
    private readonly string _tmp = Directory.CreateTempSubdirectory("agent-run-").FullName;

    [RootFact]
    public async Task Run_ThirtyClientsOverThreeAgents_EachLevelStoredOnceTaggedWithTheSplitAndSkew()
    {
        await machines.EnsureAllOnlineAsync();
        var scenario = Scenario(levels: "[3, 30]", duration: "00:00:02", agents: "3");
        var csv = Path.Combine(_tmp, "levels.csv");

        using var runner = Start(scenario, "--levels-csv", csv);
        var exit = await runner.WaitForExitAsync();

        Assert.True(exit == ExitCodes.Success, runner.Stderr);
        var rows = await File.ReadAllLinesAsync(csv);
        Assert.EndsWith(",agents,start_skew_bound_ms", rows[0], StringComparison.Ordinal);
        Assert.Contains(rows, r => r.Contains("\"agent-1 10, agent-2 10, agent-3 10\"", StringComparison.Ordinal));
        Assert.Contains("note: every level runs on load agents agent-1, agent-2, agent-3", runner.Stderr, StringComparison.Ordinal);
        await using var db = ResultsStore.PostgreSql(machines.ConnectionString).Open();
        var run = await db.Runs.Include(r => r.Levels).OrderBy(r => r.Id).LastAsync();
        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(2, run.Levels.Count);
        foreach (var level in run.Levels)
        {
            Assert.True(level.Complete, level.PartialReason);
            var shares = LevelAgentShare.FromJson(level.AgentsJson);
            Assert.Equal(ThreeAgentMachines.Names, shares.Select(s => s.Agent));
            Assert.Equal(level.Clients, shares.Sum(s => s.Clients));
            Assert.Equal(level.Clients == 30 ? [10, 10, 10] : new[] { 1, 1, 1 }, shares.Select(s => s.Clients));
            Assert.NotNull(level.StartSkewBoundMs);
            Assert.InRange(level.StartSkewBoundMs!.Value, 0, 250);
            var stored = await db.Samples.Where(s => s.LevelId == level.Id).ToListAsync();
            // Every sample once, tagged with its agent; each agent's measured count as it reported it; the level's figures from all of them.
            Assert.Equal(stored.Count, stored.Select(s => s.Id).Distinct().Count());
            Assert.Equal(shares.ToDictionary(s => s.Agent, s => s.Completed!.Value + s.Failed!.Value),
                stored.Where(s => !s.IsWarmup).GroupBy(s => s.Agent ?? "(untagged)").ToDictionary(g => g.Key, g => g.Count()));
            Assert.All(stored.GroupBy(s => s.Agent), g => Assert.Equal(shares.Single(s => s.Agent == g.Key).Clients, g.Select(s => s.ClientIndex).Distinct().Count()));
            Assert.Equal(stored.Count(s => !s.IsWarmup), level.Requests);
            Assert.Equal(stored.Count(s => s.IsWarmup), level.WarmupRequests);
            Assert.Equal(0, level.Errors);
            Assert.Equal(stored.Min(s => s.Id), level.FirstSampleId);
            Assert.Equal(stored.Max(s => s.Id), level.LastSampleId);
            // Throughput over all agents: completed ÷ (last end − first start), database clock.
            Assert.Equal(level.Requests / (level.EndedUtc - level.StartedUtc).TotalSeconds, level.ThroughputRps, 0.01 * level.ThroughputRps);
            var p50 = Percentile(stored.Where(s => !s.IsWarmup).Select(s => s.LatencyUs / 1000.0).ToList(), 0.5);
            Assert.InRange(level.P50Ms, p50 * 0.9, p50 * 1.1 + 0.01);
            Assert.NotNull(level.GeneratorCpuPercent);
            // Each agent measured how busy its cores were; the level keeps the busiest, and the bound counts it.
            Assert.All(shares, s => Assert.InRange(s.CoresBusyPercent!.Value, 0, 100));
            Assert.Equal(shares.Max(s => s.CoresBusyPercent), level.GeneratorCoresBusyPercent);
            Assert.NotNull(level.Bound);
        }
    }

    [RootFact]
    public async Task Run_AgentKilledMidLevel_RunFailsNamingItAndKeepsTheOthersSamplesAsAPartialLevel()
    {
        await machines.EnsureAllOnlineAsync();
        var scenario = Scenario(levels: "[6]", duration: "00:00:10", agents: """["agent-1", "agent-2", "agent-3"]""");
        using var runner = Start(scenario);
        Assert.True(await Eventually.HoldsAsync(() => StartedShares() >= 3, TimeSpan.FromSeconds(90)), "the level did not start: " + runner.Stderr);
        await Task.Delay(3000); // the agents' clients connect and measure a while

        machines.Agents["agent-2"].Kill();
        var exit = await runner.WaitForExitAsync();

        Assert.True(exit == ExitCodes.RunFailed, runner.Stderr);
        Assert.Contains("agent agent-2", runner.Stderr, StringComparison.Ordinal);
        await using var db = ResultsStore.PostgreSql(machines.ConnectionString).Open();
        var run = await db.Runs.Include(r => r.Levels).OrderBy(r => r.Id).LastAsync();
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("agent agent-2", run.Error, StringComparison.Ordinal);
        var level = Assert.Single(run.Levels);
        Assert.False(level.Complete);
        Assert.Contains("agent agent-2", level.PartialReason, StringComparison.Ordinal);
        var byAgent = await db.Samples.Where(s => s.LevelId == level.Id && !s.IsWarmup).GroupBy(s => s.Agent).Select(g => new { g.Key, Count = g.Count() }).ToListAsync();
        Assert.Equal(["agent-1", "agent-3"], byAgent.Select(g => g.Key!).Order());
        Assert.All(byAgent, g => Assert.True(g.Count > 0));
        Assert.Equal(byAgent.Sum(g => g.Count), level.Requests);
        await machines.EnsureAllOnlineAsync();
    }

    [RootFact]
    public async Task Run_CancelledDuringAnAgentLevel_StopsTheAgentsAndKeepsTheirSamplesAsPartial()
    {
        await machines.EnsureAllOnlineAsync();
        var scenario = Scenario(levels: "[3, 6]", duration: "00:00:30", agents: "3");
        using var runner = Start(scenario);
        Assert.True(await Eventually.HoldsAsync(() => StartedShares() >= 3, TimeSpan.FromSeconds(90)), "the level did not start: " + runner.Stderr);
        await Task.Delay(1500);

        var signalled = DateTime.UtcNow;
        ServiceHostProcess.Signal(runner.ProcessId, 2);
        var exit = await runner.WaitForExitAsync(TimeSpan.FromSeconds(60));

        Assert.True(exit == ExitCodes.Cancelled, runner.Stderr);
        // The agents stopped their 30 s share within seconds of the cancel, not at its end.
        Assert.InRange((DateTime.UtcNow - signalled).TotalSeconds, 0, 20);
        await using var db = ResultsStore.PostgreSql(machines.ConnectionString).Open();
        var run = await db.Runs.Include(r => r.Levels).OrderBy(r => r.Id).LastAsync();
        Assert.Equal(RunStatus.Cancelled, run.Status);
        var level = Assert.Single(run.Levels);
        Assert.False(level.Complete);
        Assert.Contains("cancelled", level.PartialReason, StringComparison.Ordinal);
        var agents = await db.Samples.Where(s => s.LevelId == level.Id && !s.IsWarmup).Select(s => s.Agent).Distinct().ToListAsync();
        Assert.Equal(ThreeAgentMachines.Names, agents.Order());
        Assert.True(level.Requests > 0);
    }

    [RootFact]
    public async Task Run_AgentsWithRequestsPerClient_RefusedNamingTheField()
    {
        var path = Path.Combine(_tmp, "requests.json");
        await File.WriteAllTextAsync(path, $$"""
            { "name": "agents", "host": "{{machines.SharedHost}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
              "payloads": ["Int"], "levels": [3], "requestsPerClient": 5, "agents": 3 }
            """);
        using var runner = Start(path);

        var exit = await runner.WaitForExitAsync();

        Assert.Equal(ExitCodes.InvalidScenario, exit);
        Assert.Contains("requestsPerClient: levels over load agents are timed", runner.Stderr, StringComparison.Ordinal);
    }

    private string Scenario(string levels, string duration, string agents)
    {
        var path = Path.Combine(_tmp, $"scenario-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, $$"""
            { "name": "agents", "host": "{{machines.SharedHost}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
              "payloads": ["Int"], "levels": {{levels}}, "duration": "{{duration}}", "warmup": 2, "agents": {{agents}} }
            """);
        return path;
    }

    private RunnerProcess Start(string scenario, params string[] more) => RunnerProcess.Start(scenario, Path.Combine(_tmp, "unused.db"), _tmp,
        extraArguments: ["--storage", "postgresql", "--results-connection", machines.ConnectionString, .. more]);

    // Barrier rows whose agent has started and not yet ended.
    private int StartedShares()
    {
        using var connection = new Npgsql.NpgsqlConnection(machines.ConnectionString);
        connection.Open();
        using var command = new Npgsql.NpgsqlCommand("SELECT count(*) FROM dashboard_level_barriers WHERE actual_start IS NOT NULL AND ended_at IS NULL", connection);
        return (int)(long)command.ExecuteScalar()!;
    }

    private static double Percentile(List<double> values, double q)
    {
        values.Sort();
        return values[(int)Math.Clamp(Math.Ceiling(q * values.Count) - 1, 0, values.Count - 1)];
    }

    /// <inheritdoc />
    public void Dispose() => Directory.Delete(_tmp, recursive: true);
}
