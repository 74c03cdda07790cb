using System.Globalization;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Options;
using Dashboard.Web.Storage;
using Hangfire;
using Hangfire.Storage;

namespace Dashboard.Web.Runs;

/// <summary>What a cancel request did.</summary>
public enum CancelResult
{
    /// <summary>No run has that id.</summary>
    NotFound,

    /// <summary>The run was queued or scheduled and is now cancelled.</summary>
    Cancelled,

    /// <summary>The run is running; its runner was asked to stop (SIGTERM) and keeps its samples.</summary>
    Stopping,

    /// <summary>The run had already ended; nothing changed.</summary>
    AlreadyFinished,
}

/// <summary>A recurring run: a scenario queued at every time its cron expression names.</summary>
/// <param name="Id">Its id (letters, digits, '-', '_').</param>
/// <param name="Cron">Its cron expression (5 fields, UTC), also while paused.</param>
/// <param name="ScenarioName">The scenario's name.</param>
/// <param name="Paused">True while paused: it queues nothing until resumed.</param>
/// <param name="NextUtc">When it fires next; null while paused.</param>
/// <param name="LastUtc">When it last fired, or null.</param>
/// <param name="Error">Why it cannot fire (e.g. its scenario no longer loads), or null.</param>
public sealed record RecurringRun(string Id, string Cron, string ScenarioName, bool Paused, DateTime? NextUtc, DateTime? LastUtc, string? Error);

