using Dashboard.Data.Agents;
using Hangfire;
using Hangfire.States;
using Npgsql;

namespace Dashboard.Runner.Agents;

/// <summary>
/// The coordinator of one level spread over several agents (docs/agents.md): splits the clients
/// (<see cref="ClientSplit"/>), puts one <see cref="AgentJobs.RunShareAsync"/> job on each agent's queue, releases the
/// start barrier once all are ready (or fails the level before it starts, naming the agents that did not answer), then
/// waits for every share. A share that fails, or an agent that goes offline (no heartbeat for
/// <see cref="AgentRegistry.OnlineWindow"/>) during the level, fails the level with the agent named; the others' results are kept.
/// </summary>
/// <param name="connectionString">The deployment's PostgreSQL database.</param>
public sealed class DistributedLevel(string connectionString)
{
    /// <summary>How long agents have to answer the start barrier (open their client and say they are ready).</summary>
    public TimeSpan BarrierTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Time between the release of the barrier and the agreed start (database clock): every agent must see the start in time.</summary>
    public TimeSpan StartLead { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Runs one level of <paramref name="clients"/> clients over <paramref name="agents"/> (by name, in order).</summary>
    /// <param name="agents">The agents, by name; each must be registered.</param>
    /// <param name="clients">The level's clients, split over the agents.</param>
    /// <param name="share">The share template (its <see cref="LevelShare.Barrier"/> is replaced); <paramref name="hostFor"/> gives each agent's host address.</param>
    /// <param name="hostFor">The service host's control address as agent <c>name</c> reaches it.</param>
    /// <param name="cancellationToken">Abandons the level.</param>
    /// <exception cref="BarrierTimeoutException">Agents did not answer the barrier in time: nothing started.</exception>
    /// <exception cref="AgentLevelFailedException">A share failed or an agent went offline during the level; the result so far is attached.</exception>
    public async Task<DistributedLevelResult> RunAsync(IReadOnlyList<string> agents, int clients, LevelShare share, Func<string, string> hostFor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(agents);
        ArgumentNullException.ThrowIfNull(share);
        ArgumentNullException.ThrowIfNull(hostFor);
        var registry = new AgentRegistry(connectionString);
        await using var connection = await registry.OpenAsync(cancellationToken);
        await LevelBarrier.EnsureSchemaAsync(connection, cancellationToken);
        var known = (await registry.ListAsync(cancellationToken)).ToDictionary(a => a.Name, StringComparer.Ordinal);
        foreach (var agent in agents)
        {
            if (!known.TryGetValue(agent, out var info) || info.State != AgentState.Online)
            {
                throw new AgentLevelFailedException(agent, $"agent {agent} is {(info is null ? "not registered" : info.State.ToString().ToLowerInvariant())}", null);
            }
        }

        var shares = ClientSplit.Split(clients, agents);
        var barrier = await LevelBarrier.CreateAsync(connection, shares, cancellationToken);
        var storage = AgentHost.CreateStorage(connectionString);
        var jobs = new BackgroundJobClient(storage);
        foreach (var (agent, _) in shares)
        {
            var mine = share with { Barrier = barrier, Host = hostFor(agent), BarrierTimeoutMs = (int)(BarrierTimeout + StartLead).TotalMilliseconds + 5000 };
            jobs.Create<AgentJobs>(j => j.RunShareAsync(mine, CancellationToken.None), new EnqueuedState(known[agent].Queue));
        }

        var startAt = await LevelBarrier.ReleaseWhenReadyAsync(connection, barrier, BarrierTimeout, StartLead, cancellationToken);
        var deadline = DateTime.UtcNow + StartLead + TimeSpan.FromMilliseconds(share.DurationMs) + TimeSpan.FromSeconds(60);
        while (true)
        {
            var rows = await LevelBarrier.ReadAsync(connection, barrier, cancellationToken);
            if (rows.FirstOrDefault(r => r.Error is not null) is { } failed)
            {
                throw new AgentLevelFailedException(failed.Agent, failed.Error!, Summarise(barrier, startAt, rows));
            }

            if (rows.All(r => r.EndedUtc is not null))
            {
                return Summarise(barrier, startAt, rows);
            }

            var running = rows.Where(r => r.EndedUtc is null).Select(r => r.Agent).ToList();
            if (await AgentRegistry.WithoutSessionAsync(connection, running, cancellationToken) is [var killed, ..])
            {
                var reason = $"agent {killed} ended during the level (its database sessions closed); the other agents' results are kept";
                await LevelBarrier.AbandonAsync(connection, barrier, reason, CancellationToken.None);
                throw new AgentLevelFailedException(killed, reason, Summarise(barrier, startAt, rows));
            }

            var states = (await registry.ListAsync(cancellationToken)).ToDictionary(a => a.Name, a => a.State, StringComparer.Ordinal);
            if (rows.FirstOrDefault(r => r.EndedUtc is null && states.GetValueOrDefault(r.Agent, AgentState.Offline) != AgentState.Online) is { } gone)
            {
                var reason = $"agent {gone.Agent} went {states.GetValueOrDefault(gone.Agent, AgentState.Offline).ToString().ToLowerInvariant()} during the level (no heartbeat for over {AgentRegistry.OnlineWindow.TotalSeconds:0} s)";
                await LevelBarrier.AbandonAsync(connection, barrier, reason, CancellationToken.None);
                throw new AgentLevelFailedException(gone.Agent, reason, Summarise(barrier, startAt, rows));
            }

            if (DateTime.UtcNow > deadline)
            {
                var late = string.Join(", ", rows.Where(r => r.EndedUtc is null).Select(r => r.Agent));
                throw new AgentLevelFailedException(late, $"agent(s) {late} did not report the end of the level in time", Summarise(barrier, startAt, rows));
            }

            await Task.Delay(200, cancellationToken);
        }
    }

    private static DistributedLevelResult Summarise(Guid barrier, DateTime startAt, IReadOnlyList<BarrierParticipant> rows)
    {
        var ended = rows.Where(r => r.LoadStartUtc is not null && r.LoadEndUtc is not null).ToList();
        var completed = rows.Sum(r => r.Completed ?? 0);
        double? throughput = ended.Count == 0 ? null
            : completed / (ended.Max(r => r.LoadEndUtc!.Value) - ended.Min(r => r.LoadStartUtc!.Value)).TotalSeconds;
        return new DistributedLevelResult(barrier, startAt, rows, completed, rows.Sum(r => r.Failed ?? 0), throughput, LevelBarrier.SkewBoundMs(rows));
    }
}

/// <summary>A level run over several agents.</summary>
/// <param name="Barrier">Its start barrier.</param>
/// <param name="StartAtUtc">The agreed start, database clock.</param>
/// <param name="Agents">Each agent's row: share, offset, actual start, completed requests, generator CPU.</param>
/// <param name="Completed">Successful requests over all agents.</param>
/// <param name="Failed">Failed requests over all agents.</param>
/// <param name="ThroughputRps">Completed requests ÷ (last end − first start) over all agents, req/s (database clock).</param>
/// <param name="SkewBoundMs">The start skew bound, ms (<see cref="LevelBarrier.SkewBoundMs"/>).</param>
public sealed record DistributedLevelResult(Guid Barrier, DateTime StartAtUtc, IReadOnlyList<BarrierParticipant> Agents, int Completed, int Failed, double? ThroughputRps, double? SkewBoundMs);

/// <summary>A level over several agents failed; <see cref="Agent"/> names the agent, <see cref="Partial"/> keeps what the others reported.</summary>
public sealed class AgentLevelFailedException(string agent, string message, DistributedLevelResult? partial) : Exception(message)
{
    /// <summary>The agent that failed the level.</summary>
    public string Agent { get; } = agent;

    /// <summary>What every agent reported before the failure; null when the level did not start.</summary>
    public DistributedLevelResult? Partial { get; } = partial;
}
