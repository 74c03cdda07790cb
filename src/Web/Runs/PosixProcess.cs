using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Dashboard.Web.Runs;

/// <summary>
/// Signals to child processes: SIGTERM asks the runner to stop keeping its samples (exit code 130) and the service host
/// to shut down. SIGTERM, not SIGINT: a process started from a background shell (a script, a container entry point)
/// inherits SIGINT ignored, and .NET keeps it ignored, so SIGINT would not reach the runner or the host.
/// </summary>
internal static partial class PosixProcess
{
    private const int SigTerm = 15;

    /// <summary>Sends SIGTERM to process <paramref name="pid"/>; false when it does not exist any more.</summary>
    public static bool Interrupt(int pid) => Kill(pid, SigTerm) == 0;

    /// <summary>True when process <paramref name="pid"/> is alive and its command line contains <paramref name="nameFragment"/>.</summary>
    public static bool IsAlive(int pid, string nameFragment)
    {
        try
        {
            var cmdline = File.ReadAllText($"/proc/{pid}/cmdline");
            return cmdline.Contains(nameFragment, StringComparison.Ordinal);
        }
        catch (IOException)
        {
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
    }

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

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
