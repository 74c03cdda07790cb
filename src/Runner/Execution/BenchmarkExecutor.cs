using System.Diagnostics;
using System.Text.Json;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Runs;
using Dashboard.Data.Samples;
using Dashboard.Data.Statistics;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Hosts;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Runs a validated scenario: repetition r runs every cell (variant × client × payload) once, the cells in a random
/// order drawn from the run's recorded seed (<see cref="RunEntity.OrderSeed"/>, <see cref="CellOrder"/>; Kalibera &amp;
/// Jones, ISMM 2013; Mytkowicz et al., ASPLOS 2009), and each level of the cell after its steady-state warm-up when the
/// scenario asks for one (<see cref="SteadyStateWarmup"/>). Stores the level's aggregates, what bound it and every raw
/// sample as soon as the level ends, so a cancelled or failed run keeps what it measured; a level cut by a cancel or by
/// a client driver that died or failed mid-level is stored as partial with the samples taken (docs/statistics.md).
/// </summary>
/// <param name="store">The results database, SQLite file or PostgreSQL (created and migrated if needed; docs/architecture.md, "Storage").</param>
/// <param name="drivers">The client technologies this build can run.</param>
/// <param name="progress">Receives one event per level and at start and end.</param>
/// <param name="http">When given, the host's <c>GET /resources</c> is polled with it during the run (server CPU, docs/web.md).</param>
/// <param name="generator">The runner and the driver processes it starts (generator CPU); default the runner alone.</param>
/// <param name="notice">Receives one line per run found left <c>Running</c> by a runner that was killed, marked Interrupted before this run starts.</param>
/// <param name="security">The security folder the secure variants' CA and credentials come from (docs/security.md); null when the scenario has no secure variant.</param>
/// <param name="topology">The topology the run is measured in (recorded with the run); null: the scenario's, unshaped and unpinned.</param>
public sealed class BenchmarkExecutor(ResultsStore store, ClientDriverRegistry drivers, Action<ProgressEvent> progress, HttpClient? http = null, GeneratorProcesses? generator = null, Action<string>? notice = null, SecurityFolder? security = null, Topologies.RunTopology? topology = null)
{
    /// <summary>An executor on the SQLite results file at <paramref name="databasePath"/>; the other parameters as in the primary constructor.</summary>
    public BenchmarkExecutor(string databasePath, ClientDriverRegistry drivers, Action<ProgressEvent> progress, HttpClient? http = null, GeneratorProcesses? generator = null, Action<string>? notice = null, SecurityFolder? security = null, Topologies.RunTopology? topology = null)
        : this(ResultsStore.Sqlite(databasePath), drivers, progress, http, generator, notice, security, topology)
    {
    }

    /// <summary>
    /// True (default): each repetition runs the cells in a random order drawn from the run's seed. False: in the
    /// scenario's order (variants × clients × payloads) every repetition, and no seed is stored (tests that need a known order).
    /// </summary>
    public bool ShuffleCells { get; init; } = true;

    /// <summary>
    /// How long the machine is watched before the first level for others' CPU (<see cref="QuietMachine"/>; recorded with
    /// the run as <c>machineAtStart</c>); default <see cref="QuietMachine.StartCheck"/>; zero: not watched (the load average is still recorded).
    /// </summary>
    public TimeSpan QuietCheck { get; init; } = QuietMachine.StartCheck;

    /// <summary>The seed of the cell order, to run a recorded order again; null (default): a fresh random seed, stored with the run.</summary>
    public int? OrderSeed { get; init; }

    /// <summary>
    /// When this token is cancelled as the run stops, the run ends <see cref="RunStatus.Interrupted"/> (the process that
    /// started the runner ended: its standard input closed) instead of <see cref="RunStatus.Cancelled"/>.
    /// </summary>
    public CancellationToken ParentGone { get; init; }

    /// <summary>
    /// The load agents that generate every level (scenario field <c>agents</c>, resolved; docs/agents.md); null (default):
    /// the runner generates the load itself. With agents, no client runs in the runner's process.
    /// </summary>
    public Agents.AgentLevels? Agents { get; init; }

