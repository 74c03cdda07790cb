using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Dashboard.Web.Runs;

/// <summary>Signals to child processes: SIGINT asks the runner to stop keeping its samples (exit code 130).</summary>
internal static partial class PosixProcess
{
    private const int SigInt = 2;

    /// <summary>Sends SIGINT to process <paramref name="pid"/>; false when it does not exist any more.</summary>
    public static bool Interrupt(int pid) => Kill(pid, SigInt) == 0;

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

    /// <summary>Sends SIGINT, waits up to <paramref name="timeout"/>, then kills the process tree.</summary>
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
