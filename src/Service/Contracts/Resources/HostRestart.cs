namespace Dashboard.Service.Contracts.Resources;

/// <summary>
/// A fresh service host process per launch (issue #32, docs/statistics.md "Launches"): a runner asks the host to restart
/// with <c>POST /restart</c> (control token); a host started by a supervisor that restarts it (the dashboard's local host:
/// <c>ServiceHost:RestartOnRequest</c>) answers 202 with its process id, stops its stacks and exits with
/// <see cref="ExitCode"/>, and the supervisor starts it again at once, on the same ports and data folder. Any other host
/// answers 409 (nobody would start it again), and the launches then share it.
/// </summary>
public static class HostRestart
{
    /// <summary>The control API's route.</summary>
    public const string Path = "/restart";

    /// <summary>The host's exit code when it ends on request: 75 (<c>EX_TEMPFAIL</c>, sysexits.h), "start me again".</summary>
    public const int ExitCode = 75;
}

/// <summary>The host's answer to <c>POST /restart</c> (202): the process that is about to exit.</summary>
/// <param name="ProcessId">The ending host process's id; the restarted host reports another one in <c>GET /cpu</c>.</param>
public sealed record HostRestartAccepted(int ProcessId);
