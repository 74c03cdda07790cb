using System.Globalization;

namespace Dashboard.Data.Runs;

/// <summary>
/// A process as Linux knows it: its id, its start time and the boot it started in (<c>/proc/PID/stat</c> field 22 and
/// <c>/proc/sys/kernel/random/boot_id</c>). A recorded process id alone is not enough to say a process still runs: the
/// kernel gives ids to new processes again, and after a reboot every id is new. Stored with a run so whoever finds the
/// run left <c>Running</c> can tell whether its runner is still at work.
/// </summary>
/// <param name="Pid">The process id.</param>
/// <param name="StartTicks">When the process started, in clock ticks since boot (<c>starttime</c> of <c>proc(5)</c>).</param>
/// <param name="BootId">The kernel's boot id when the process ran.</param>
/// <param name="MachineId">The machine's id (<c>/etc/machine-id</c>), or null where it cannot be read or was not recorded
/// (runs stored before it was): with a results database that several machines share (PostgreSQL, docs/architecture.md,
/// "Storage"), only the machine a runner ran on can tell whether it still runs.</param>
public sealed record ProcessIdentity(int Pid, long StartTicks, string BootId, string? MachineId = null)
{
    private const string MachineIdFile = "/etc/machine-id";

    /// <summary>The current process, or null where <c>/proc</c> cannot be read (not Linux): nothing can be checked later then.</summary>
    public static ProcessIdentity? Current() => Of(Environment.ProcessId);

    /// <summary>The running process with id <paramref name="pid"/>, or null when none runs (a zombie counts as ended) or <c>/proc</c> cannot be read.</summary>
    public static ProcessIdentity? Of(int pid)
    {
        string stat;
        string bootId;
        try
        {
            stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");
            bootId = File.ReadAllText("/proc/sys/kernel/random/boot_id").Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields are counted after the last ')'.
        var fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        const int StateField = 0;      // field 3
        const int StartTimeField = 19; // field 22
        if (fields.Length <= StartTimeField || fields[StateField] is "Z" or "X"
            || !long.TryParse(fields[StartTimeField], NumberStyles.None, CultureInfo.InvariantCulture, out var startTicks))
        {
            return null;
        }

        return new ProcessIdentity(pid, startTicks, bootId, ThisMachineId());
    }

    /// <summary>True while this very process runs: same id, same start time, same boot, not a zombie (on this machine; see <see cref="IsOnThisMachine"/>).</summary>
    public bool IsAlive() => Of(Pid) is { } now && now.StartTicks == StartTicks && now.BootId == BootId;

    /// <summary>
    /// True when the process ran on this machine, or its machine is unknown (recorded before machine ids were): only then
    /// can <see cref="IsAlive"/> answer for it; a process of another machine sharing the database is that machine's to judge.
    /// </summary>
    public bool IsOnThisMachine() => MachineId is null || ThisMachineId() is not { } here || MachineId == here;

    private static string? ThisMachineId()
    {
        try
        {
            var id = File.ReadAllText(MachineIdFile).Trim();
            return id.Length == 0 ? null : id;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
