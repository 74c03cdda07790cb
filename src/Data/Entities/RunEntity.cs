namespace Dashboard.Data.Entities;

/// <summary>
/// One execution of a scenario. Keeps a snapshot of the document it ran, so later edits of the
/// scenario never change what a run's results mean.
/// </summary>
public class RunEntity
{
    /// <summary>Primary key, assigned by the database; the id in permalinks (<c>/runs/{id}</c>).</summary>
    public int Id { get; set; }

    /// <summary>Name of the scenario at the time of the run.</summary>
    public required string ScenarioName { get; set; }

    /// <summary>A name a user gave the run (PATCH /api/runs/{id}, the Queue page), or null: pages show <see cref="ScenarioName"/> then.</summary>
    public string? Name { get; set; }

    /// <summary>Free-text notes a user wrote about the run (what was special about the machine, why it was run), or null.</summary>
    public string? Notes { get; set; }

    /// <summary>
    /// The id of the queue job that runs this run (a Hangfire background job id, docs/architecture.md "The queue"), or
    /// null for runs started by a runner on its own (headless) and rows written before the queue recorded it.
    /// </summary>
    public string? JobId { get; set; }

    /// <summary>The scenario document that was run, as JSON.</summary>
    public required string ScenarioJson { get; set; }

    /// <summary>Where the run is in its life cycle; stored as the member's name.</summary>
    public RunStatus Status { get; set; }

    /// <summary>When the run was queued (UTC), also for a run scheduled to start later (<see cref="ScheduledUtc"/>).</summary>
    public DateTime CreatedUtc { get; set; }

    /// <summary>For a run queued to start later: the time it is due (UTC); null for a run queued to start as soon as possible.</summary>
    public DateTime? ScheduledUtc { get; set; }

    /// <summary>When the runner started driving load (UTC), or null while queued.</summary>
    public DateTime? StartedUtc { get; set; }

    /// <summary>When the run ended, however it ended (UTC), or null while queued or running.</summary>
    public DateTime? EndedUtc { get; set; }

    /// <summary>Machine, OS, runtime and component versions of the run, as JSON; null until known.</summary>
    public string? EnvironmentJson { get; set; }

    /// <summary>
    /// Where the service host ran relative to the load generator (docs/topologies.md): <c>same-machine</c> (default, and
    /// every run recorded before topologies existed), <c>emulated-lan</c> or <c>remote</c>. Results group by it.
    /// </summary>
    public string Topology { get; set; } = "same-machine";

    /// <summary>The emulated link's rate in Mbit/s (both directions) of an <c>emulated-lan</c> run, else null.</summary>
    public int? LinkRateMbps { get; set; }
    /// Seed of the random order in which each repetition ran the cells (docs/statistics.md: repetition r runs every cell
    /// once, in an order drawn from this seed); null for runs stored before the order was randomized.
    /// </summary>
    public int? OrderSeed { get; set; }

    /// <summary>One line saying why the run failed, or null.</summary>
    public string? Error { get; set; }

    /// <summary>Human-readable progress, e.g. "cell 2/6, level 10 clients"; null when not running.</summary>
    public string? ProgressText { get; set; }

    /// <summary>Number of levels finished so far.</summary>
    public int CompletedLevels { get; set; }

    /// <summary>Number of levels the scenario expands to.</summary>
    public int TotalLevels { get; set; }

    /// <summary>
    /// For a run imported from a result bundle (docs/web.md, "Result bundles"): where it came from, as JSON
    /// (<see cref="Export.BundleOrigin"/>: the run's id on the exporting dashboard, when, by which product version and
    /// commit, and its reproduce command); null for a run measured here. An imported run is read-only.
    /// </summary>
    public string? ImportedJson { get; set; }

    /// <summary>
    /// The plan's expected wall time in seconds, computed when the run was queued (<c>DurationEstimator</c>, docs/web.md
    /// "Durations"; issue #36): the figure the user saw, kept so the finished run's page can check it against the run.
    /// Null for runs queued before it was stored and for imported runs.
    /// </summary>
    public double? EstimatedSeconds { get; set; }

    /// <summary>The low end of the estimate's range, s (every steady-state warm-up at its shortest); null without a range.</summary>
    public double? EstimatedLowSeconds { get; set; }

    /// <summary>The high end of the estimate's range, s (every warm-up to its cap, a precision target's whole time limit); null without a range.</summary>
    public double? EstimatedHighSeconds { get; set; }

    /// <summary>Per-level aggregates, when loaded. Deleted with the run.</summary>
    public ICollection<LevelEntity> Levels { get; } = [];

    /// <summary>Server resource time series, when loaded. Deleted with the run.</summary>
    public ICollection<ResourceSampleEntity> ResourceSamples { get; } = [];
}
