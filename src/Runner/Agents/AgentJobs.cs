using Dashboard.Data;
using Dashboard.Data.Agents;
using Dashboard.Data.Runs;
using Dashboard.Data.Samples;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Hosts;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Agents;

/// <summary>
/// One agent's share of a level spread over several agents (docs/agents.md): the host to call, the cell (variant, client
/// technology, payload), the level's warm-up and duration, and the start barrier whose row gives the share's client count.
/// </summary>
/// <param name="Barrier">The level's start barrier (<see cref="LevelBarrier"/>).</param>
/// <param name="Host">The service host's control API, as this agent reaches it.</param>
/// <param name="Variant">The endpoint variant.</param>
/// <param name="Client">The client technology.</param>
/// <param name="Payload">The payload id.</param>
/// <param name="WarmupPerClient">Warm-up requests per client before the measured window.</param>
/// <param name="DurationMs">The measured window, ms.</param>
/// <param name="BarrierTimeoutMs">How long the agent waits for the start once ready, ms.</param>
/// <param name="LevelId">
/// The level's row in the central results store (<c>Levels.Id</c>, PostgreSQL): the agent writes its share's raw samples
/// there, tagged with its name (<c>Samples.Agent</c>), before it reports the end; null: counts and times only.
/// </param>
/// <param name="CredentialProfile">
/// The scenario's credential profile (its name only: the agent reads the user name and password from its own copy of the
/// host's security folder, <c>--security-dir</c>; docs/security.md); null: the default profile.
/// </param>
public sealed record LevelShare(Guid Barrier, string Host, string Variant, string Client, string Payload, int WarmupPerClient, int DurationMs, int BarrierTimeoutMs,
    long? LevelId = null, string? CredentialProfile = null);

/// <summary>The jobs an agent runs from its queue.</summary>
public sealed class AgentJobs(AgentContext context)
{
    /// <summary>Answers with the agent's name and <paramref name="token"/>: the dashboard and the tests check an agent takes work from its queue.</summary>
    public string Ping(string token) => $"{context.Name}:{token}";

