using Dashboard.Service.Contracts.Progress;
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
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Runs a validated scenario: for each cell (variant × client × payload), each repetition and each level, one
/// closed-loop level; stores the level's aggregates and every raw sample as soon as the level ends, so a
/// cancelled or failed run keeps what it measured.
/// </summary>
/// <param name="databasePath">The results database file (created and migrated if needed).</param>
/// <param name="drivers">The client technologies this build can run.</param>
/// <param name="progress">Receives one event per level and at start and end.</param>
/// <param name="http">When given, the host's <c>GET /resources</c> is polled with it during the run (DESIGN.md §2).</param>
/// <param name="generator">The runner and the driver processes it starts (generator CPU); default the runner alone.</param>
/// <param name="notice">Receives one line per run found left <c>Running</c> by a runner that was killed, marked Interrupted before this run starts.</param>
/// <param name="security">The security folder the secure variants' CA and credentials come from (docs/security.md); null when the scenario has no secure variant.</param>
public sealed class BenchmarkExecutor(string databasePath, ClientDriverRegistry drivers, Action<ProgressEvent> progress, HttpClient? http = null, GeneratorProcesses? generator = null, Action<string>? notice = null, SecurityFolder? security = null)
{
    /// <summary>Runs <paramref name="scenario"/> against the <paramref name="endpoints"/> its host listed.</summary>
    /// <returns>The stored run: its id, final status (Completed, Failed or Cancelled), error and progress.</returns>
    /// <exception cref="ScenarioException">A variant is not served by the host, or a client technology is unavailable; nothing is stored.</exception>
    public async Task<RunEntity> RunAsync(ScenarioDocument scenario, IReadOnlyList<HostEndpoint> endpoints, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(endpoints);
        var cells = PlanCells(scenario, endpoints);
        var totalLevels = cells.Count * scenario.Repetitions * scenario.Levels.Count;

        using var db = ResultsDatabase.Open(databasePath);
        // A runner killed mid-run (SIGKILL, OOM) could not end its run; it is found here, by its recorded process.
        foreach (var abandoned in await AbandonedRuns.MarkAsync(db, CancellationToken.None))
        {
            notice?.Invoke($"run {abandoned.Id} was left Running by a runner that no longer runs; marked Interrupted: {abandoned.Error}");
        }

        var run = new RunEntity
        {
            ScenarioName = scenario.Name,
            ScenarioJson = ScenarioLoader.ToJson(scenario),
            Status = RunStatus.Running,
            CreatedUtc = DateTime.UtcNow,
            StartedUtc = DateTime.UtcNow,
            EnvironmentJson = JsonSerializer.Serialize(RunEnvironment.Capture(), JsonSerializerOptions.Web),
            TotalLevels = totalLevels,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync(CancellationToken.None);
        progress(new ProgressEvent("run-started", run.Id, 0, totalLevels));

        using var samples = new SampleStore(databasePath);
        await using var resources = http is null ? null : new ResourcePoller(http, new Uri(scenario.Host), run.Id, Stopwatch.GetTimestamp(), generator: generator);
        // A cell that cannot run (endpoint refuses connections, driver died) fails alone, with its reason; the others run.
        var failedCells = new List<string>();
        try
        {
            foreach (var cell in cells)
            {
                try
                {
                    await RunCellAsync(scenario, cell, db, samples, resources, run, cancellationToken);
                }
                catch (LoadClientException e)
                {
                    failedCells.Add($"{cell.Endpoint.Name} × {cell.Driver.ClientId} × {cell.Payload.Id} failed during {run.ProgressText}: {e.Message}");
                    progress(new ProgressEvent("cell-failed", run.Id, run.CompletedLevels, totalLevels) { Variant = cell.Endpoint.Name, Client = cell.Driver.ClientId, Payload = cell.Payload.Id, Error = e.Message });
                }
            }

            run.Status = failedCells.Count == 0 ? RunStatus.Completed : RunStatus.Failed;
            run.Error = failedCells.Count == 0 ? null
                : $"{failedCells.Count} of {cells.Count} cells failed ({run.CompletedLevels} of {totalLevels} levels done): {string.Join("; ", failedCells)}";
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            run.Status = RunStatus.Cancelled;
            run.Error = $"cancelled after {run.CompletedLevels} of {totalLevels} levels, during {run.ProgressText}";
        }

        run.EndedUtc = DateTime.UtcNow;
        if (resources is not null)
        {
            db.ResourceSamples.AddRange(await resources.StopAsync());
        }

        await db.SaveChangesAsync(CancellationToken.None);
        progress(new ProgressEvent("run-ended", run.Id, run.CompletedLevels, totalLevels) { Status = run.Status.ToString(), Error = run.Error });
        return run;
    }

    private async Task RunCellAsync(ScenarioDocument scenario, Cell cell, ResultsDbContext db, SampleStore samples, ResourcePoller? resources, RunEntity run, CancellationToken cancellationToken)
    {
        run.ProgressText = $"{cell.Endpoint.Name} × {cell.Driver.ClientId} × {cell.Payload.Id}, starting the client";
        await using var session = await cell.Driver.OpenCellAsync(cell.Endpoint, cell.Payload, security?.For(cell.Endpoint), cancellationToken);
        for (var repetition = 1; repetition <= scenario.Repetitions; repetition++)
        {
            foreach (var clients in scenario.Levels)
            {
                run.ProgressText = $"{cell.Endpoint.Name} × {cell.Driver.ClientId} × {cell.Payload.Id}, repetition {repetition}, {clients} clients";
                // Stored now, so a run whose runner is killed during this level says where it was (AbandonedRuns).
                await db.SaveChangesAsync(CancellationToken.None);
                var plan = new LevelPlan(clients, scenario.Warmup, scenario.RequestsPerClient, scenario.Duration);
                var result = await session.RunLevelAsync(plan, cancellationToken);
                var level = Store(samples, run, cell, repetition, result);
                if (result.Cancelled)
                {
                    throw new OperationCanceledException(cancellationToken);
                }

                run.CompletedLevels++;
                db.ResourceSamples.AddRange(resources?.TakeNew() ?? []);
                await db.SaveChangesAsync(CancellationToken.None);
                progress(LevelEvent(run, cell, level, result.Statistics));
                if (result.Statistics is { Successes: 0, Errors: > 0 } stats && stats.ErrorsByKind.Keys.All(k => k == SampleOutcome.Connection))
                {
                    // Nothing got through: the endpoint is gone (host stopped or killed). Its samples are stored; the cell stops here.
                    throw new LoadClientException($"every request of the {clients}-client level failed to connect ({stats.Errors} connection errors): {cell.Endpoint.Address} is down");
                }
            }
        }
    }

    private List<Cell> PlanCells(ScenarioDocument scenario, IReadOnlyList<HostEndpoint> endpoints)
    {
        var cells = new List<Cell>();
        for (var v = 0; v < scenario.Variants.Count; v++)
        {
            var endpoint = endpoints.FirstOrDefault(e => e.Name == scenario.Variants[v])
                ?? throw new ScenarioException($"variants[{v}]",
                    $"the host does not serve '{scenario.Variants[v]}'; it serves {string.Join(", ", endpoints.Select(e => e.Name))}");
            for (var c = 0; c < scenario.Clients.Count; c++)
            {
                if (!ScenarioCells.CanCall(scenario.Variants[v], scenario.Clients[c]))
                {
                    continue; // a pair the client cannot call is skipped (ScenarioCells); the validator refused the scenario if none works
                }

                IClientDriver driver;
                try
                {
                    driver = drivers.Get(scenario.Clients[c]);
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

                    cells.Add(new Cell(endpoint, driver, payload));
                }
            }
        }

        return cells;
    }

    private static LevelEntity Store(SampleStore samples, RunEntity run, Cell cell, int repetition, LevelResult result)
    {
        var stats = result.Statistics;
        var level = new LevelEntity
        {
            RunId = run.Id,
            Variant = cell.Endpoint.Name,
            Client = cell.Driver.ClientId,
            Payload = cell.Payload.Id,
            Repetition = repetition,
            Clients = result.Plan.Clients,
            StartedUtc = result.StartedUtc,
            EndedUtc = result.EndedUtc,
            Requests = stats.Requests,
            Errors = stats.Errors,
            TimeoutErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Timeout),
            FaultErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Fault),
            ConnectionErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Connection),
            AuthenticationErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Authentication),
            OtherErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Other),
            WrongReplyErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.WrongReply),
            MeanRequestBytes = stats.MeanRequestBytes,
            MeanResponseBytes = stats.MeanResponseBytes,
            ThroughputRps = stats.ThroughputRps,
            MeanMs = OrZero(stats.MeanMs),
            P50Ms = OrZero(stats.P50Ms),
            P90Ms = OrZero(stats.P90Ms),
            P99Ms = OrZero(stats.P99Ms),
            P999Ms = OrZero(stats.P999Ms),
            MaxMs = OrZero(stats.MaxMs),
            GeneratorCpuPercent = result.GeneratorCpuPercent,
        };
        // The level row and its samples in one transaction: a runner killed at any moment leaves whole levels only.
        samples.AppendLevel(level, result.Samples);
        return level;
    }

    // A level where no measured request succeeded has no response time (NaN); SQLite cannot store NaN, so the columns
    // hold 0 and readers tell such a level by Errors == Requests (LevelEntity's docstrings; the CSV leaves them empty).
    private static double OrZero(double value) => double.IsFinite(value) ? value : 0;

    private static ProgressEvent LevelEvent(RunEntity run, Cell cell, LevelEntity level, LatencyStatistics stats) =>
        new("level-completed", run.Id, run.CompletedLevels, run.TotalLevels)
        {
            Variant = cell.Endpoint.Name,
            Client = cell.Driver.ClientId,
            Payload = cell.Payload.Id,
            Repetition = level.Repetition,
            Clients = level.Clients,
            Requests = stats.Requests,
            Errors = stats.Errors,
            ThroughputRps = stats.ThroughputRps,
            MeanMs = OrZero(stats.MeanMs),
        };

    private sealed record Cell(HostEndpoint Endpoint, IClientDriver Driver, PayloadCase Payload);
}
