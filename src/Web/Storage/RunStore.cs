using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Runs;
using Dashboard.Service.Contracts.Scenarios;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Storage;

/// <summary>
/// The run queue's storage: the <c>Runs</c> table is the durable queue (DESIGN.md §0). A queued run whose
/// <see cref="RunEntity.CreatedUtc"/> lies in the future is scheduled for that time ("run later").
/// </summary>
public sealed class RunStore(IDbContextFactory<ResultsDbContext> contexts, RunnerRunMap runnerRuns, TimeProvider time)
{
    /// <summary>Statuses a run no longer leaves.</summary>
    public static readonly RunStatus[] Finished = [RunStatus.Completed, RunStatus.Failed, RunStatus.Cancelled, RunStatus.Interrupted];

    /// <summary>Stores a queued run of <paramref name="scenario"/>, to start at <paramref name="notBeforeUtc"/> or as soon as possible.</summary>
    public async Task<RunEntity> EnqueueAsync(ScenarioDocument scenario, DateTime? notBeforeUtc, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow().UtcDateTime;
        var run = new RunEntity
        {
            ScenarioName = scenario.Name,
            ScenarioJson = ScenarioLoader.ToJson(scenario),
            Status = RunStatus.Queued,
            CreatedUtc = notBeforeUtc is { } at && at > now ? at : now,
            ProgressText = notBeforeUtc is { } later && later > now ? $"scheduled for {later:yyyy-MM-dd HH:mm} UTC" : "queued",
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync(cancellationToken);
        return run;
    }

    /// <summary>The run, untracked, or null.</summary>
    public async Task<RunEntity?> FindAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
    }

    /// <summary>
    /// Runs newest first, without the runner's own rows of runs in progress (they are shown under the dashboard's id).
    /// </summary>
    public async Task<IReadOnlyList<RunEntity>> ListAsync(int take, IReadOnlyCollection<RunStatus>? statuses, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var hidden = runnerRuns.RunnerRunIds();
        var query = db.Runs.AsNoTracking().Where(r => !hidden.Contains(r.Id));
        if (statuses is { Count: > 0 })
        {
            query = query.Where(r => statuses.Contains(r.Status));
        }

        return await query.OrderByDescending(r => r.Id).Take(take).ToListAsync(cancellationToken);
    }

    /// <summary>The run ids whose levels and resource readings belong to run <paramref name="id"/> (itself, and the runner's row while it runs).</summary>
    public IReadOnlyList<int> DataRunIds(int id) => runnerRuns.TryGetRunnerRun(id, out var runner) ? [id, runner] : [id];

