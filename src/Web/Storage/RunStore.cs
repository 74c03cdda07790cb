using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Runs;
using Dashboard.Service.Contracts.Scenarios;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Storage;

/// <summary>A page of finished runs for the Queue page's grid, with each run's headline figure.</summary>
/// <param name="Runs">The runs of the page, in the order asked.</param>
/// <param name="Total">How many runs match in all.</param>
/// <param name="PeakThroughputRps">Per run id: the highest throughput of any of its levels (req/s); absent when it stored no level.</param>
public sealed record RunPage(IReadOnlyList<RunEntity> Runs, int Total, IReadOnlyDictionary<int, double> PeakThroughputRps);

/// <summary>What the runner reported in <c>run-started</c>, recorded with the run (<see cref="RunStore.RecordStartAsync"/>).</summary>
/// <param name="TotalLevels">Levels the run will measure.</param>
/// <param name="EnvironmentJson">The run's environment (JSON), with the runner's process; null when the runner sent none.</param>
/// <param name="Topology">Where the host runs relative to the generator; null: same-machine.</param>
/// <param name="LinkRateMbps">The emulated link's rate, or null.</param>
/// <param name="OrderSeed">The cell-order seed, or null.</param>
public sealed record RunStart(int TotalLevels, string? EnvironmentJson, string? Topology, int? LinkRateMbps, int? OrderSeed);

/// <summary>
/// The <c>Runs</c> table as the queue uses it: the domain record of every run (the queue's jobs are plumbing,
/// docs/architecture.md "The queue"). The dashboard owns the lifecycle of the runs it queues (queued, running, ended,
/// status, reason, progress): these methods are its only writes to their rows; the runner it starts with
/// <c>--run-id</c> adds levels and samples and reports the rest as events (docs/architecture.md, "One owner per run").
/// </summary>
public sealed class RunStore(IDbContextFactory<ResultsDbContext> contexts, TimeProvider time)
{
    /// <summary>Statuses a run no longer leaves.</summary>
    public static readonly RunStatus[] Finished = [RunStatus.Completed, RunStatus.Failed, RunStatus.Cancelled, RunStatus.Interrupted];

    /// <summary>Statuses of a run waiting for the worker.</summary>
    public static readonly RunStatus[] Waiting = [RunStatus.Queued, RunStatus.Scheduled];

    /// <summary>
    /// Stores a run of <paramref name="scenario"/>: Queued, or Scheduled for <paramref name="dueUtc"/>. Its queue time
    /// (<see cref="RunEntity.CreatedUtc"/>) is now in both cases. <paramref name="estimate"/>, the plan's expected wall time
    /// and its range, is kept with it (<see cref="RunEntity.EstimatedSeconds"/>) when given.
    /// </summary>
    public async Task<RunEntity> EnqueueAsync(ValidScenario scenario, DateTime? dueUtc, string? progressText, CancellationToken cancellationToken, DurationFigure? estimate = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var run = new RunEntity
        {
            ScenarioName = scenario.Name,
            ScenarioJson = scenario.Json,
            Status = dueUtc is null ? RunStatus.Queued : RunStatus.Scheduled,
            CreatedUtc = time.GetUtcNow().UtcDateTime,
            ScheduledUtc = dueUtc,
            ProgressText = progressText ?? (dueUtc is { } at ? $"scheduled for {at:yyyy-MM-dd HH:mm:ss} UTC" : "queued"),
            EstimatedSeconds = estimate?.Duration.TotalSeconds,
            EstimatedLowSeconds = estimate?.Low?.TotalSeconds,
            EstimatedHighSeconds = estimate?.High?.TotalSeconds,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync(cancellationToken);
        return run;
    }

    /// <summary>Records the queue job that runs the run.</summary>
    public async Task SetJobAsync(int id, string jobId, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await db.Runs.Where(r => r.Id == id).ExecuteUpdateAsync(s => s.SetProperty(r => r.JobId, jobId), cancellationToken);
    }

    /// <summary>The run, untracked, or null.</summary>
    public async Task<RunEntity?> FindAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
    }

