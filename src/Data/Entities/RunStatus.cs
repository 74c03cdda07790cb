namespace Dashboard.Data.Entities;

/// <summary>
/// Life cycle of a run. Stored as its name (a string column), so members may be reordered but
/// never renamed.
/// </summary>
public enum RunStatus
{
    /// <summary>Accepted and waiting for the benchmark worker.</summary>
    Queued,

    /// <summary>Waiting for the time it was scheduled for (<see cref="RunEntity.ScheduledUtc"/>), then Queued.</summary>
    Scheduled,

    /// <summary>The runner process is driving load.</summary>
    Running,

    /// <summary>Every level ran to its end.</summary>
    Completed,

    /// <summary>The run stopped on an error; <see cref="RunEntity.Error"/> says which.</summary>
    Failed,

    /// <summary>A user cancelled the run.</summary>
    Cancelled,

    /// <summary>The dashboard or runner stopped while the run was running (crash, restart).</summary>
    Interrupted,
}