    /// <summary>Runs <paramref name="scenario"/> against the <paramref name="endpoints"/> its host listed.</summary>
    /// <param name="scenario">The validated scenario.</param>
    /// <param name="endpoints">What the host serves.</param>
    /// <param name="cancellationToken">Stops the run: the level in progress is stored as far as it went.</param>
    /// <param name="runId">
    /// The dashboard's run row (<c>--run-id</c>: a row the dashboard has started, status Running, without a live runner): the
    /// runner adds levels and samples to it and reports the rest as events, writing nothing to the row (<see cref="RunRecord"/>);
    /// null: a new row is made and ended by the runner (headless use). Ids stay consecutive: one row per run.
    /// </param>
    /// <returns>The run: its id, final status (Completed, Failed, Cancelled or Interrupted), error and progress; as stored
    /// when headless, as reported in <c>run-ended</c> when the dashboard owns the row.</returns>
    /// <exception cref="ScenarioException">A variant is not served by the host, a client technology is unavailable, or
    /// run <paramref name="runId"/> cannot be measured (no such row, not Running, or another live runner: field <c>--run-id</c>); nothing is stored.</exception>
    public async Task<RunEntity> RunAsync(ScenarioDocument scenario, IReadOnlyList<HostEndpoint> endpoints, CancellationToken cancellationToken, int? runId = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(endpoints);
        var where = topology ?? Topologies.RunTopology.Unshaped(scenario.Topology, new Uri(scenario.Host));
        var cells = CellPlan.Of(scenario, endpoints, where.Name, Agents is null ? drivers : null);
        var launches = scenario.Launches ?? 1;
        var totalLevels = cells.Count * launches * scenario.Repetitions * scenario.LevelValues.Count;

        using var db = store.Open();
        // A runner killed mid-run (SIGKILL, OOM) could not end its run; it is found here, by its recorded process.
        foreach (var abandoned in await AbandonedRuns.MarkAsync(db, CancellationToken.None))
        {
            notice?.Invoke($"run {abandoned.Id} was left Running by a runner that no longer runs; marked Interrupted: {abandoned.Error}");
        }

        var hostUri = Uri.TryCreate(scenario.Host, UriKind.Absolute, out var parsedHost) ? parsedHost : null;
        // The CPU counters read at both ends of every level's window: the host's (GET /cpu), the generator's, this machine's.
        var window = new WindowCpu(http is null || hostUri is null ? null : token => HostCpu.GetAsync(http, hostUri, token), generator, untrackedLocalProcesses: Agents is not null);
        var machineAtStart = await CheckMachineAsync(window, cancellationToken);
        // The server's stack versions as the host read them from what it loaded (null: the host did not report them).
        var serverStacks = http is null || hostUri is null ? null : await HostVersions.GetAsync(http, hostUri, cancellationToken);
        var environment = JsonSerializer.Serialize(RunEnvironment.Capture(hostUri) with { Topology = where, ServerStacks = serverStacks, LoadAgents = Agents?.Environment, MachineAtStart = machineAtStart }, JsonSerializerOptions.Web);
        var orderSeed = ShuffleCells ? OrderSeed ?? Random.Shared.Next() : (int?)null;
        var facts = new RunFacts(environment, totalLevels, where.Name, where.LinkRateMbps, orderSeed);
        var record = runId is { } id ? await RunRecord.ReadStartedAsync(db, id, facts) : await RunRecord.CreateAsync(db, scenario, facts);
        var run = record.Run;
        progress(record.Started());
        if (machineAtStart.Busy)
        {
            notice?.Invoke($"the machine is not quiet as this run starts: {machineAtStart.Summary}; its levels are likely to be flagged disturbed");
        }

        using var samples = store.OpenSampleStore();
        var runStart = Stopwatch.GetTimestamp();
        await using var resources = http is null ? null : new ResourcePoller(http, new Uri(scenario.Host), run.Id, runStart, generator: generator, generatorCores: where.GeneratorCores?.Count);
        // One list per repetition of every launch: each (cell, level) once, in a random order from the run's seed; levels
        // are shuffled too when each has a steady-state warm-up (without one, a cell runs its levels in the scenario's order).
        var order = CellOrder.ForLaunches(cells, scenario.LevelValues, launches, scenario.Repetitions, run.OrderSeed, shuffleLevels: scenario.SteadyState is not null);
        // A cell that cannot run (endpoint refuses connections, driver died) fails alone, with its reason; the others run.
        var failedCells = new Dictionary<Cell, string>();
        var sessions = new Dictionary<Cell, ICellSession>();
        // What the host serves now, by variant: a restarted host (a fresh one per launch) may list new addresses (its Unix sockets).
        var served = endpoints.ToDictionary(e => e.Name, StringComparer.Ordinal);
        try
        {
            int? hostProcess = null;
            for (var index = 0; index < order.Count; index++)
            {
                var launch = index / scenario.Repetitions + 1;
                // Repetitions are numbered over the whole run (launch 2's first is repetition R + 1), so a level's row stays unique.
                var repetition = index + 1;
                if (index % scenario.Repetitions == 0)
                {
                    hostProcess = await StartLaunchAsync(launch, launches, sessions, served, hostUri, hostProcess, cancellationToken);
                }

                var left = order[index].GroupBy(u => u.Cell).ToDictionary(g => g.Key, g => g.Count());
                foreach (var (cell, clients) in order[index])
                {
                    await RunUnitAsync(cell, clients, new LevelSlot(cell, clients, repetition, launch, hostProcess), --left[cell] == 0);
                }
            }

            if (scenario.Precision is { } target)
            {
                // One launch (the validator refuses a target with several): extra rounds share its host and clients.
                var extra = new PrecisionRounds(scenario, target, run.OrderSeed, ShuffleCells);
                var repetition = order.Count;
                while (extra.NextRound(await db.Levels.AsNoTracking().Where(l => l.RunId == run.Id).ToListAsync(cancellationToken),
                    order[0].Where(u => !failedCells.ContainsKey(u.Cell)).ToList(), out var round, out var summary))
                {
                    repetition++;
                    run.TotalLevels += round.Count;
                    totalLevels = run.TotalLevels;
                    notice?.Invoke(summary);
                    var ran = 0;
                    foreach (var (cell, clients) in round)
                    {
                        if (extra.TimeIsUp || failedCells.ContainsKey(cell))
                        {
                            continue;
                        }

                        ran++;
                        await RunUnitAsync(cell, clients, new LevelSlot(cell, clients, repetition, launches, hostProcess), lastOfCell: false);
                    }

                    // Levels a cut round did not run are no longer expected.
                    run.TotalLevels -= round.Count - ran;
                    totalLevels = run.TotalLevels;
                }

                if (extra.Outcome is { } outcome)
                {
                    notice?.Invoke(outcome);
                }
            }

            // One level of one cell, its failure kept to the cell: the other cells run on.
            async Task RunUnitAsync(Cell cell, int clients, LevelSlot level, bool lastOfCell)
            {
                if (failedCells.ContainsKey(cell))
                {
                    return;
                }

                try
                {
                    await RunLevelAsync(scenario, level, sessions, served, db, samples, resources, window, run, cancellationToken);
                    if (lastOfCell && scenario.FreshClientPerRepetition && sessions.Remove(cell, out var used))
                    {
                        await DisposeQuietlyAsync(used);
                    }
                }
                catch (LoadClientException e)
                {
                    failedCells[cell] = $"{cell.Endpoint.Name} × {cell.ClientId} × {cell.Payload.Id} failed during {run.ProgressText}: {e.Message}";
                    if (sessions.Remove(cell, out var broken))
                    {
                        await DisposeQuietlyAsync(broken);
                    }

                    progress(new ProgressEvent(ProgressEvents.CellFailed, run.Id, run.CompletedLevels, totalLevels) { Variant = cell.Endpoint.Name, Client = cell.ClientId, Payload = cell.Payload.Id, Error = e.Message });
                }
            }

            run.Status = failedCells.Count == 0 ? RunStatus.Completed : RunStatus.Failed;
            run.Error = failedCells.Count == 0 ? null
                : $"{failedCells.Count} of {cells.Count} cells failed ({run.CompletedLevels} of {totalLevels} levels done): {string.Join("; ", failedCells.Values)}";
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            run.Status = ParentGone.IsCancellationRequested ? RunStatus.Interrupted : RunStatus.Cancelled;
            run.Error = ParentGone.IsCancellationRequested
                ? $"the process that started the runner ended (its standard input closed) after {run.CompletedLevels} of {totalLevels} levels, during {run.ProgressText}; the levels stored before are kept with their samples"
                : $"cancelled after {run.CompletedLevels} of {totalLevels} levels, during {run.ProgressText}";
        }
        catch (HostUnavailableException e)
        {
            // Between launches only (a restart that did not come back): the levels stored before are kept.
            run.Status = RunStatus.Failed;
            run.Error = $"stopped after {run.CompletedLevels} of {totalLevels} levels: {e.Message}; the levels stored before are kept with their samples";
        }
        catch (Exception e) when (e is RunNotRunningException or DbUpdateConcurrencyException)
        {
            // Someone else ended the run (a restarted dashboard marked it Interrupted, a user cancelled it): its status stands,
            // and nothing more is written to it.
            var ended = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == run.Id, CancellationToken.None);
            var reason = $"run {run.Id} was ended by someone else ({ended?.Status.ToString() ?? "deleted"}) while this runner was at {run.ProgressText}; the runner stopped without storing more";
            progress(new ProgressEvent(ProgressEvents.RunEnded, run.Id, run.CompletedLevels, totalLevels) { Status = ended?.Status.ToString() ?? nameof(RunStatus.Interrupted), Error = reason });
            notice?.Invoke(reason);
            return ended ?? run;
        }
        finally
        {
            foreach (var session in sessions.Values)
            {
                await DisposeQuietlyAsync(session);
            }
        }

