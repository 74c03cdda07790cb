using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Results;
using Dashboard.Web.Options;
using Dashboard.Web.Storage;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Dashboard.Data.Queries;

namespace Dashboard.Web.Results;

/// <summary>A run as the compare picker lists it.</summary>
/// <param name="Id">Run id.</param>
/// <param name="Name">Scenario name.</param>
/// <param name="CreatedUtc">When it was queued (UTC).</param>
/// <param name="Status">Its status.</param>
/// <param name="Levels">Levels stored.</param>
public sealed record RunChoice(int Id, string Name, DateTime CreatedUtc, RunStatus Status, int Levels)
{
    /// <summary>What the picker shows: <c>#3 preset-2-interop-quick · 2026-11-25 09:14 UTC</c>.</summary>
    public string Label => $"#{Id} {Name} · {CreatedUtc:yyyy-MM-dd HH:mm} UTC";
}

/// <summary>One run's results for the compare page.</summary>
/// <param name="Run">The run.</param>
/// <param name="Aggregates">Its levels over their repetitions.</param>
public sealed record RunAggregates(RunEntity Run, IReadOnlyList<LevelAggregate> Aggregates);

/// <summary>
/// The results read model the pages inject (no page opens a database context): the run page's data from the levels'
/// kept statistics and summaries (<see cref="RunPageQueries"/>), refreshed by adding new levels rather than re-reading the
/// run; the runs and aggregates of the compare page; the upstart view (<see cref="Upstart"/>); a run's levels, samples
/// and environment for the API's exports. Reads never write (<see cref="LevelSummaries.FillMissingAsync"/>).
/// </summary>
public sealed class RunResultsService(IDbContextFactory<ResultsDbContext> contexts, RunStore store, IOptions<DashboardOptions> options)
{
    /// <summary>
    /// Run <paramref name="runId"/> and its stored levels (every repetition, partial ones included) ordered by variant,
    /// client, payload, clients and repetition; null when there is no such run.
    /// </summary>
    public async Task<(RunEntity Run, List<LevelEntity> Levels)?> LevelsAsync(int runId, CancellationToken cancellationToken)
    {
        if (await store.FindAsync(runId, cancellationToken) is not { } run)
        {
            return null;
        }

        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var levels = await db.Levels.AsNoTracking().Where(l => l.RunId == runId)
            .OrderBy(l => l.Variant).ThenBy(l => l.Client).ThenBy(l => l.Payload).ThenBy(l => l.Clients).ThenBy(l => l.Repetition).ThenBy(l => l.Id)
            .ToListAsync(cancellationToken);
        return (run, levels);
    }

    /// <summary>
    /// Writes the raw samples of <paramref name="levels"/> as samples.csv (<see cref="ResultsCsv.WriteSamplesAsync"/>),
    /// streamed from the results database without holding them in memory.
    /// </summary>
    public Task WriteSamplesCsvAsync(TextWriter writer, IReadOnlyList<LevelEntity> levels, CancellationToken cancellationToken) =>
        ResultsCsv.WriteSamplesAsync(writer, options.Value.CreateResultsStore(), levels, cancellationToken);

    /// <summary>
    /// Writes run <paramref name="runId"/> as a result bundle (<see cref="RunBundle"/>, docs/web.md "Result bundles") to
    /// <paramref name="output"/>, its manifest naming <paramref name="reproduce"/>; false when there is no such run.
    /// </summary>
    public async Task<bool> WriteBundleAsync(int runId, Stream output, string reproduce, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        if (!await db.Runs.AnyAsync(r => r.Id == runId, cancellationToken))
        {
            return false;
        }

        await RunBundle.WriteAsync(db, runId, output, reproduce, cancellationToken);
        return true;
    }

    /// <summary>Imports a result bundle as a new read-only run marked imported (<see cref="RunBundle.ImportAsync"/>).</summary>
    /// <exception cref="InvalidDataException">Not a bundle this dashboard reads; nothing is stored.</exception>
    /// <exception cref="NotSupportedException">The bundle holds load agents' samples and this dashboard stores to SQLite; nothing is stored.</exception>
    public Task<RunEntity> ImportBundleAsync(Stream input, CancellationToken cancellationToken) =>
        RunBundle.ImportAsync(options.Value.CreateResultsStore(), input, cancellationToken);

    /// <summary>
    /// Run <paramref name="runId"/>'s recorded environment (a JSON text as the runner stored it, or null when none is
    /// recorded yet); <c>Exists</c> is false when there is no such run.
    /// </summary>
    public async Task<(bool Exists, string? EnvironmentJson)> EnvironmentAsync(int runId, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var row = await db.Runs.AsNoTracking().Where(r => r.Id == runId).Select(r => new { r.EnvironmentJson }).SingleOrDefaultAsync(cancellationToken);
        return (row is not null, row?.EnvironmentJson);
    }

