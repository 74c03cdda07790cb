using System.ComponentModel.DataAnnotations;

namespace Dashboard.Web.Options;

/// <summary>Section <c>Dashboard:Queue</c>: the run queue's storage and Hangfire's own dashboard (docs/architecture.md, "The queue").</summary>
public sealed class QueueOptions
{
    /// <summary>The configuration section.</summary>
    public const string Section = "Dashboard:Queue";

    /// <summary>The queue of benchmark jobs; one worker serves it, so one benchmark runs at a time.</summary>
    public const string BenchmarksQueue = "benchmarks";

    /// <summary>The queue of light jobs (a recurring run's trigger, which only queues a run); its own worker.</summary>
    public const string TriggersQueue = "default";

    /// <summary>With <c>Dashboard:Storage=PostgreSql</c>: the schema of Hangfire's tables in the results database.</summary>
    public const string PostgreSqlSchema = "hangfire";

    /// <summary>
    /// File name (or path, relative to <c>Dashboard:DataFolder</c>) of the queue's SQLite storage, beside the results
    /// database. Not used with <c>Dashboard:Storage=PostgreSql</c>: the queue is then in the results database (<see cref="PostgreSqlSchema"/>).
    /// </summary>
    [Required]
    public string Storage { get; set; } = "hangfire.db";

    /// <summary>How often the worker looks for a new job; a run queued now starts within this time.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan PollInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// How often the schedulers look for jobs due now (a run for later, a recurring run's firing): such a run is queued
    /// within this time after its time. Each look takes and frees a lock in the queue's storage (a few writes) and goes on
    /// while a benchmark runs, where the dashboard's CPU is others' to the run's disturbed check (bench/README.md, "The
    /// dashboard's own CPU while a run goes"). Default 5 s (Hangfire's own default is 15 s).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:05:00")]
    public TimeSpan SchedulePollInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Where Hangfire's own dashboard is served.</summary>
    [Required]
    [RegularExpression("^/[A-Za-z0-9/_-]*$", ErrorMessage = "Dashboard:Queue:DashboardPath must start with / and hold letters, digits, /, _ or -")]
    public string DashboardPath { get; set; } = "/hangfire";

    /// <summary>
    /// Serve Hangfire's dashboard to remote clients too. Default false: local requests only (it can delete and re-queue
    /// jobs, and has no login of its own).
    /// </summary>
    public bool DashboardRemoteAccess { get; set; }

    /// <summary>The storage file, absolute, given the data folder.</summary>
    public string StoragePath(string dataFolder) => Path.GetFullPath(Path.Combine(dataFolder, Storage));
}