        run.EndedUtc = DateTime.UtcNow;
        run.ProgressText = null;
        if (resources is not null)
        {
            db.ResourceSamples.AddRange(await resources.StopAsync());
        }

        try
        {
            await db.SaveChangesAsync(CancellationToken.None);
        }
        catch (DbUpdateConcurrencyException)
        {
            var ended = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == run.Id, CancellationToken.None);
            progress(new ProgressEvent(ProgressEvents.RunEnded, run.Id, run.CompletedLevels, totalLevels) { Status = ended?.Status.ToString() ?? nameof(RunStatus.Interrupted), Error = ended?.Error });
            return ended ?? run;
        }

        progress(new ProgressEvent(ProgressEvents.RunEnded, run.Id, run.CompletedLevels, totalLevels) { Status = run.Status.ToString(), Error = run.Error });
        return run;
    }

    /// <summary>
    /// Starts launch <paramref name="launch"/> of <paramref name="launches"/> (docs/statistics.md, "Launches"): from the
    /// second on, every open client is closed (its driver process ends) so the launch's levels open fresh ones, and the
    /// host is asked for a fresh process (<c>POST /restart</c>, <see cref="HostRestarter"/>): the dashboard's local host
    /// is started again by the dashboard; a host nobody restarts (started by hand, remote, or levels generated by agents)
    /// is shared with the launch before, with a notice. Each level records the host's process id (<c>GET /cpu</c>), which
    /// says whether launches shared it.
    /// </summary>
    /// <returns>The host's process id now, or null when it did not report one.</returns>
    /// <exception cref="HostUnavailableException">The host accepted the restart but did not come back in time.</exception>
    private async Task<int?> StartLaunchAsync(int launch, int launches, Dictionary<Cell, ICellSession> sessions, Dictionary<string, HostEndpoint> served,
        Uri? hostUri, int? previousHost, CancellationToken cancellationToken)
    {
        if (launch > 1)
        {
            foreach (var session in sessions.Values)
            {
                await DisposeQuietlyAsync(session);
            }

            sessions.Clear();
        }

        if (http is null || hostUri is null)
        {
            return null;
        }

        if (launch > 1 && Agents is null)
        {
            var restart = await HostRestarter.RestartAsync(http, hostUri, HostRestarter.DefaultLimit, notice, cancellationToken);
            if (restart.Restarted)
            {
                foreach (var endpoint in await HostProbe.GetEndpointsAsync(http, hostUri, cancellationToken))
                {
                    served[endpoint.Name] = endpoint;
                }

                notice?.Invoke($"launch {launch} of {launches}: fresh clients and a fresh service host (process {previousHost?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "?"} → {restart.ProcessId})");
                return restart.ProcessId;
            }

            notice?.Invoke($"launch {launch} of {launches}: fresh clients; the service host is shared with the launch before ({restart.Reason})");
        }
        else if (launch > 1)
        {
            notice?.Invoke($"launch {launch} of {launches}: fresh clients on the agents; the service host is shared with the launch before (agents' runs do not restart it)");
        }

        return await HostCpu.GetProcessIdAsync(http, hostUri, cancellationToken);
    }

    /// <summary>
    /// One level of one cell in repetition <paramref name="slot"/>.Repetition, after its steady-state warm-up when the
    /// scenario asks for one. The cell's session is kept in <paramref name="sessions"/> for its next level.
    /// </summary>
    private async Task RunLevelAsync(ScenarioDocument scenario, LevelSlot slot, Dictionary<Cell, ICellSession> sessions, Dictionary<string, HostEndpoint> served,
        ResultsDbContext db, SampleStore samples, ResourcePoller? resources, WindowCpu window, RunEntity run, CancellationToken cancellationToken)
    {
        var (cell, clients, repetition, launch, hostProcess) = slot;
        var name = $"{cell.Endpoint.Name} × {cell.ClientId} × {cell.Payload.Id}";
        if (Agents is not null)
        {
            await RunAgentLevelAsync(scenario, slot, name, db, resources, window, run, cancellationToken);
            return;
        }

        if (!sessions.TryGetValue(cell, out var session))
        {
            run.ProgressText = $"{name}, repetition {repetition}, starting the client";
            var endpoint = served.GetValueOrDefault(cell.Endpoint.Name, cell.Endpoint);
            session = await cell.Driver!.OpenCellAsync(endpoint, cell.Payload, security?.For(endpoint), cancellationToken);
            sessions[cell] = session;
        }

        run.ProgressText = scenario.IsOpen ? $"{name}, repetition {repetition}, {clients} req/s (open)" : $"{name}, repetition {repetition}, {clients} clients";
        // Stored now, so a run whose runner is killed during this level says where it was (AbandonedRuns).
        await db.SaveChangesAsync(CancellationToken.None);
        // An open level's value is its arrival rate; its clients are the connections it may open (scenario maxConnections).
        var plan = scenario.IsOpen
            ? new LevelPlan(scenario.MaxConnections ?? Workload.DefaultMaxConnections, scenario.Warmup, null, scenario.Duration) { RateRps = clients }
            : new LevelPlan(clients, scenario.Warmup, scenario.RequestsPerClient, scenario.Duration);
        // placement "shared-core": a 1-client level's runner, drivers and host on one core, from its warm-up to its window's end.
        using var pin = Placement.SharesCore(scenario, clients) ? await PinSharedCoreAsync(scenario, cancellationToken) : null;
        SteadyStateWarmup.Outcome? steady = null;
        if (scenario.SteadyState is { } settings)
        {
            var levelText = run.ProgressText;
            run.ProgressText = $"{levelText}, warming up to steady state";
            steady = await SteadyStateWarmup.RunAsync(session, plan, settings, cancellationToken);
            run.ProgressText = levelText;
        }

        // ── The measured window starts here (its warm-up requests first, then the measured requests; docs/statistics.md). ──
        // Every CPU figure of the level is between this reading and the one after it (WindowCpu).
        var windowStart = await window.ReadAsync(cancellationToken);
        var coreLoad = CoreLoad.Start();
        var watch = Stopwatch.StartNew();
        LevelResult result;
        LoadClientException? failure = null;
        try
        {
            result = await session.RunLevelAsync(plan, cancellationToken);
        }
        catch (LoadClientException e) when (e.PartialLevel is { Samples.Length: > 0 } partial)
        {
            // The client failed mid-level (its driver died or gave up): the samples it handed over are stored as a partial level.
            result = partial;
            failure = e;
        }

        var wall = watch.Elapsed;
        var coresBusy = coreLoad?.BusyPercent();
        var figures = window.Between(windowStart, await window.ReadAsync(CancellationToken.None), result.Samples.Length, CpuAffinity.CoreCount());
        pin?.Dispose();
        // ── The measured window ends here. The periodic readings are for the over-time charts only; the level's figures are its window's. ──
        var newResources = resources?.TakeNew() ?? [];
        // Same machine with overlapping CPU affinity (the host reports its cores in /resources): saturated shared cores are the machine's limit, not the generator's.
        var shares = LevelBounds.SharesCores(scenario.Topology == Topology.Remote, coreLoad?.Cores, resources?.ServerCores);
        var measures = new LevelMeasures(steady, figures.GeneratorCpuPercent ?? result.GeneratorCpuPercent, coresBusy, figures, wall, shares)
        {
            Launch = launch,
            HostProcessId = hostProcess,
            SharedCore = pin?.Core,
        };
        var partialReason = failure is not null ? LevelRecords.FailedReason(cell, plan, wall, failure)
            : result.Cancelled ? LevelRecords.PartialReason(plan, wall)
            : null;
        var level = LevelRecords.Store(samples, run, cell, repetition, result, measures, partialReason);
        db.ResourceSamples.AddRange(newResources);
        if (failure is not null)
        {
            await db.SaveChangesAsync(CancellationToken.None);
            throw new LoadClientException($"{failure.Message}; the {result.Samples.Length} samples it handed over before are stored as a partial level", failure);
        }

        if (result.Cancelled)
        {
            await db.SaveChangesAsync(CancellationToken.None);
            throw new OperationCanceledException(cancellationToken);
        }

        run.CompletedLevels++;
        await db.SaveChangesAsync(CancellationToken.None);
        progress(LevelRecords.LevelEvent(run, cell, level, result.Statistics));
        if (result.Statistics is { Successes: 0, Errors: > 0 } stats && stats.ErrorsByKind.Keys.All(k => k == SampleOutcome.Connection))
        {
            // Nothing got through: the endpoint is gone (host stopped or killed). Its samples are stored; the cell stops here.
            throw new LoadClientException($"every request of the {clients}-client level failed to connect ({stats.Errors} connection errors): {cell.Endpoint.Address} is down");
        }
    }

    /// <summary>
    /// Pins this runner, its driver processes and the host's processes (<c>GET /cpu</c>) to one core for a level of
    /// placement <c>"shared-core"</c> (<see cref="SharedCorePin"/>).
    /// </summary>
    /// <exception cref="LoadClientException">The host did not list its processes, is on another machine (its boot id
    /// differs from this one's), or a process could not be pinned: the cell fails with the reason.</exception>
    private async Task<SharedCorePin> PinSharedCoreAsync(ScenarioDocument scenario, CancellationToken cancellationToken)
    {
        const string Why = "placement 'shared-core' pins the host's processes beside the runner's";
        if (http is null || !Uri.TryCreate(scenario.Host, UriKind.Absolute, out var hostUri))
        {
            throw new LoadClientException($"{Why}, and this runner has no host address to ask for them (GET /cpu)");
        }

        var (counters, error) = await HostCpu.GetAsync(http, hostUri, cancellationToken);
        if (counters is not { Processes.Count: > 0 })
        {
            throw new LoadClientException($"{Why}, and the host did not list them (GET /cpu: {error ?? "no process"})");
        }

        if (counters.BootId is { } theirs && ProcCounters.BootId() is { } ours && theirs != ours)
        {
            throw new LoadClientException($"{Why}, and the host at {hostUri.Authority} is on another machine (its boot id differs from this one's): use placement 'free'");
        }

        try
        {
            return SharedCorePin.Pin([Environment.ProcessId, .. generator?.DriverIds ?? [], .. counters.Processes.Select(p => p.ProcessId)]);
        }
        catch (InvalidOperationException e)
        {
            throw new LoadClientException($"{Why}: {e.Message}", e);
        }
    }

    /// <summary>
    /// One level of one cell on the load agents (<see cref="Agents.AgentLevels"/>), with the server's CPU from the host's
    /// counters at the level's two ends and what bound it counted over every agent.
    /// </summary>
    private async Task RunAgentLevelAsync(ScenarioDocument scenario, LevelSlot slot, string name,
        ResultsDbContext db, ResourcePoller? resources, WindowCpu window, RunEntity run, CancellationToken cancellationToken)
    {
        var agents = Agents!;
        var (cell, clients, repetition, launch, hostProcess) = slot;
        run.ProgressText = $"{name}, repetition {repetition}, {clients} clients on agents {string.Join(", ", agents.Agents)}";
        var windowStart = await window.ReadAsync(cancellationToken);
        var outcome = await agents.RunAsync(db, run, cell.Endpoint.Name, cell.ClientId, cell.Payload.Id, repetition, clients, scenario.Warmup,
            scenario.Duration ?? throw new ScenarioException("duration", "levels over load agents are timed: give duration"), cancellationToken);
        var windowEnd = await window.ReadAsync(CancellationToken.None);
        db.ResourceSamples.AddRange(resources?.TakeNew() ?? []);
        if (outcome.Level is { } level)
        {
            // Server and machine figures from the window's ends; the generator's are the agents' own (others' CPU is not
            // told apart from an agent on this machine, so only steal can flag the level disturbed).
            var figures = window.Between(windowStart, windowEnd, level.Requests + (level.WarmupRequests ?? 0), CpuAffinity.CoreCount());
            LevelRecords.ApplyServer(level, figures);
            level.Launch = launch;
            level.HostProcessId = hostProcess;
            // Every agent counts (the busiest one's CPU and cores); an agent on this machine shares the cores of a host
            // that is not remote, so saturated cores there are the machine's limit, not the generator's.
            level.Bound = LevelBounds.Classify(level.GeneratorCpuPercent, level.GeneratorCoresBusyPercent, level.ServerCpuPercent,
                scenario.Topology != Topology.Remote && agents.SharesMachineWithRunner);
        }

        if (outcome.Failure is { } failure)
        {
            await db.SaveChangesAsync(CancellationToken.None);
            throw new LoadClientException(outcome.Level is null
                ? $"the {clients}-client level did not start: {failure.Message}"
                : $"{failure.Message}; the level's samples from the other agents are stored as a partial level", failure);
        }

        if (outcome.Cancelled)
        {
            await db.SaveChangesAsync(CancellationToken.None);
            throw new OperationCanceledException(cancellationToken);
        }

        run.CompletedLevels++;
        await db.SaveChangesAsync(CancellationToken.None);
        var stored = outcome.Level!;
        progress(new ProgressEvent(ProgressEvents.LevelCompleted, run.Id, run.CompletedLevels, run.TotalLevels)
        {
            Variant = stored.Variant,
            Client = stored.Client,
            Payload = stored.Payload,
            Repetition = stored.Repetition,
            Clients = stored.Clients,
            Requests = (int)stored.Requests,
            Errors = (int)stored.Errors,
            ThroughputRps = stored.ThroughputRps,
            MeanMs = stored.MeanMs,
        });
    }

    /// <summary>
    /// How busy the machine is before the first level: the 1-minute load average, and others' CPU and steal over
    /// <see cref="QuietCheck"/> (<see cref="QuietMachine"/>).
    /// </summary>
    private async Task<MachineAtStart> CheckMachineAsync(WindowCpu window, CancellationToken cancellationToken)
    {
        WindowFigures? watched = null;
        if (QuietCheck > TimeSpan.Zero)
        {
            var start = await window.ReadAsync(cancellationToken);
            await Task.Delay(QuietCheck, cancellationToken);
            watched = window.Between(start, await window.ReadAsync(cancellationToken), 0, CpuAffinity.CoreCount());
        }

        return MachineAtStart.Of(ProcCounters.LoadAverage1(), watched?.OthersCpuCores, watched?.StealPercent);
    }

    /// <summary>One level of one cell in one repetition of one launch, and the host process serving it (null: not reported).</summary>
    private sealed record LevelSlot(Cell Cell, int Clients, int Repetition, int Launch, int? HostProcess);

    private static async Task DisposeQuietlyAsync(ICellSession session)
    {
        try
        {
            await session.DisposeAsync();
        }
        catch (Exception e) when (e is LoadClientException or IOException or InvalidOperationException)
        {
            // A broken driver is being dropped; its failure was reported already.
        }
    }
}
