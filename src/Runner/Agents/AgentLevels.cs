using Dashboard.Data;
using Dashboard.Data.Agents;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Data.Statistics;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Agents;

/// <summary>
/// The runner's side of a scenario whose levels run on load agents (scenario field <c>agents</c>; docs/agents.md, "A level
/// over several agents"): for each level it makes the level's row in the central store, runs the level over the agents
/// (<see cref="DistributedLevel"/>: split, start barrier, shares), then computes the level's aggregates from the raw samples
/// every agent stored there, with the throughput over all agents (completed ÷ (last end − first start), database clock),
/// the split, each agent's figures and the start skew bound.
/// </summary>
/// <param name="agents">The agents, by name, in the order the clients are split over them.</param>
/// <param name="host">The service host's control address as the agents reach it (the scenario's <c>host</c>).</param>
/// <param name="level">The coordinator (its barrier and settle timeouts).</param>
/// <param name="credentialProfile">The scenario's credential profile, by name (the agents read it from their own security folder).</param>
public sealed class AgentLevels(IReadOnlyList<string> agents, string host, DistributedLevel level, string? credentialProfile = null)
{
    /// <summary>The agents, by name.</summary>
    public IReadOnlyList<string> Agents { get; } = agents ?? throw new ArgumentNullException(nameof(agents));

    /// <summary>The agents as they registered (name, machine, cores, runtimes, clock offset), recorded in the run's environment.</summary>
    public IReadOnlyList<LoadAgentEnvironment> Environment { get; init; } = [];

    /// <summary>True when an agent runs on the runner's machine (its registered machine name is this one's): with a host that is not remote, it shares the server's cores.</summary>
    public bool SharesMachineWithRunner => Environment.Any(a => string.Equals(a.Machine, System.Environment.MachineName, StringComparison.Ordinal));

    /// <summary>
    /// Runs one level of <paramref name="clients"/> clients over the agents and stores it as a level of
    /// <paramref name="run"/>: the row first (partial, "running on load agents", until the level's end, so a runner killed
    /// during it leaves it flagged), the agents' samples into it, then its aggregates.
    /// </summary>
    /// <param name="db">The run's context (its <see cref="RunEntity"/> tracked).</param>
    /// <param name="run">The run, Running.</param>
    /// <param name="variant">Endpoint variant.</param>
    /// <param name="client">Client technology.</param>
    /// <param name="payload">Payload id.</param>
    /// <param name="repetition">Repetition of the cell.</param>
    /// <param name="clients">The level's clients (split over the agents).</param>
    /// <param name="warmupPerClient">Warm-up requests per client, flagged and excluded.</param>
    /// <param name="duration">The measured window.</param>
    /// <param name="cancellationToken">Cancels the level: before its start nothing is stored; during it the level is stored as partial.</param>
    /// <returns>The stored level, and the failure when an agent failed (the level is then partial, the others' samples in it).</returns>
    /// <exception cref="OperationCanceledException">Cancelled before the level started; its row is removed.</exception>
    public async Task<AgentLevelOutcome> RunAsync(ResultsDbContext db, RunEntity run, string variant, string client, string payload, int repetition, int clients,
        int warmupPerClient, TimeSpan duration, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(run);
        var row = new LevelEntity
        {
            RunId = run.Id,
            Variant = variant,
            Client = client,
            Payload = payload,
            Repetition = repetition,
            Clients = clients,
            StartedUtc = DateTime.UtcNow,
            EndedUtc = DateTime.UtcNow,
            Complete = false,
            PartialReason = $"running on load agents {string.Join(", ", Agents)}; the runner ended before the level did",
            AgentsJson = LevelAgentShare.ToJson([.. ClientSplit.Split(clients, Agents).Select(s => new LevelAgentShare(s.Agent, s.Clients, null, null, null, null, null, null, null))]),
        };
        db.Levels.Add(row);
        await db.SaveChangesAsync(CancellationToken.None);

        var share = new LevelShare(Guid.Empty, host, variant, client, payload, warmupPerClient, (int)duration.TotalMilliseconds, 0, row.Id, credentialProfile);
        DistributedLevelResult result;
        AgentLevelFailedException? failure = null;
        try
        {
            result = await level.RunAsync(Agents, clients, share, _ => host, cancellationToken);
        }
        catch (AgentLevelFailedException e) when (e.Partial is not null)
        {
            failure = e;
            result = e.Partial;
        }
        catch (Exception e) when (e is AgentLevelFailedException or BarrierTimeoutException or OperationCanceledException)
        {
            // Nothing started: the level has no samples and no row.
            db.Levels.Remove(row);
            await db.SaveChangesAsync(CancellationToken.None);
            if (e is OperationCanceledException)
            {
                throw;
            }

            return new AgentLevelOutcome(null, new AgentLevelFailedException(e is AgentLevelFailedException f ? f.Agent : string.Join(", ", ((BarrierTimeoutException)e).Missing), e.Message, null));
        }

        await FillAsync(db, row, result, CancellationToken.None);
        row.Complete = failure is null && !result.Cancelled;
        row.PartialReason = failure is not null ? $"agent {failure.Agent} failed during the level: {failure.Message}; the other agents' samples are kept"
            : result.Cancelled ? $"cancelled during the level on load agents {string.Join(", ", Agents)}; what they measured until they stopped is kept"
            : null;
        await db.SaveChangesAsync(CancellationToken.None);
        return new AgentLevelOutcome(row, failure) { Cancelled = result.Cancelled };
    }