    /// <summary>Runs newest first, optionally only those with one of <paramref name="statuses"/>.</summary>
    public async Task<IReadOnlyList<RunEntity>> ListAsync(int take, IReadOnlyCollection<RunStatus>? statuses, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var query = db.Runs.AsNoTracking();
        if (statuses is { Count: > 0 })
        {
            query = query.Where(r => statuses.Contains(r.Status));
        }

        return await query.OrderByDescending(r => r.Id).Take(take).ToListAsync(cancellationToken);
    }

    /// <summary>
    /// One page of finished runs, newest first unless <paramref name="sortBy"/> (<c>id</c>, <c>name</c>, <c>status</c>,
    /// <c>ended</c>) says otherwise, with the peak throughput of each.
    /// </summary>
    public async Task<RunPage> FinishedPageAsync(int skip, int take, string? sortBy, bool descending, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var query = db.Runs.AsNoTracking().Where(r => Finished.Contains(r.Status));
        var total = await query.CountAsync(cancellationToken);
        query = (sortBy, descending) switch
        {
            ("name", false) => query.OrderBy(r => r.Name ?? r.ScenarioName).ThenBy(r => r.Id),
            ("name", true) => query.OrderByDescending(r => r.Name ?? r.ScenarioName).ThenByDescending(r => r.Id),
            ("status", false) => query.OrderBy(r => r.Status).ThenBy(r => r.Id),
            ("status", true) => query.OrderByDescending(r => r.Status).ThenByDescending(r => r.Id),
            ("ended", false) => query.OrderBy(r => r.EndedUtc).ThenBy(r => r.Id),
            ("ended", true) => query.OrderByDescending(r => r.EndedUtc).ThenByDescending(r => r.Id),
            ("id", false) => query.OrderBy(r => r.Id),
            _ => query.OrderByDescending(r => r.Id),
        };
        var runs = await query.Skip(skip).Take(take).ToListAsync(cancellationToken);
        var ids = runs.Select(r => r.Id).ToArray();
        var peaks = await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId))
            .GroupBy(l => l.RunId)
            .Select(g => new { RunId = g.Key, Peak = g.Max(l => l.ThroughputRps) })
            .ToDictionaryAsync(x => x.RunId, x => x.Peak, cancellationToken);
        return new RunPage(runs, total, peaks);
    }

    /// <summary>Queued or scheduled runs whose queue job is unknown (queued before the job was recorded): the queue enqueues them again.</summary>
    public async Task<IReadOnlyList<RunEntity>> WaitingWithoutJobAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().Where(r => Waiting.Contains(r.Status) && r.JobId == null).OrderBy(r => r.Id).ToListAsync(cancellationToken);
    }

    /// <summary>Marks a queued or scheduled run Running (the runner continues the row); false when it is not waiting any more (cancelled meanwhile).</summary>
    public async Task<bool> TryStartAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow().UtcDateTime;
        return await db.Runs.Where(r => r.Id == id && Waiting.Contains(r.Status))
            .ExecuteUpdateAsync(s => s
                .SetProperty(r => r.Status, RunStatus.Running)
                .SetProperty(r => r.StartedUtc, now)
                .SetProperty(r => r.ProgressText, "starting the runner"), cancellationToken) == 1;
    }

    /// <summary>Updates the progress figures of a running run.</summary>
    public async Task UpdateProgressAsync(int id, int completedLevels, int totalLevels, string progressText, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await db.Runs.Where(r => r.Id == id && r.Status == RunStatus.Running)
            .ExecuteUpdateAsync(s => s
                .SetProperty(r => r.CompletedLevels, completedLevels)
                .SetProperty(r => r.TotalLevels, totalLevels)
                .SetProperty(r => r.ProgressText, progressText), cancellationToken);
    }

    /// <summary>
    /// Records what the runner reported in <c>run-started</c> on a running run: its level count (none done yet), environment
    /// (JSON, with the runner's process), topology, link rate and cell-order seed.
    /// </summary>
    public async Task RecordStartAsync(int id, RunStart start, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(start);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await db.Runs.Where(r => r.Id == id && r.Status == RunStatus.Running)
            .ExecuteUpdateAsync(s => s
                .SetProperty(r => r.CompletedLevels, 0)
                .SetProperty(r => r.TotalLevels, start.TotalLevels)
                .SetProperty(r => r.ProgressText, $"running: 0 of {start.TotalLevels} levels")
                .SetProperty(r => r.EnvironmentJson, start.EnvironmentJson)
                .SetProperty(r => r.Topology, start.Topology ?? "same-machine")
                .SetProperty(r => r.LinkRateMbps, start.LinkRateMbps)
                .SetProperty(r => r.OrderSeed, start.OrderSeed), cancellationToken);
    }

    /// <summary>Puts a run back to wait until <paramref name="dueUtc"/> (the machine was busy), Scheduled with the reason.</summary>
    public async Task RescheduleAsync(int id, DateTime dueUtc, string reason, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await db.Runs.Where(r => r.Id == id).ExecuteUpdateAsync(s => s
            .SetProperty(r => r.Status, RunStatus.Scheduled)
            .SetProperty(r => r.ScheduledUtc, dueUtc)
            .SetProperty(r => r.StartedUtc, (DateTime?)null)
            .SetProperty(r => r.ProgressText, reason), cancellationToken);
    }

    /// <summary>
    /// Ends a run with <paramref name="status"/> and <paramref name="error"/> unless it has already ended (cancelled while
    /// waiting, marked Interrupted at start-up or by a runner that found its runner gone): an ended run keeps its status.
    /// Returns the row as stored.
    /// </summary>
    /// <param name="id">The run.</param>
    /// <param name="status">Its final status.</param>
    /// <param name="error">Why it did not complete, or null.</param>
    /// <param name="cancellationToken">Cancels the write.</param>
    /// <param name="completedLevels">Whole levels done, as the runner reported in <c>run-ended</c>; null when the runner could
    /// not say (killed, crashed): the stored levels are counted.</param>
    /// <param name="endedByRunner">True when the runner said it ended (<c>run-ended</c>): the run ends now; false: at the end of
    /// its last stored level (a runner that died ended there), unless it completed.</param>
    public async Task<RunEntity?> FinishAsync(int id, RunStatus status, string? error, CancellationToken cancellationToken, int? completedLevels = null, bool endedByRunner = false)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
        if (run is null || Finished.Contains(run.Status))
        {
            return run;
        }

        run.Status = status;
        run.Error = error;
        run.EndedUtc = !endedByRunner && status != RunStatus.Completed
            && await db.Levels.Where(l => l.RunId == id).MaxAsync(l => (DateTime?)l.EndedUtc, cancellationToken) is { } last
            ? Max(last, run.StartedUtc ?? last)
            : time.GetUtcNow().UtcDateTime;
        run.ProgressText = null;
        run.CompletedLevels = completedLevels ?? Math.Max(run.CompletedLevels, await db.Levels.CountAsync(l => l.RunId == id, cancellationToken));
        try
        {
            await db.SaveChangesAsync(cancellationToken);
        }
        catch (DbUpdateConcurrencyException)
        {
            // Someone else ended it between the read and the write (a cancel of a waiting run): its status stands.
            return await FindAsync(id, cancellationToken);
        }

        return run;
    }

    /// <summary>Cancels a queued or scheduled run; null when the run does not exist, else its status afterwards.</summary>
    public async Task<RunStatus?> CancelWaitingAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow().UtcDateTime;
        var changed = await db.Runs.Where(r => r.Id == id && Waiting.Contains(r.Status))
            .ExecuteUpdateAsync(s => s
                .SetProperty(r => r.Status, RunStatus.Cancelled)
                .SetProperty(r => r.EndedUtc, now)
                .SetProperty(r => r.ProgressText, (string?)null)
                .SetProperty(r => r.Error, "cancelled before it started"), cancellationToken);
        return changed == 1 ? RunStatus.Cancelled : (await FindAsync(id, cancellationToken))?.Status;
    }

    /// <summary>
    /// At start-up: every run left <c>Running</c> (its dashboard or runner is gone: a crash, a kill, a restart) becomes
    /// Interrupted with the reason <paramref name="reason"/> gives for its whole stored levels and its level count, keeping
    /// what the runner stored. Returns the runs marked.
    /// </summary>
    public async Task<IReadOnlyList<RunEntity>> InterruptLeftRunningAsync(Func<int, int, string> reason, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(reason);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var running = await db.Runs.AsNoTracking().Where(r => r.Status == RunStatus.Running)
            .Select(r => new { r.Id, r.TotalLevels, Done = db.Levels.Count(l => l.RunId == r.Id && l.Complete) }).ToListAsync(cancellationToken);
        var marked = new List<RunEntity>();
        foreach (var left in running)
        {
            if (await FinishAsync(left.Id, RunStatus.Interrupted, reason(left.Done, left.TotalLevels), cancellationToken, completedLevels: left.Done) is { Status: RunStatus.Interrupted } run)
            {
                marked.Add(run);
            }
        }

        return marked;
    }

    /// <summary>The runner processes recorded in the runs left <c>Running</c> (pid with start time), by run id.</summary>
    public async Task<IReadOnlyList<(int RunId, ProcessIdentity Runner)>> RunnersOfLeftRunningAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var rows = await db.Runs.AsNoTracking().Where(r => r.Status == RunStatus.Running)
            .Select(r => new { r.Id, r.EnvironmentJson }).ToListAsync(cancellationToken);
        return rows.Select(r => (r.Id, Runner: AbandonedRuns.RunnerOf(r.EnvironmentJson)))
            .Where(x => x.Runner is not null)
            .Select(x => (x.Id, x.Runner!))
            .ToList();
    }

    /// <summary>Renames and annotates a run; null values leave a field as it is, empty strings clear it. Null when no run has the id.</summary>
    public async Task<RunEntity?> AnnotateAsync(int id, string? name, string? notes, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
        if (run is null)
        {
            return null;
        }

        if (name is not null)
        {
            run.Name = name.Trim().Length == 0 ? null : name.Trim();
        }

        if (notes is not null)
        {
            run.Notes = notes.Trim().Length == 0 ? null : notes;
        }

        // A rename must not fail because the run's status moved meanwhile: the status is not written here.
        db.Entry(run).Property(r => r.Status).OriginalValue = await db.Runs.AsNoTracking().Where(r => r.Id == id).Select(r => r.Status).SingleAsync(cancellationToken);
        await db.SaveChangesAsync(cancellationToken);
        return run;
    }

    /// <summary>
    /// Deletes a finished run with its levels, samples and resource readings (one transaction). Null when no run has the
    /// id; false when the run has not ended (nothing deleted).
    /// </summary>
    public async Task<bool?> PurgeAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
        if (run is null)
        {
            return null;
        }

        if (!Finished.Contains(run.Status))
        {
            return false;
        }

        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        // Samples go with their level (trigger TR_Levels_DeleteSamples).
        await db.Levels.Where(l => l.RunId == id).ExecuteDeleteAsync(cancellationToken);
        await db.ResourceSamples.Where(r => r.RunId == id).ExecuteDeleteAsync(cancellationToken);
        await db.Runs.Where(r => r.Id == id).ExecuteDeleteAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return true;
    }

    /// <summary>
    /// Marks the runs whose runner was killed without ending them (recorded runner process gone) Interrupted, with the
    /// reason (<see cref="AbandonedRuns"/>); returns them.
    /// </summary>
    public async Task<IReadOnlyList<RunEntity>> MarkAbandonedAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await AbandonedRuns.MarkAsync(db, cancellationToken);
    }

    private static DateTime Max(DateTime a, DateTime b) => a > b ? a : b;
}
