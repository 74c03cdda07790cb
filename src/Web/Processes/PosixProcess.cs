using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Dashboard.Web.Processes;

/// <summary>
/// Signals to child processes: SIGTERM asks the runner to stop keeping its samples (exit code 130) and the service host
/// to shut down. SIGTERM, not SIGINT: a process started from a background shell (a script, a container entry point)
/// inherits SIGINT ignored, and .NET keeps it ignored, so SIGINT would not reach the runner or the host.
/// </summary>
internal static partial class PosixProcess
{
    private const int SigTerm = 15;
    private const int SigKill = 9;

    /// <summary>Sends SIGTERM to process <paramref name="pid"/>; false when it does not exist any more.</summary>
    public static bool Interrupt(int pid) => Kill(pid, SigTerm) == 0;

    /// <summary>Sends SIGTERM, waits up to <paramref name="timeout"/>, then kills the process tree.</summary>
    public static async Task StopAsync(Process process, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(process);
        if (process.HasExited)
        {
            return;
        }

        Interrupt(process.Id);
        using var wait = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(wait.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None);
        }
    }

    /// <summary>
    /// Ends the process <paramref name="process"/> names (id and start time: a process that got the id since is left
    /// alone): SIGTERM, up to <paramref name="timeout"/> to exit, then SIGKILL. Returns at once when it no longer runs.
    /// </summary>
    public static async Task EndAsync(Dashboard.Data.Runs.ProcessIdentity process, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(process);
        if (!process.IsAlive())
        {
            return;
        }

        Interrupt(process.Pid);
        var deadline = DateTime.UtcNow + timeout;
        while (process.IsAlive() && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100, cancellationToken);
        }

        if (process.IsAlive())
        {
            Kill(process.Pid, SigKill);
            for (var i = 0; i < 50 && process.IsAlive(); i++)
            {
                await Task.Delay(100, cancellationToken);
            }
        }
    }

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