    /// <summary>
    /// Runs this agent's share of a level: opens the client, says it is ready at the barrier, starts at the agreed instant
    /// (converted with its clock offset), runs a closed loop with its clients and reports what it completed, when (database
    /// clock; measured requests only, warm-up excluded) and at what generator CPU. With <see cref="LevelShare.LevelId"/> it first writes every sample of its share
    /// (warm-up included, flagged; client indexes 0..n-1 of its own clients; offsets from its own start) to the central
    /// store through its bulk path (<see cref="SampleStore.AppendFromAgent"/>, one binary COPY), tagged with its name, so
    /// a level whose end is reported has its samples stored. A failure is reported in the barrier row with its reason; the agent's stop (or the
    /// loss of its database) cancels the load.
    /// </summary>
    public async Task RunShareAsync(LevelShare share, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(share);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, context.Stopping);
        var stop = linked.Token;
        await using var connection = await context.Registry.OpenAsync(stop);
        Clients.ICellSession? session = null;
        try
        {
            using var http = HostToken.CreateClient(HostToken.For(new Uri(share.Host), context.SecurityDirectory));
            var endpoints = await HostProbe.GetEndpointsAsync(http, new Uri(share.Host), stop);
            var endpoint = endpoints.FirstOrDefault(e => e.Name == share.Variant)
                ?? throw new InvalidOperationException($"the host {share.Host} does not serve '{share.Variant}'");
            if (!PayloadCatalogue.TryGet(share.Payload, out var payload))
            {
                throw new InvalidOperationException($"unknown payload id '{share.Payload}'");
            }

            var security = SecurityFolder.ForScenario(
                new ScenarioDocument { Variants = [share.Variant], CredentialProfile = share.CredentialProfile ?? Service.Contracts.Security.CredentialProfile.DefaultName },
                context.SecurityDirectory);
            session = await context.Drivers.Get(share.Client).OpenCellAsync(endpoint, payload, security?.For(endpoint), stop);
            var offset = await ClockOffset.MeasureAsync(connection, stop);
            if (await LevelBarrier.ReadyAsync(connection, share.Barrier, context.Name, offset, stop) is not { } clients)
            {
                return; // the coordinator gave the barrier up
            }

            if (await LevelBarrier.WaitForStartAsync(connection, share.Barrier, context.Name, offset, TimeSpan.FromMilliseconds(share.BarrierTimeoutMs), stop) is null)
            {
                return;
            }

            // The coordinator abandons the barrier when the level is cancelled or failed: the load stops then, and what it
            // measured so far is still written and reported (a partial share).
            using var abandoned = CancellationTokenSource.CreateLinkedTokenSource(stop);
            using var watching = CancellationTokenSource.CreateLinkedTokenSource(stop);
            var watcher = WatchAbandonAsync(connection, share.Barrier, abandoned, watching.Token);
            LevelResult? ran = null;
            var coreLoad = Load.CoreLoad.Start();
            try
            {
                ran = await session.RunLevelAsync(new LevelPlan(clients, share.WarmupPerClient, null, TimeSpan.FromMilliseconds(share.DurationMs)), abandoned.Token);
            }
            catch (OperationCanceledException) when (abandoned.IsCancellationRequested && !stop.IsCancellationRequested)
            {
                // Abandoned while the clients were still connecting: nothing was measured.
            }
            finally
            {
                await watching.CancelAsync();
                await watcher;
            }

            if (ran is not { } result)
            {
                await LevelBarrier.EndAsync(connection, share.Barrier, context.Name,
                    new ShareOutcome(0, 0, null, null, null, $"agent {context.Name} stopped its load: the level was abandoned by the runner before its clients had connected"),
                    CancellationToken.None);
                return;
            }

            var stoppedBy = stop.IsCancellationRequested ? $"agent {context.Name} stopped during the level"
                : abandoned.IsCancellationRequested ? $"agent {context.Name} stopped its load: the level was abandoned by the runner"
                : result.Cancelled ? $"agent {context.Name} stopped during the level"
                : null;
            // Counts and the load's window are of the measured requests (warm-up excluded); every sample is stored, warm-up flagged.
            var measured = result.Samples.Where(s => !s.IsWarmup).ToArray();
            DateTime? first = measured.Length == 0 ? null : result.StartedUtc.AddTicks(measured.Min(s => s.StartOffsetUs) * 10).AddMilliseconds(offset.OffsetMs);
            DateTime? last = measured.Length == 0 ? null : result.StartedUtc.AddTicks(measured.Max(s => s.EndOffsetUs) * 10).AddMilliseconds(offset.OffsetMs);
            var completed = measured.Count(s => s.IsSuccess);
            if (share.LevelId is { } levelId && result.Samples.Length > 0)
            {
                using var samples = ResultsStore.PostgreSql(context.Registry.ConnectionString).OpenSampleStore();
                try
                {
                    samples.AppendFromAgent(levelId, result.Samples, context.Name);
                }
                catch (RunNotRunningException e)
                {
                    stoppedBy = $"agent {context.Name}: its {result.Samples.Length} samples were not stored: {e.Message}";
                }
            }

            await LevelBarrier.EndAsync(connection, share.Barrier, context.Name,
                new ShareOutcome(completed, measured.Length - completed, first, last, result.GeneratorCpuPercent, stoppedBy) { CoresBusyPercent = coreLoad?.BusyPercent() },
                CancellationToken.None);
        }
        catch (Exception e) when (e is not OperationCanceledException || !stop.IsCancellationRequested)
        {
            await LevelBarrier.EndAsync(connection, share.Barrier, context.Name, new ShareOutcome(0, 0, null, null, null, $"agent {context.Name}: {e.Message}"), CancellationToken.None);
        }
        finally
        {
            if (session is not null)
            {
                await session.DisposeAsync();
            }
        }
    }

    // Polls the barrier every 250 ms while the load runs; cancels <abandoned> when the coordinator gave the level up.
    private static async Task WatchAbandonAsync(Npgsql.NpgsqlConnection connection, Guid barrier, CancellationTokenSource abandoned, CancellationToken stop)
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                await Task.Delay(250, stop);
                if (await LevelBarrier.IsAbandonedAsync(connection, barrier, stop))
                {
                    await abandoned.CancelAsync();
                    return;
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // the load ended first
        }
        catch (Npgsql.NpgsqlException)
        {
            // The agent's own heartbeat notices a lost database and stops the agent (its Stopping token).
        }
    }
}