    /// <summary>The ids of <paramref name="runIds"/> that name no run in the results database, in the order given.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="runIds"/> is null.</exception>
    public async Task<IReadOnlyList<int>> MissingRunsAsync(IReadOnlyList<int> runIds, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runIds);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var known = await db.Runs.AsNoTracking().Where(r => runIds.Contains(r.Id)).Select(r => r.Id).ToListAsync(cancellationToken);
        return [.. runIds.Where(id => !known.Contains(id))];
    }

    /// <summary>The run page's data of run <paramref name="runId"/>, or null when there is no such run.</summary>
    public async Task<RunPageData?> LoadRunAsync(int runId, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await RunPageQueries.LoadAsync(db, runId, [runId], cancellationToken);
    }

    /// <summary>
    /// <paramref name="current"/> with the run row, the levels stored since (only those are read) and the resource
    /// readings brought up to date: what a progress event changes. Null when the run is gone.
    /// </summary>
    public async Task<RunPageData?> RefreshAsync(RunPageData current, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(current);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        int[] ids = [current.Run.Id];
        var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == current.Run.Id, cancellationToken);
        if (run is null)
        {
            return null;
        }

        var known = current.Levels.Select(l => l.Id).DefaultIfEmpty(0).Max();
        var added = await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId) && l.Id > known).ToListAsync(cancellationToken);
        if (added.Count == 0 && run.Status == current.Run.Status && run.CompletedLevels == current.Run.CompletedLevels)
        {
            return current with { Run = run };
        }

        await LevelSummaries.FillMissingAsync(db, added, cancellationToken);
        var levels = current.Levels.Concat(added)
            .OrderBy(l => l.Variant, StringComparer.Ordinal).ThenBy(l => l.Client, StringComparer.Ordinal).ThenBy(l => l.Payload, StringComparer.Ordinal)
            .ThenBy(l => l.Clients).ThenBy(l => l.Repetition).ToList();
        var resources = await RunPageQueries.ResourcesAsync(db, ids, cancellationToken);
        return current with
        {
            Run = run,
            Levels = levels,
            Aggregates = LevelAggregation.Aggregate(levels),
            Resources = resources,
            Latency = RunPageQueries.Latency(levels, current.TimeOrigin),
            SampleCounts = RunPageQueries.Counts(levels),
            Upstart = added.Any(l => l.Clients == 1) ? await ResultsQueries.UpstartLinesAsync(db, levels, cancellationToken) : current.Upstart,
        };
    }

    /// <summary>
    /// Run <paramref name="runId"/>'s levels grouped by topology with the runs whose levels belong to it (docs/topologies.md,
    /// "Results by topology"), the best cells from <paramref name="fromClients"/> clients on; one topology when the run has no
    /// other part.
    /// </summary>
    public async Task<TopologyComparisonResult> TopologyAsync(int runId, int fromClients, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await ResultsQueries.TopologyComparisonAsync(db, [runId], fromClients, cancellationToken);
    }

    /// <summary>The newest runs (at most <paramref name="take"/>), for the compare picker.</summary>
    public async Task<IReadOnlyList<RunChoice>> ListRunsAsync(int take, CancellationToken cancellationToken)
    {
        var runs = await store.ListAsync(take, null, cancellationToken);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var ids = runs.Select(r => r.Id).ToArray();
        var levels = await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId)).GroupBy(l => l.RunId)
            .Select(g => new { g.Key, Count = g.Count() }).ToDictionaryAsync(g => g.Key, g => g.Count, cancellationToken);
        return [.. runs.Select(r => new RunChoice(r.Id, r.ScenarioName, r.CreatedUtc, r.Status, levels.GetValueOrDefault(r.Id)))];
    }

    /// <summary>The runs of <paramref name="runIds"/> that exist, each with its aggregates, in the order given; and the ids that do not.</summary>
    public async Task<(IReadOnlyList<RunAggregates> Found, IReadOnlyList<int> Missing)> AggregatesAsync(IReadOnlyList<int> runIds, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runIds);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var found = new List<RunAggregates>();
        var missing = new List<int>();
        foreach (var id in runIds)
        {
            var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
            if (run is null)
            {
                missing.Add(id);
                continue;
            }

            found.Add(new RunAggregates(run, await ResultsQueries.LevelAggregatesAsync(db, [id], cancellationToken)));
        }

        return (found, missing);
    }

    /// <summary>
    /// Each run of <paramref name="candidateIds"/> compared with <paramref name="baselineId"/> level by level
    /// (<see cref="RunComparison.Compare"/>: Welch's t on the log scale per level for throughput, mean and median response
    /// time, Holm-corrected; warnings when the runs differ in workload, environment, topology or partial levels), in the
    /// order given. Ids that do not exist (or equal the baseline) are skipped.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="candidateIds"/> is null.</exception>
    public async Task<IReadOnlyList<RunComparisonResult>> CompareAsync(int baselineId, IReadOnlyList<int> candidateIds, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(candidateIds);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var baseline = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == baselineId, cancellationToken);
        if (baseline is null)
        {
            return [];
        }

        var baselineLevels = await LevelsOfAsync(db, baselineId, cancellationToken);
        var results = new List<RunComparisonResult>();
        foreach (var id in candidateIds.Where(id => id != baselineId))
        {
            var candidate = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, cancellationToken);
            if (candidate is not null)
            {
                results.Add(RunComparison.Compare(baseline, baselineLevels, candidate, await LevelsOfAsync(db, id, cancellationToken)));
            }
        }

        return results;
    }

    /// <summary>Runs <paramref name="runIds"/> grouped by topology (<see cref="TopologyComparison.ForRunsAsync"/>), best cells from <paramref name="fromClients"/> clients on.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="runIds"/> is null.</exception>
    public async Task<TopologyComparisonResult> TopologiesAsync(IReadOnlyCollection<int> runIds, int fromClients, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runIds);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        int[] ids = [.. runIds.Distinct()];
        return await ResultsQueries.TopologyComparisonAsync(db, ids, fromClients, cancellationToken);
    }

    private static async Task<List<LevelEntity>> LevelsOfAsync(ResultsDbContext db, int runId, CancellationToken cancellationToken)
    {
        return await db.Levels.AsNoTracking().Where(l => l.RunId == runId).ToListAsync(cancellationToken);
    }
}