/// <summary>
/// The queue as pages and the API see it: queue now or at a time, recurring runs, cancel, re-queue, rename, delete. The
/// Runs table is the domain record; each waiting run also has a Hangfire job (<see cref="BenchmarkJob"/>), which is plumbing.
/// </summary>
public sealed class QueueService(
    RunStore store,
    QueueWorker worker,
    RunJobs runJobs,
    RunEvents events,
    IRecurringJobManager recurring,
    JobStorage storage,
    Hosts.HostRegistry hosts,
    RunSummaries summaries,
    TimeProvider time,
    ILogger<QueueService> logger)
{
    /// <summary>The cron expression Hangfire never fires (31 February): a paused recurring run carries it.</summary>
    public static readonly string Never = Cron.Never();

    /// <summary>
    /// Queues <paramref name="scenario"/> to run as soon as possible, or at <paramref name="atUtc"/> (status Scheduled; its
    /// queue time stays now).
    /// </summary>
    /// <exception cref="ScenarioException">The scenario is invalid (the field is named), its host is not a registered one (field <c>host</c>), or <paramref name="atUtc"/> is in the past (field <c>at</c>).</exception>
    public async Task<RunEntity> EnqueueAsync(ValidScenario scenario, DateTime? atUtc, CancellationToken cancellationToken, string? progressText = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        hosts.EnsureTarget(scenario.Document);
        var now = time.GetUtcNow().UtcDateTime;
        if (atUtc is { } at && at.ToUniversalTime() <= now)
        {
            throw new ScenarioException("at", string.Create(CultureInfo.InvariantCulture,
                $"{at.ToUniversalTime():yyyy-MM-dd HH:mm:ss} UTC is in the past (now {now:yyyy-MM-dd HH:mm:ss} UTC); give a later time, or none to run it now"));
        }

        var due = atUtc?.ToUniversalTime();
        // The plan's estimate as the pages show it (throughputs measured here where there are some), kept with the run so
        // its page can check it against the wall time it took (issue #36).
        var estimate = new DurationEstimator(await summaries.ThroughputsAsync(cancellationToken)).Estimate(scenario.Document);
        var run = await store.EnqueueAsync(scenario, due, progressText, cancellationToken, estimate);
        await runJobs.SubmitAsync(run, cancellationToken);
        events.Publish(new RunUpdate(run.Id, run.Status));
        return run;
    }

    /// <summary>Cancels a queued or scheduled run, or asks a running one to stop.</summary>
    public async Task<CancelResult> CancelAsync(int id, CancellationToken cancellationToken)
    {
        if (worker.CancelRunning(id))
        {
            return CancelResult.Stopping;
        }

        var status = await store.CancelWaitingAsync(id, cancellationToken);
        switch (status)
        {
            case null:
                return CancelResult.NotFound;
            case RunStatus.Cancelled when (await store.FindAsync(id, cancellationToken)) is { Error: "cancelled before it started" } run:
                runJobs.Delete(run);

                events.Publish(new RunUpdate(id, RunStatus.Cancelled));
                return CancelResult.Cancelled;
            case RunStatus.Running:
                // Started between the two checks: ask again.
                return worker.CancelRunning(id) ? CancelResult.Stopping : CancelResult.AlreadyFinished;
            default:
                return CancelResult.AlreadyFinished;
        }
    }

    /// <summary>
    /// Queues a new run with the scenario of run <paramref name="id"/> (e.g. an interrupted one); null when there is no such
    /// run. A run imported from a result bundle (docs/web.md, "Result bundles") is re-run on this machine: against this
    /// dashboard's local service host, unless its scenario's host is one registered here.
    /// </summary>
    /// <exception cref="ScenarioException">The scenario is not valid here (e.g. a variant this build does not serve; the field is named).</exception>
    public async Task<RunEntity?> RequeueAsync(int id, CancellationToken cancellationToken)
    {
        var old = await store.FindAsync(id, cancellationToken);
        if (old is null)
        {
            return null;
        }

        var scenario = ScenarioLoader.Parse(old.ScenarioJson);
        if (old.ImportedJson is not null && !(Uri.TryCreate(scenario.Host, UriKind.Absolute, out var host) && hosts.IsRegistered(host)))
        {
            scenario = scenario with { Host = hosts.LocalAddress.ToString().TrimEnd('/') };
        }

        return await EnqueueAsync(ScenarioLoader.ParseValid(ScenarioLoader.ToJson(scenario)), null, cancellationToken,
            old.ImportedJson is null ? $"queued again from run {id}" : $"queued again from run {id} (imported): on this machine's service host");
    }

    /// <summary>Renames and annotates run <paramref name="id"/> (null: unchanged; empty: cleared); null when there is no such run.</summary>
    public async Task<RunEntity?> AnnotateAsync(int id, string? name, string? notes, CancellationToken cancellationToken)
    {
        var run = await store.AnnotateAsync(id, name, notes, cancellationToken);
        if (run is not null)
        {
            events.Publish(new RunUpdate(id, run.Status));
        }

        return run;
    }

    /// <summary>Deletes a finished run with its samples; null: no such run; false: it has not ended (cancel it first).</summary>
    public async Task<bool?> PurgeAsync(int id, CancellationToken cancellationToken)
    {
        var purged = await store.PurgeAsync(id, cancellationToken);
        if (purged == true)
        {
            logger.LogInformation("Run {RunId} deleted with its levels and samples", id);
            events.Publish(new RunUpdate(id, RunStatus.Cancelled));
        }

        return purged;
    }

    /// <summary>The recurring runs, by id.</summary>
    public IReadOnlyList<RecurringRun> ListRecurring()
    {
        using var connection = storage.GetConnection();
        return connection.GetRecurringJobs()
            .Where(j => j.Job?.Method.Name == nameof(BenchmarkJob.QueueRecurringAsync) || j.LoadException is not null)
            .Select(ToRecurring)
            .OrderBy(r => r.Id, StringComparer.Ordinal)
            .ToList();
    }

    /// <summary>Adds (or replaces) recurring run <paramref name="id"/>: <paramref name="scenario"/> queued at every time <paramref name="cron"/> names (UTC).</summary>
    /// <exception cref="ScenarioException">The id, the cron expression (field <c>cron</c>) or the scenario is invalid, or its host is not a registered one (field <c>host</c>).</exception>
    public RecurringRun AddRecurring(string id, string cron, ValidScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (string.IsNullOrWhiteSpace(id) || id.Length > 100 || !id.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_'))
        {
            throw new ScenarioException("id", "give 1 to 100 letters, digits, '-' or '_'");
        }

        cron = (cron ?? "").Trim();
        hosts.EnsureTarget(scenario.Document);
        var json = scenario.Json;
        try
        {
            recurring.AddOrUpdate<BenchmarkJob>(id, QueueOptions.TriggersQueue, j => j.QueueRecurringAsync(id, cron, json), cron, new RecurringJobOptions { TimeZone = TimeZoneInfo.Utc });
        }
        catch (ArgumentException e) when (e.ParamName is "cronExpression" or null || e.Message.Contains("CRON", StringComparison.OrdinalIgnoreCase))
        {
            throw new ScenarioException("cron", $"'{cron}' is not a cron expression (5 fields: minute hour day-of-month month day-of-week, e.g. '0 2 * * *' for 02:00 UTC every night): {e.Message}");
        }

        logger.LogInformation("Recurring run {RecurringId} set: {Cron}, scenario {Scenario}", id, cron, scenario.Name);
        return ListRecurring().Single(r => r.Id == id);
    }

    /// <summary>Pauses (true) or resumes (false) recurring run <paramref name="id"/>; false when there is no such run.</summary>
    public bool PauseRecurring(string id, bool pause)
    {
        using var connection = storage.GetConnection();
        var job = connection.GetRecurringJobs([id]).SingleOrDefault(j => j.Job is not null && !j.Removed);
        if (job?.Job is null || job.Job.Args.Count < 3 || job.Job.Args[1] is not string cron || job.Job.Args[2] is not string json)
        {
            return false;
        }

        recurring.AddOrUpdate<BenchmarkJob>(id, QueueOptions.TriggersQueue, j => j.QueueRecurringAsync(id, cron, json), pause ? Never : cron, new RecurringJobOptions { TimeZone = TimeZoneInfo.Utc });
        logger.LogInformation("Recurring run {RecurringId} {Action}", id, pause ? "paused" : "resumed");
        return true;
    }

    /// <summary>Deletes recurring run <paramref name="id"/> (the runs it queued stay).</summary>
    public void DeleteRecurring(string id)
    {
        recurring.RemoveIfExists(id);
        logger.LogInformation("Recurring run {RecurringId} deleted", id);
    }

    private static RecurringRun ToRecurring(RecurringJobDto job)
    {
        var args = job.Job?.Args;
        var cron = args is { Count: >= 3 } && args[1] is string c ? c : job.Cron;
        string name;
        try
        {
            name = args is { Count: >= 3 } && args[2] is string json ? ScenarioLoader.Parse(json).Name : "?";
        }
        catch (ScenarioException e)
        {
            name = "?";
            job.Error ??= e.Message;
        }

        var paused = job.Cron == Never;
        return new RecurringRun(job.Id, cron, name, paused, paused ? null : job.NextExecution, job.LastExecution, job.Error ?? job.LoadException?.Message);
    }
}
