using Dashboard.Service.Contracts.Progress;

namespace Dashboard.Web.Runs;

/// <summary>
/// How a run the dashboard ran ends: the one place that turns the runner's exit code (<see cref="ExitCodes"/>), its
/// <c>run-ended</c> event and its last words on stderr, and who asked it to stop, into the run's final status and reason
/// (docs/architecture.md, "One owner per run"; docs/web.md lists the mapping).
/// </summary>
public abstract record RunOutcome
{
    private const string KeptSamples = "the samples measured so far are kept";

    /// <summary>The run ends with <paramref name="Status"/> and <paramref name="Error"/>.</summary>
    /// <param name="Status">Completed, Failed, Cancelled or Interrupted.</param>
    /// <param name="Error">Why it did not complete, or null.</param>
    /// <param name="CompletedLevels">Whole levels done as the runner reported them; null when it could not say (the stored levels are counted).</param>
    /// <param name="EndedByRunner">True when the runner reported its end (<c>run-ended</c>): the run ends now, not at its last level.</param>
    public sealed record Finish(RunStatus Status, string? Error, int? CompletedLevels, bool EndedByRunner) : RunOutcome;

    /// <summary>Another benchmark holds the machine (exit 4): the run waits and is tried again later.</summary>
    public sealed record RetryLater : RunOutcome;

    /// <summary>The outcome of a runner that exited.</summary>
    /// <param name="exitCode">The runner's exit code; .NET reports a child ended by signal N as 128 + N (SIGKILL: 137).</param>
    /// <param name="ended">Its <c>run-ended</c> event, or null when it wrote none (refused, crashed, killed).</param>
    /// <param name="stderrLine">Its last words on stderr (up to three lines, without <c>error: </c>), or null.</param>
    /// <param name="userCancelled">A user cancelled the run (the dashboard sent SIGTERM).</param>
    /// <param name="dashboardStopping">The dashboard is stopping (it sent SIGTERM).</param>
    /// <param name="levelsDone">Levels the dashboard saw completed (<c>level-completed</c>), for a killed runner's reason.</param>
    /// <param name="totalLevels">The run's level count (<c>run-started</c>), for a killed runner's reason.</param>
    public static RunOutcome Of(int exitCode, ProgressEvent? ended, string? stderrLine, bool userCancelled, bool dashboardStopping, int levelsDone, int totalLevels)
    {
        if (exitCode == ExitCodes.MachineBusy && !userCancelled && !dashboardStopping)
        {
            return new RetryLater();
        }

        if (dashboardStopping && !userCancelled)
        {
            return new Finish(RunStatus.Interrupted, $"the dashboard stopped during the run; {KeptSamples} (re-queue it to run again)", ended?.CompletedLevels, EndedByRunner: ended is not null);
        }

        // The runner said how the run ended (completed, failed cells, cancelled, or ended by someone else): its word stands.
        if (ended is { Status: { } said } && Enum.TryParse<RunStatus>(said, out var status) && RunStore.Finished.Contains(status))
        {
            return new Finish(status, ended.Error, ended.CompletedLevels, EndedByRunner: true);
        }

        if (userCancelled)
        {
            return new Finish(RunStatus.Cancelled, $"cancelled by a user; {KeptSamples}", null, EndedByRunner: false);
        }

        return exitCode switch
        {
            ExitCodes.Success => new Finish(RunStatus.Completed, null, null, EndedByRunner: false),
            ExitCodes.RunFailed => new Finish(RunStatus.Failed, stderrLine ?? "the run failed", null, EndedByRunner: false),
            ExitCodes.InvalidScenario => new Finish(RunStatus.Failed, $"the runner refused the scenario: {stderrLine}", null, EndedByRunner: false),
            ExitCodes.HostUnavailable => new Finish(RunStatus.Failed, $"the service host is unreachable: {stderrLine}", null, EndedByRunner: false),
            ExitCodes.Cancelled => new Finish(RunStatus.Interrupted, $"the runner was interrupted (SIGINT from outside the dashboard); {KeptSamples}", null, EndedByRunner: false),
            > 128 and < 160 => new Finish(RunStatus.Failed, Killed(exitCode - 128, stderrLine, levelsDone, totalLevels), null, EndedByRunner: false),
            _ => new Finish(RunStatus.Failed, $"the runner exited with code {exitCode}: {stderrLine}", null, EndedByRunner: false),
        };
    }

    private static string Killed(int signal, string? stderrLine, int levelsDone, int totalLevels)
    {
        var name = signal switch { 9 => " (SIGKILL)", 15 => " (SIGTERM)", 6 => " (SIGABRT)", 11 => " (SIGSEGV)", _ => "" };
        return $"the runner was killed by signal {signal}{name} after {levelsDone} of {totalLevels} levels; the levels it stored before are kept with their samples{(stderrLine is null ? "" : $" (its last words: {stderrLine})")}";
    }
}
