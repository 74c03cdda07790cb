using System.Globalization;

namespace Dashboard.Data.Runs;

/// <summary>
/// A runner tried to store a level of a run that is no longer <c>Running</c>: someone else ended it (a restarted dashboard
/// marked it Interrupted, a user cancelled it). Nothing was stored; the runner stops.
/// </summary>
public sealed class RunNotRunningException : Exception
{
    /// <summary>Creates the error for run <paramref name="runId"/>, whose status is now <paramref name="status"/> (null: the run is gone).</summary>
    public RunNotRunningException(int runId, string? status)
        : base(string.Create(CultureInfo.InvariantCulture,
            $"run {runId} is {status ?? "deleted"}, no longer Running (someone else ended it); nothing more is stored for it"))
    {
        RunId = runId;
        Status = status;
    }

    /// <summary>The run.</summary>
    public int RunId { get; }

    /// <summary>Its status now, or null when the row is gone.</summary>
    public string? Status { get; }
}
