using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Dashboard.Tests.RealProcesses;

/// <summary>
/// Gives the processes tests start a default SIGINT. A test run started as a background job of a non-interactive shell
/// (<c>.ci/run &amp;</c>) has SIGINT and SIGQUIT ignored (POSIX), every child inherits that through exec, and .NET and
/// the JVM leave an inherited-ignored SIGINT ignored: a service host or runner sent SIGINT by a test then never stops, and
/// the test fails for the way the run was launched (a fresh-clone CI started so on 2026-11-28: SigIgn 0x6 down to the
/// host; <c>JvmSupervisorTests</c> and <c>EmulatedLanTests</c> failed). Once per test assembly, before any test: when
/// this process ignores SIGINT, it is set back to the default, which children then inherit.
/// </summary>
internal static partial class SignalDefaults
{
    private const int Sigint = 2;

    [ModuleInitializer]
    internal static void RestoreSigint()
    {
        if (SigintIgnored(File.ReadAllText("/proc/self/status")) && Signal(Sigint, 0) == -1)
        {
            throw new InvalidOperationException($"signal(SIGINT, SIG_DFL) failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    /// <summary>True when the <c>SigIgn</c> mask of a <c>/proc/PID/status</c> text has SIGINT's bit (1 &lt;&lt; 1).</summary>
    internal static bool SigintIgnored(string status)
    {
        var line = status.Split('\n').FirstOrDefault(l => l.StartsWith("SigIgn:", StringComparison.Ordinal));
        return line is not null && (ulong.Parse(line["SigIgn:".Length..].Trim(), NumberStyles.HexNumber, CultureInfo.InvariantCulture) & (1UL << (Sigint - 1))) != 0;
    }

    // signal(2): the handler argument 0 is SIG_DFL; returns the previous handler, or SIG_ERR (-1).
    [LibraryImport("libc", EntryPoint = "signal", SetLastError = true)]
    private static partial nint Signal(int signum, nint handler);
}
