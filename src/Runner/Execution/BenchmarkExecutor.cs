using System.Diagnostics;
using System.Text.Json;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Runs;
using Dashboard.Data.Samples;
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
    /// The run row to continue (<c>--run-id</c>: a row the dashboard queued, status Queued, Scheduled or Running without a
    /// live runner); null: a new row is made (headless use). Ids stay consecutive: one row per run.
    /// </param>
    /// <returns>The stored run: its id, final status (Completed, Failed, Cancelled or Interrupted), error and progress.</returns>
    /// <exception cref="ScenarioException">A variant is not served by the host, a client technology is unavailable, or
    /// run <paramref name="runId"/> cannot be continued (no such row, or it has ended: field <c>--run-id</c>); nothing is stored.</exception>
    public async Task<RunEntity> RunAsync(ScenarioDocument scenario, IReadOnlyList<HostEndpoint> endpoints, CancellationToken cancellationToken, int? runId = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(endpoints);
        var where = topology ?? Topologies.RunTopology.Unshaped(scenario.Topology, new Uri(scenario.Host));
        var cells = PlanCells(scenario, endpoints, where.Name);
        var totalLevels = cells.Count * scenario.Repetitions * scenario.Levels.Count;

        using var db = store.Open();
        // A runner killed mid-run (SIGKILL, OOM) could not end its run; it is found here, by its recorded process.
        foreach (var abandoned in await AbandonedRuns.MarkAsync(db, CancellationToken.None))
        {
            notice?.Invoke($"run {abandoned.Id} was left Running by a runner that no longer runs; marked Interrupted: {abandoned.Error}");
        }

        var hostUri = Uri.TryCreate(scenario.Host, UriKind.Absolute, out var parsedHost) ? parsedHost : null;
        // The server's stack versions as the host read them from what it loaded (null: the host did not report them).
        var serverStacks = http is null || hostUri is null ? null : await HostVersions.GetAsync(http, hostUri, cancellationToken);
        var environment = JsonSerializer.Serialize(RunEnvironment.Capture(hostUri) with { Topology = where, ServerStacks = serverStacks, LoadAgents = Agents?.Environment }, JsonSerializerOptions.Web);
        var orderSeed = ShuffleCells ? OrderSeed ?? Random.Shared.Next() : (int?)null;
        RunEntity run;
        if (runId is { } id)
        {
            run = await ContinueAsync(db, id, environment, totalLevels, where, orderSeed);
        }
        else
        {
            run = new RunEntity
            {
                ScenarioName = scenario.Name,
                ScenarioJson = ScenarioLoader.ToJson(scenario),
                Status = RunStatus.Running,
                CreatedUtc = DateTime.UtcNow,
                StartedUtc = DateTime.UtcNow,
                EnvironmentJson = environment,
                Topology = where.Name,
                LinkRateMbps = where.LinkRateMbps,
                TotalLevels = totalLevels,
                OrderSeed = orderSeed,
            };
            db.Runs.Add(run);
            await db.SaveChangesAsync(CancellationToken.None);
        }

        progress(new ProgressEvent("run-started", run.Id, 0, totalLevels));

        using var samples = store.OpenSampleStore();
        var runStart = Stopwatch.GetTimestamp();
        await using var resources = http is null ? null : new ResourcePoller(http, new Uri(scenario.Host), run.Id, runStart, generator: generator, generatorCores: where.GeneratorCores?.Count);
        var order = run.OrderSeed is { } seed
            ? CellOrder.ForRepetitions(cells, scenario.Repetitions, seed)
            : [.. Enumerable.Repeat<IReadOnlyList<Cell>>(cells, scenario.Repetitions)];
        // A cell that cannot run (endpoint refuses connections, driver died) fails alone, with its reason; the others run.
        var failedCells = new Dictionary<Cell, string>();
        var sessions = new Dictionary<Cell, ICellSession>();
        try
        {
            for (var repetition = 1; repetition <= scenario.Repetitions; repetition++)
            {
                foreach (var cell in order[repetition - 1])
                {
                    if (failedCells.ContainsKey(cell))
                    {
                        continue;
                    }

                    try
                    {
                        await RunCellRepetitionAsync(scenario, cell, repetition, sessions, db, samples, resources, runStart, run, cancellationToken);
                    }
                    catch (LoadClientException e)
                    {
                        failedCells[cell] = $"{cell.Endpoint.Name} × {cell.ClientId} × {cell.Payload.Id} failed during {run.ProgressText}: {e.Message}";
                        if (sessions.Remove(cell, out var broken))
                        {
                            await DisposeQuietlyAsync(broken);
                        }

                        progress(new ProgressEvent("cell-failed", run.Id, run.CompletedLevels, totalLevels) { Variant = cell.Endpoint.Name, Client = cell.ClientId, Payload = cell.Payload.Id, Error = e.Message });
                    }
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
        catch (Exception e) when (e is RunNotRunningException or DbUpdateConcurrencyException)
        {
            // Someone else ended the run (a restarted dashboard marked it Interrupted, a user cancelled it): its status stands,
            // and nothing more is written to it.
            var ended = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == run.Id, CancellationToken.None);
            var reason = $"run {run.Id} was ended by someone else ({ended?.Status.ToString() ?? "deleted"}) while this runner was at {run.ProgressText}; the runner stopped without storing more";
            progress(new ProgressEvent("run-ended", run.Id, run.CompletedLevels, totalLevels) { Status = ended?.Status.ToString() ?? nameof(RunStatus.Interrupted), Error = reason });
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
            progress(new ProgressEvent("run-ended", run.Id, run.CompletedLevels, totalLevels) { Status = ended?.Status.ToString() ?? nameof(RunStatus.Interrupted), Error = ended?.Error });
            return ended ?? run;
        }

        progress(new ProgressEvent("run-ended", run.Id, run.CompletedLevels, totalLevels) { Status = run.Status.ToString(), Error = run.Error });
        return run;
    }

    /// <summary>
    /// Takes over run row <paramref name="id"/>: Running, with this runner's environment (and process) and the level count.
    /// One statement that only changes a row still waiting (Queued, Scheduled, or Running with no live runner recorded), so
    /// a run that ended, Interrupted included, is never continued.
    /// </summary>
    private static async Task<RunEntity> ContinueAsync(ResultsDbContext db, int id, string environment, int totalLevels, Topologies.RunTopology where, int? orderSeed)
    {
        var row = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, CancellationToken.None)
            ?? throw new ScenarioException("--run-id", $"no run has id {id} in this database");
        if (row.Status is not (RunStatus.Queued or RunStatus.Scheduled or RunStatus.Running)
            || (row.Status == RunStatus.Running && AbandonedRuns.RunnerOf(row.EnvironmentJson) is { } other && other.IsAlive()))
        {
            throw new ScenarioException("--run-id",
                $"run {id} is {row.Status}{(row.Status == RunStatus.Running ? " with another live runner" : "")}; only a queued, scheduled or started run without a runner is continued (re-queue an ended run as a new one)");
        }

        var now = DateTime.UtcNow;
        var changed = await db.Runs
            .Where(r => r.Id == id && r.Status == row.Status)
            .ExecuteUpdateAsync(s => s
                .SetProperty(r => r.Status, RunStatus.Running)
                .SetProperty(r => r.StartedUtc, now)
                .SetProperty(r => r.EnvironmentJson, environment)
                .SetProperty(r => r.TotalLevels, totalLevels)
                .SetProperty(r => r.Topology, where.Name)
                .SetProperty(r => r.LinkRateMbps, where.LinkRateMbps)
                .SetProperty(r => r.OrderSeed, orderSeed)
                .SetProperty(r => r.CompletedLevels, 0), CancellationToken.None);
        if (changed == 0)
        {
            throw new ScenarioException("--run-id", $"run {id} changed while the runner took it over (cancelled or ended meanwhile)");
        }

        // The context may track the row already (AbandonedRuns read every Running run): read it afresh.
        db.ChangeTracker.Clear();
        return await db.Runs.SingleAsync(r => r.Id == id, CancellationToken.None);
    }

    /// <summary>
    /// Repetition <paramref name="repetition"/> of one cell: every level once, each after its steady-state warm-up when the
    /// scenario asks for one. The cell's session is kept in <paramref name="sessions"/> for its next repetition, unless the
    /// scenario wants a fresh client per repetition.
    /// </summary>
    private async Task RunCellRepetitionAsync(ScenarioDocument scenario, Cell cell, int repetition, Dictionary<Cell, ICellSession> sessions,
        ResultsDbContext db, SampleStore samples, ResourcePoller? resources, long runStart, RunEntity run, CancellationToken cancellationToken)
    {
        var name = $"{cell.Endpoint.Name} × {cell.ClientId} × {cell.Payload.Id}";
        if (Agents is not null)
        {
            await RunAgentCellRepetitionAsync(scenario, cell, repetition, name, db, resources, runStart, run, cancellationToken);
            return;
        }

        if (!sessions.TryGetValue(cell, out var session))
        {
            run.ProgressText = $"{name}, repetition {repetition}, starting the client";
            session = await cell.Driver!.OpenCellAsync(cell.Endpoint, cell.Payload, security?.For(cell.Endpoint), cancellationToken);
            sessions[cell] = session;
        }

        try
        {
            foreach (var clients in scenario.Levels)
            {
                run.ProgressText = $"{name}, repetition {repetition}, {clients} clients";
                // Stored now, so a run whose runner is killed during this level says where it was (AbandonedRuns).
                await db.SaveChangesAsync(CancellationToken.None);
                SteadyStateWarmup.Outcome? steady = null;
                if (scenario.SteadyState is { } settings)
                {
                    run.ProgressText = $"{name}, repetition {repetition}, {clients} clients, warming up to steady state";
                    steady = await SteadyStateWarmup.RunAsync(session, clients, settings, cancellationToken);
                    run.ProgressText = $"{name}, repetition {repetition}, {clients} clients";
                }

                var plan = new LevelPlan(clients, scenario.Warmup, scenario.RequestsPerClient, scenario.Duration);
                var cpuBefore = generator?.TotalCpu();
                var coreLoad = CoreLoad.Start();
                var levelStartMs = Stopwatch.GetElapsedTime(runStart).TotalMilliseconds;
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
                var levelEndMs = Stopwatch.GetElapsedTime(runStart).TotalMilliseconds;
                var cpu = cpuBefore is { } before ? generator!.TotalCpu() - before : (TimeSpan?)null;
                var newResources = resources?.TakeNew() ?? [];
                // Same machine with overlapping CPU affinity (the host reports its cores in /resources): saturated shared cores are the machine's limit, not the generator's.
                var shares = LevelBounds.SharesCores(scenario.Topology == Topology.Remote, coreLoad?.Cores, resources?.ServerCores);
                var measures = new LevelMeasures(steady, GeneratorShare(cpu, wall) ?? result.GeneratorCpuPercent, coresBusy, ServerCpu(newResources, levelStartMs, levelEndMs),
                    cpu is { } c && result.Samples.Length > 0 ? c.TotalMicroseconds / result.Samples.Length : null, wall, shares);
                var partialReason = failure is not null ? FailedReason(cell, plan, wall, failure)
                    : result.Cancelled ? PartialReason(plan, wall)
                    : null;
                var level = Store(samples, run, cell, repetition, result, measures, partialReason);
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
                progress(LevelEvent(run, cell, level, result.Statistics));
                if (result.Statistics is { Successes: 0, Errors: > 0 } stats && stats.ErrorsByKind.Keys.All(k => k == SampleOutcome.Connection))
                {
                    // Nothing got through: the endpoint is gone (host stopped or killed). Its samples are stored; the cell stops here.
                    throw new LoadClientException($"every request of the {clients}-client level failed to connect ({stats.Errors} connection errors): {cell.Endpoint.Address} is down");
                }
            }
        }
        finally
        {
            if (scenario.FreshClientPerRepetition && sessions.Remove(cell, out var used))
            {
                await DisposeQuietlyAsync(used);
            }
        }
    }

    /// <summary>
    /// Repetition <paramref name="repetition"/> of one cell on the load agents: each level over all of them
    /// (<see cref="Agents.AgentLevels"/>), with the server's CPU from the host's readings during it and what bound it
    /// counted over every agent.
    /// </summary>
    private async Task RunAgentCellRepetitionAsync(ScenarioDocument scenario, Cell cell, int repetition, string name,
        ResultsDbContext db, ResourcePoller? resources, long runStart, RunEntity run, CancellationToken cancellationToken)
    {
        var agents = Agents!;
        foreach (var clients in scenario.Levels)
        {
            run.ProgressText = $"{name}, repetition {repetition}, {clients} clients on agents {string.Join(", ", agents.Agents)}";
            var levelStartMs = Stopwatch.GetElapsedTime(runStart).TotalMilliseconds;
            var outcome = await agents.RunAsync(db, run, cell.Endpoint.Name, cell.ClientId, cell.Payload.Id, repetition, clients, scenario.Warmup,
                scenario.Duration ?? throw new ScenarioException("duration", "levels over load agents are timed: give duration"), cancellationToken);
            var levelEndMs = Stopwatch.GetElapsedTime(runStart).TotalMilliseconds;
            var newResources = resources?.TakeNew() ?? [];
            db.ResourceSamples.AddRange(newResources);
            if (outcome.Level is { } level)
            {
                level.ServerCpuPercent = ServerCpu(newResources, levelStartMs, levelEndMs);
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
            progress(new ProgressEvent("level-completed", run.Id, run.CompletedLevels, run.TotalLevels)
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
    }

    // Generator CPU (runner + drivers) as % of the cores this process may use now (its CPU affinity, read now: an
    // emulated-lan run pins the runner after it started), or null when the generator's processes are not tracked.
    private static double? GeneratorShare(TimeSpan? cpu, TimeSpan wall) =>
        cpu is { } c && wall > TimeSpan.Zero ? Math.Clamp(100.0 * c / (wall * CpuAffinity.CoreCount()), 0, 100) : null;

    // Server CPU (the host process and its JVM, % of the server's cores) over the readings taken during the level.
    private static double? ServerCpu(IReadOnlyList<ResourceSampleEntity> readings, double startMs, double endMs)
    {
        var during = readings.Where(r => r.OffsetMs >= startMs && r.OffsetMs <= endMs + ResourcePoller.DefaultInterval.TotalMilliseconds).ToList();
        return during.Count == 0 ? null : Math.Clamp(during.Average(r => r.ProcessCpuPercent + (r.JvmCpuPercent ?? 0)), 0, 100);
    }

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

    private List<Cell> PlanCells(ScenarioDocument scenario, IReadOnlyList<HostEndpoint> endpoints, string topologyName)
    {
        var cells = new List<Cell>();
        for (var v = 0; v < scenario.Variants.Count; v++)
        {
            var endpoint = endpoints.FirstOrDefault(e => e.Name == scenario.Variants[v])
                ?? throw new ScenarioException($"variants[{v}]",
                    $"the host does not serve '{scenario.Variants[v]}'; it serves {string.Join(", ", endpoints.Select(e => e.Name))}");
            if (endpoint.OnMachineOnly && Topology.IsCrossMachine(topologyName))
            {
                throw new ScenarioException($"variants[{v}]",
                    $"'{endpoint.Name}' is on-machine only ({endpoint.Address}): a Unix socket cannot be reached across topology '{topologyName}'");
            }

            for (var c = 0; c < scenario.Clients.Count; c++)
            {
                if (!ScenarioCells.CanCall(scenario.Variants[v], scenario.Clients[c]))
                {
                    continue; // a pair the client cannot call is skipped (ScenarioCells); the validator refused the scenario if none works
                }

                IClientDriver? driver = null;
                try
                {
                    // With load agents the clients run on them (the runner checked they have the technology).
                    driver = Agents is null ? drivers.Get(scenario.Clients[c]) : null;
                }
                catch (ClientUnavailableException e)
                {
                    throw new ScenarioException($"clients[{c}]", e.Message, e);
                }

                foreach (var payloadId in scenario.Payloads)
                {
                    if (!PayloadCatalogue.TryGet(payloadId, out var payload))
                    {
                        throw new ScenarioException("payloads", $"unknown payload id '{payloadId}'");
                    }

                    cells.Add(new Cell(endpoint, scenario.Clients[c], driver, payload));
                }
            }
        }

        return cells;
    }

    private static LevelEntity Store(SampleStore samples, RunEntity run, Cell cell, int repetition, LevelResult result, LevelMeasures measures, string? partialReason)
    {
        var stats = result.Statistics;
        var level = new LevelEntity
        {
            RunId = run.Id,
            Variant = cell.Endpoint.Name,
            Client = cell.ClientId,
            Payload = cell.Payload.Id,
            Repetition = repetition,
            Clients = result.Plan.Clients,
            StartedUtc = result.StartedUtc,
            EndedUtc = result.EndedUtc,
            GeneratorCpuPercent = measures.GeneratorCpuPercent,
            Complete = partialReason is null,
            PartialReason = partialReason,
            SteadyStateReached = measures.Steady?.Reached,
            SteadyStateWarmupSeconds = measures.Steady?.Elapsed.TotalSeconds,
            SteadyStateCoefficientOfVariation = measures.Steady?.CoefficientOfVariation,
            ServerCpuPercent = measures.ServerCpuPercent,
            GeneratorCoresBusyPercent = measures.GeneratorCoresBusyPercent,
            Bound = LevelBounds.Classify(measures.GeneratorCpuPercent, measures.GeneratorCoresBusyPercent, measures.ServerCpuPercent, measures.SharesCoresWithServer),
            GeneratorCpuMicrosPerRequest = measures.GeneratorCpuMicrosPerRequest,
        };
        LevelFigures.Apply(level, stats);
        // The level row and its samples in one transaction: a runner killed at any moment leaves whole levels only.
        samples.AppendLevel(level, result.Samples, onlyWhileRunning: true);
        return level;
    }

    private static double OrZero(double value) => LevelFigures.OrZero(value);

    private static ProgressEvent LevelEvent(RunEntity run, Cell cell, LevelEntity level, LatencyStatistics stats) =>
        new("level-completed", run.Id, run.CompletedLevels, run.TotalLevels)
        {
            Variant = cell.Endpoint.Name,
            Client = cell.ClientId,
            Payload = cell.Payload.Id,
            Repetition = level.Repetition,
            Clients = level.Clients,
            Requests = stats.Requests,
            Errors = stats.Errors,
            ThroughputRps = stats.ThroughputRps,
            MeanMs = OrZero(stats.MeanMs),
        };

    private static string PartialReason(LevelPlan plan, TimeSpan wall) => plan.Duration is { } duration
        ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"cancelled after {wall.TotalSeconds:0.0} s of a {duration.TotalSeconds:0.#} s level (warm-up included)")
        : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"cancelled after {wall.TotalSeconds:0.0} s, before its {plan.RequestsPerClient} requests per client");

    private static string FailedReason(Cell cell, LevelPlan plan, TimeSpan wall, LoadClientException failure)
    {
        var of = plan.Duration is { } duration
            ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"of a {duration.TotalSeconds:0.#} s level (warm-up included)")
            : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"before its {plan.RequestsPerClient} requests per client");
        return string.Create(System.Globalization.CultureInfo.InvariantCulture, $"the {cell.ClientId} client failed after {wall.TotalSeconds:0.0} s {of}: {failure.Message}");
    }

    /// <summary>One variant × client × payload cell; <see cref="Driver"/> is null when the cell's load comes from load agents.</summary>
    private sealed record Cell(HostEndpoint Endpoint, string ClientId, IClientDriver? Driver, PayloadCase Payload);

    /// <summary>What the executor measured around one level, besides its samples.</summary>
    private sealed record LevelMeasures(SteadyStateWarmup.Outcome? Steady, double? GeneratorCpuPercent, double? GeneratorCoresBusyPercent, double? ServerCpuPercent, double? GeneratorCpuMicrosPerRequest, TimeSpan Wall, bool SharesCoresWithServer);
}
