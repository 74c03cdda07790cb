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
    /// <param name="cancellationToken">
    /// Abandons the level: before its start, nothing runs and <see cref="OperationCanceledException"/> is thrown; during it,
    /// the agents stop their load, store what they measured and report, and the result comes back with
    /// <see cref="DistributedLevelResult.Cancelled"/> set.
    /// </param>
    /// <exception cref="BarrierTimeoutException">Agents did not answer the barrier in time: nothing started.</exception>
    /// <exception cref="AgentLevelFailedException">
    /// An agent failed before the start (its reason; no result attached), or a share failed or an agent went offline during
    /// the level: the level is abandoned (the other agents stop, store their samples and report) and their results are attached.
    /// </exception>
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

        DateTime startAt;
        try
        {
            startAt = await LevelBarrier.ReleaseWhenReadyAsync(connection, barrier, BarrierTimeout, StartLead, cancellationToken);
        }
        catch (BarrierFailedException e)
        {
            throw new AgentLevelFailedException(e.Agent, e.Message, null);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await LevelBarrier.AbandonAsync(connection, barrier, "the run was cancelled before the level started", CancellationToken.None);
            throw;
        }

        var deadline = DateTime.UtcNow + StartLead + TimeSpan.FromMilliseconds(share.DurationMs) + TimeSpan.FromSeconds(60);
        try
        {
            while (true)
            {
                var rows = await LevelBarrier.ReadAsync(connection, barrier, cancellationToken);
                if (rows.FirstOrDefault(r => r.Error is not null) is { } failed)
                {
                    await LevelBarrier.AbandonAsync(connection, barrier, failed.Error!, CancellationToken.None);
                    throw new AgentLevelFailedException(failed.Agent, failed.Error!, await SettleAsync(connection, barrier, startAt));
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
                    throw new AgentLevelFailedException(killed, reason, await SettleAsync(connection, barrier, startAt, killed));
                }

                var states = (await registry.ListAsync(cancellationToken)).ToDictionary(a => a.Name, a => a.State, StringComparer.Ordinal);
                if (rows.FirstOrDefault(r => r.EndedUtc is null && states.GetValueOrDefault(r.Agent, AgentState.Offline) != AgentState.Online) is { } gone)
                {
                    var reason = $"agent {gone.Agent} went {states.GetValueOrDefault(gone.Agent, AgentState.Offline).ToString().ToLowerInvariant()} during the level (no heartbeat for over {AgentRegistry.OnlineWindow.TotalSeconds:0} s)";
                    await LevelBarrier.AbandonAsync(connection, barrier, reason, CancellationToken.None);
                    throw new AgentLevelFailedException(gone.Agent, reason, await SettleAsync(connection, barrier, startAt, gone.Agent));
                }

                if (DateTime.UtcNow > deadline)
                {
                    var late = string.Join(", ", rows.Where(r => r.EndedUtc is null).Select(r => r.Agent));
                    await LevelBarrier.AbandonAsync(connection, barrier, $"agent(s) {late} did not report the end of the level in time", CancellationToken.None);
                    throw new AgentLevelFailedException(late, $"agent(s) {late} did not report the end of the level in time", Summarise(barrier, startAt, rows));
                }

                await Task.Delay(200, cancellationToken);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Cancelled mid-level: the agents stop their load (they watch the barrier), store what they measured and report;
            // the partial result says how far it got.
            await LevelBarrier.AbandonAsync(connection, barrier, "the run was cancelled during the level", CancellationToken.None);
            return await SettleAsync(connection, barrier, startAt) with { Cancelled = true };
        }
    }

    /// <summary>How long the agents still running get, once the level is abandoned, to store their samples and report.</summary>
    public TimeSpan SettleTimeout { get; init; } = TimeSpan.FromSeconds(20);

    // After the barrier was abandoned: waits (bounded) until every agent but <gone> has reported its end, so their samples
    // are stored before the level's aggregates are computed; the result as it then stands.
    private async Task<DistributedLevelResult> SettleAsync(NpgsqlConnection connection, Guid barrier, DateTime startAt, string? gone = null)
    {
        var until = DateTime.UtcNow + SettleTimeout;
        while (true)
        {
            var rows = await LevelBarrier.ReadAsync(connection, barrier, CancellationToken.None);
            if (DateTime.UtcNow >= until || rows.All(r => r.EndedUtc is not null || r.Agent == gone || r.ActualStartUtc is null))
            {
                return Summarise(barrier, startAt, rows);
            }

            await Task.Delay(100, CancellationToken.None);
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
public sealed record DistributedLevelResult(Guid Barrier, DateTime StartAtUtc, IReadOnlyList<BarrierParticipant> Agents, int Completed, int Failed, double? ThroughputRps, double? SkewBoundMs)
{
    /// <summary>True when the run was cancelled during the level: the agents stopped early and this is what they reported.</summary>
    public bool Cancelled { get; init; }
}

/// <summary>A level over several agents failed; <see cref="Agent"/> names the agent, <see cref="Partial"/> keeps what the others reported.</summary>
public sealed class AgentLevelFailedException(string agent, string message, DistributedLevelResult? partial) : Exception(message)
{
    /// <summary>The agent that failed the level.</summary>
    public string Agent { get; } = agent;

    /// <summary>What every agent reported before the failure; null when the level did not start.</summary>
    public DistributedLevelResult? Partial { get; } = partial;
}
