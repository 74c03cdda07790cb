using System.Runtime.InteropServices;

namespace Dashboard.Web.Tests.Support;

/// <summary>POSIX signals for the processes the tests start.</summary>
internal static partial class Signals
{
    /// <summary>Sends SIGINT (what Ctrl+C and <c>docker stop</c>-like shutdowns send) to <paramref name="pid"/>.</summary>
    public static void Interrupt(int pid) => _ = Kill(pid, 2);

    /// <summary>True when process <paramref name="pid"/> exists.</summary>
    public static bool IsAlive(int pid) => Directory.Exists($"/proc/{pid}") && !File.ReadAllText($"/proc/{pid}/stat").Contains(") Z ", StringComparison.Ordinal);

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int pid, int signal);
}