    // The level's aggregates from the samples every agent stored in it. Each agent's offsets count from its own actual
    // start: they are moved onto the earliest agent's start (from the barrier's rows, database clock) so the level's time
    // series is one timeline; the statistics do not depend on it.
    private static async Task FillAsync(ResultsDbContext db, LevelEntity row, DistributedLevelResult result, CancellationToken cancellationToken)
    {
        var shares = LevelAgentShare.FromBarrier(result.Agents);
        var shiftUs = shares.ToDictionary(s => s.Agent, s => (long)Math.Round((s.StartOffsetMs ?? 0) * 1000), StringComparer.Ordinal);
        var range = await db.Levels.AsNoTracking().Where(l => l.Id == row.Id).Select(l => new { l.FirstSampleId, l.LastSampleId }).SingleAsync(cancellationToken);
        Sample[] samples = [];
        if (range.FirstSampleId is { } first && range.LastSampleId is { } last)
        {
            var stored = await db.Samples.AsNoTracking()
                .Where(s => s.Id >= first && s.Id <= last && s.LevelId == row.Id)
                .OrderBy(s => s.Id)
                .Select(s => new { s.Agent, s.ClientIndex, s.StartOffsetUs, s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes })
                .ToListAsync(cancellationToken);
            samples = [.. stored.Select(s => new Sample(s.ClientIndex, s.StartOffsetUs + shiftUs.GetValueOrDefault(s.Agent ?? "", 0), s.LatencyUs, s.Outcome, s.IsWarmup, s.RequestBytes, s.ResponseBytes))];
            // The range as the agents left it (the tracked row still has the values it was inserted with).
            row.FirstSampleId = first;
            row.LastSampleId = last;
        }

        var measured = samples.Where(s => !s.IsWarmup).ToArray();
        var stats = LatencyStatistics.FromSamples(measured);
        var ended = result.Agents.Where(a => a.LoadStartUtc is not null && a.LoadEndUtc is not null).ToList();
        if (ended.Count > 0)
        {
            row.StartedUtc = ended.Min(a => a.LoadStartUtc!.Value).ToUniversalTime();
            row.EndedUtc = ended.Max(a => a.LoadEndUtc!.Value).ToUniversalTime();
        }

        LevelFigures.Apply(row, stats);
        // Throughput over all agents on the database's clock (thesis ch. 7.2.2's definition across machines).
        row.ThroughputRps = result.ThroughputRps ?? 0;
        row.AgentsJson = LevelAgentShare.ToJson(shares);
        row.StartSkewBoundMs = result.SkewBoundMs;
        // The generator is every agent: the level is generator-bound when any of them was (docs/statistics.md).
        var cpu = result.Agents.Where(a => a.GeneratorCpuPercent is not null).Select(a => a.GeneratorCpuPercent!.Value).ToList();
        row.GeneratorCpuPercent = cpu.Count == 0 ? null : cpu.Max();
        var busy = result.Agents.Where(a => a.CoresBusyPercent is not null).Select(a => a.CoresBusyPercent!.Value).ToList();
        row.GeneratorCoresBusyPercent = busy.Count == 0 ? null : busy.Max();
        row.TimeSeriesJson = null;
        LevelSummaries.Fill(row, samples);
    }
}

/// <summary>What <see cref="AgentLevels.RunAsync"/> stored.</summary>
/// <param name="Level">The stored level; null when it failed before it started (nothing stored).</param>
/// <param name="Failure">The agent failure that ended the level (before or during it), or null.</param>
public sealed record AgentLevelOutcome(LevelEntity? Level, AgentLevelFailedException? Failure)
{
    /// <summary>True when the run was cancelled during the level (stored as partial).</summary>
    public bool Cancelled { get; init; }
}