    /// <summary>The oldest queued run due now, or null.</summary>
    public async Task<RunEntity?> NextDueAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow().UtcDateTime;
        return await db.Runs.AsNoTracking()
            .Where(r => r.Status == RunStatus.Queued && r.CreatedUtc <= now)
            .OrderBy(r => r.CreatedUtc).ThenBy(r => r.Id)
            .FirstOrDefaultAsync(cancellationToken);
    }

    /// <summary>Times of the queued runs scheduled in the future.</summary>
    public async Task<IReadOnlyList<DateTime>> ScheduledTimesAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow().UtcDateTime;
        return await db.Runs.AsNoTracking()
            .Where(r => r.Status == RunStatus.Queued && r.CreatedUtc > now)
            .Select(r => r.CreatedUtc).ToListAsync(cancellationToken);
    }

    /// <summary>Marks a queued run Running; false when it is no longer queued (cancelled meanwhile).</summary>
    public async Task<bool> TryStartAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
        if (run is not { Status: RunStatus.Queued })
        {
            return false;
        }

        run.Status = RunStatus.Running;
        run.StartedUtc = time.GetUtcNow().UtcDateTime;
        run.ProgressText = "starting the runner";
        run.EnvironmentJson = new RunnerLink(null, null).ToJson();
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>Records the runner's process and, once known, its own run id; keeps the map for the live pages.</summary>
    public async Task LinkRunnerAsync(int id, RunnerLink link, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(link);
        if (link.RunnerRunId is { } runnerRunId)
        {
            runnerRuns.Add(id, runnerRunId);
        }

        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await db.Runs.Where(r => r.Id == id)
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.EnvironmentJson, link.ToJson()), cancellationToken);
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

    /// <summary>Puts a run back in the queue, due at <paramref name="dueUtc"/> (the machine was busy).</summary>
    public async Task RequeueAtAsync(int id, DateTime dueUtc, string reason, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await MergeRunnerRunAsync(db, id, cancellationToken);
        var run = await db.Runs.SingleAsync(r => r.Id == id, cancellationToken);
        run.Status = RunStatus.Queued;
        run.CreatedUtc = dueUtc;
        run.StartedUtc = null;
        run.EnvironmentJson = null;
        run.ProgressText = reason;
        await db.SaveChangesAsync(cancellationToken);
    }

    /// <summary>
    /// Ends a run: moves the runner's levels and resource readings to the dashboard's row, takes the runner's
    /// environment and level counts, deletes the runner's row, and sets the final status and error.
    /// </summary>
    public async Task<RunEntity> FinishAsync(int id, RunStatus status, string? error, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var runner = await MergeRunnerRunAsync(db, id, cancellationToken);
        var run = await db.Runs.SingleAsync(r => r.Id == id, cancellationToken);
        run.Status = status;
        run.Error = error;
        run.EndedUtc = runner?.EndedUtc ?? time.GetUtcNow().UtcDateTime;
        run.ProgressText = null;
        if (runner is not null)
        {
            run.StartedUtc = runner.StartedUtc ?? run.StartedUtc;
            run.EnvironmentJson = runner.EnvironmentJson;
            run.OrderSeed = runner.OrderSeed;
            run.CompletedLevels = runner.CompletedLevels;
            run.TotalLevels = runner.TotalLevels;
        }
        else if (RunnerLink.From(run.EnvironmentJson) is not null)
        {
            run.EnvironmentJson = null;
        }

        await db.SaveChangesAsync(cancellationToken);
        return run;
    }

    /// <summary>Cancels a queued run; null when the run does not exist, else its status afterwards.</summary>
    public async Task<RunStatus?> CancelQueuedAsync(int id, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
        if (run is null)
        {
            return null;
        }

        if (run.Status == RunStatus.Queued)
        {
            run.Status = RunStatus.Cancelled;
            run.EndedUtc = time.GetUtcNow().UtcDateTime;
            run.ProgressText = null;
            run.Error = "cancelled before it started";
            await db.SaveChangesAsync(cancellationToken);
        }

        return run.Status;
    }

    /// <summary>
    /// At start-up: every run this dashboard left Running (its runner is gone: a crash or a kill) becomes
    /// Interrupted, keeping what the runner stored. Returns the runner processes still alive (orphans of a crash),
    /// which the caller stops first.
    /// </summary>
    public async Task<IReadOnlyList<(int RunId, RunnerLink Link)>> FindLeftRunningAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var running = await db.Runs.AsNoTracking().Where(r => r.Status == RunStatus.Running).ToListAsync(cancellationToken);
        return running
            .Select(r => (r.Id, Link: RunnerLink.From(r.EnvironmentJson)))
            .Where(x => x.Link is not null)
            .Select(x => (x.Id, x.Link!))
            .ToList();
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

    /// <summary>A new queued run with the scenario of run <paramref name="id"/>; null when there is no such run.</summary>
    public async Task<RunEntity?> RequeueCopyAsync(int id, CancellationToken cancellationToken)
    {
        var old = await FindAsync(id, cancellationToken);
        if (old is null)
        {
            return null;
        }

        return await EnqueueAsync(ScenarioLoader.Parse(old.ScenarioJson), null, cancellationToken);
    }

    private async Task<RunEntity?> MergeRunnerRunAsync(ResultsDbContext db, int id, CancellationToken cancellationToken)
    {
        var dashboardRun = await db.Runs.AsNoTracking().SingleAsync(r => r.Id == id, cancellationToken);
        var runnerRunId = RunnerLink.From(dashboardRun.EnvironmentJson)?.RunnerRunId;
        runnerRuns.Remove(id);
        if (runnerRunId is not { } runnerId || runnerId == id)
        {
            return null;
        }

        var runner = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runnerId, cancellationToken);
        if (runner is null)
        {
            return null;
        }

        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        await db.Levels.Where(l => l.RunId == runnerId).ExecuteUpdateAsync(s => s.SetProperty(l => l.RunId, id), cancellationToken);
        await db.ResourceSamples.Where(r => r.RunId == runnerId).ExecuteUpdateAsync(s => s.SetProperty(r => r.RunId, id), cancellationToken);
        await db.Runs.Where(r => r.Id == runnerId).ExecuteDeleteAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return runner;
    }
}
