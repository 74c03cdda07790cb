using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Web.Runs;

namespace Dashboard.Web.Tests.Runs;

/// <summary>The one mapping from a runner's exit code and <c>run-ended</c> event to the run's final status and reason.</summary>
public sealed class RunOutcomeTests
{
    private static ProgressEvent Ended(string status, string? error, int done) =>
        new(ProgressEvents.RunEnded, 7, done, 5) { Status = status, Error = error };

    [Fact]
    public void Of_RunEndedEventFailed_TakesTheRunnersStatusReasonAndLevels()
    {
        var outcome = RunOutcome.Of(ExitCodes.RunFailed, Ended("Failed", "1 of 2 cells failed", 3), "ignored", userCancelled: false, dashboardStopping: false, 2, 5);

        Assert.Equal(new RunOutcome.Finish(RunStatus.Failed, "1 of 2 cells failed", 3, EndedByRunner: true), outcome);
    }

    [Fact]
    public void Of_UserCancelledAndRunnerSaidCancelled_CancelledWithTheRunnersReason()
    {
        var outcome = RunOutcome.Of(ExitCodes.Cancelled, Ended("Cancelled", "cancelled after 1 of 5 levels", 1), null, userCancelled: true, dashboardStopping: false, 1, 5);

        Assert.Equal(new RunOutcome.Finish(RunStatus.Cancelled, "cancelled after 1 of 5 levels", 1, EndedByRunner: true), outcome);
    }

    [Fact]
    public void Of_DashboardStopping_InterruptedWhateverTheRunnerSaid()
    {
        var outcome = RunOutcome.Of(ExitCodes.Cancelled, Ended("Cancelled", "cancelled", 1), null, userCancelled: false, dashboardStopping: true, 1, 5);

        var finish = Assert.IsType<RunOutcome.Finish>(outcome);
        Assert.Equal(RunStatus.Interrupted, finish.Status);
        Assert.StartsWith("the dashboard stopped during the run", finish.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(ExitCodes.InvalidScenario, "Failed", "the runner refused the scenario: variants[0]: no")]
    [InlineData(ExitCodes.HostUnavailable, "Failed", "the service host is unreachable: variants[0]: no")]
    [InlineData(ExitCodes.Cancelled, "Interrupted", "the runner was interrupted (SIGINT from outside the dashboard); the samples measured so far are kept")]
    [InlineData(137, "Failed", "the runner was killed by signal 9 (SIGKILL) after 2 of 5 levels; the levels it stored before are kept with their samples (its last words: variants[0]: no)")]
    [InlineData(42, "Failed", "the runner exited with code 42: variants[0]: no")]
    public void Of_NoRunEndedEvent_StatusAndReasonFromTheExitCode(int exitCode, string status, string error)
    {
        var outcome = RunOutcome.Of(exitCode, null, "variants[0]: no", userCancelled: false, dashboardStopping: false, 2, 5);

        Assert.Equal(new RunOutcome.Finish(Enum.Parse<RunStatus>(status), error, null, EndedByRunner: false), outcome);
    }

    [Fact]
    public void Of_MachineBusy_RetryLaterUnlessStopped()
    {
        Assert.IsType<RunOutcome.RetryLater>(RunOutcome.Of(ExitCodes.MachineBusy, null, "busy", userCancelled: false, dashboardStopping: false, 0, 0));
        Assert.IsType<RunOutcome.Finish>(RunOutcome.Of(ExitCodes.MachineBusy, null, "busy", userCancelled: true, dashboardStopping: false, 0, 0));
    }
}
