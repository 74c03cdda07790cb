using System.Globalization;

namespace Dashboard.Service.Contracts.Resources;

/// <summary>
/// Reads cumulative CPU counters from Linux <c>/proc</c> (proc(5)): a process's user + system time from
/// <c>/proc/&lt;pid&gt;/stat</c> (the process total, which keeps the time of threads that ended, unlike a sum of
/// <c>/proc/&lt;pid&gt;/task/*/schedstat</c>) and the machine's from <c>/proc/stat</c>. Every method returns null when its
/// file cannot be read (the process ended, not Linux). Used by the service host (<c>GET /cpu</c>) and the runner (its own
/// and its drivers' CPU, its machine's) alike.
/// </summary>
public static class ProcCounters
{
    /// <summary>Clock ticks per second of <c>/proc</c> times (USER_HZ: 100 on Linux x86-64 and arm64).</summary>
    public const double TicksPerSecond = 100.0;

    /// <summary>Process <paramref name="pid"/>'s (user + system CPU seconds, start time in ticks since boot); null when it cannot be read.</summary>
    /// <param name="pid">The process id.</param>
    /// <param name="procRoot">The proc folder; tests pass their own.</param>
    public static (double CpuSeconds, long StartTicks)? Process(int pid, string procRoot = "/proc")
    {
        try
        {
            return ParseProcessStat(File.ReadAllText(Path.Combine(procRoot, pid.ToString(CultureInfo.InvariantCulture), "stat")));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Parses a <c>/proc/&lt;pid&gt;/stat</c> line: fields 14 (utime) + 15 (stime) in seconds, field 22 (starttime) in ticks; null when malformed.</summary>
    public static (double CpuSeconds, long StartTicks)? ParseProcessStat(string stat)
    {
        ArgumentNullException.ThrowIfNull(stat);
        // The command name (field 2) may hold spaces and parentheses: fields after the last ')' start at field 3.
        var close = stat.LastIndexOf(')');
        if (close < 0 || close + 2 > stat.Length)
        {
            return null;
        }

        var fields = stat[(close + 2)..].Split(' ');
        return fields.Length > 19
            && long.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out var utime)
            && long.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out var stime)
            && long.TryParse(fields[19], NumberStyles.None, CultureInfo.InvariantCulture, out var start)
            ? ((utime + stime) / TicksPerSecond, start)
            : null;
    }

    /// <summary>The machine's cumulative CPU time (<c>/proc/stat</c>'s all-cores <c>cpu</c> line); null when it cannot be read.</summary>
    /// <param name="path">The stat file; tests pass their own.</param>
    public static MachineCpuCounters? Machine(string path = "/proc/stat")
    {
        try
        {
            return ParseMachine(File.ReadAllText(path));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Parses the text of a <c>/proc/stat</c>; null when it has no <c>cpu</c> line.</summary>
    public static MachineCpuCounters? ParseMachine(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        long[]? all = null;
        var cores = 0;
        foreach (var line in text.Split('\n'))
        {
            if (!line.StartsWith("cpu", StringComparison.Ordinal))
            {
                break; // the cpu lines come first
            }

            if (line.Length > 3 && char.IsAsciiDigit(line[3]))
            {
                cores++;
                continue;
            }

            // user nice system idle iowait irq softirq steal [guest guest_nice: already inside user and nice]
            var values = line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8)
                .Select(f => long.TryParse(f, NumberStyles.None, CultureInfo.InvariantCulture, out var v) ? v : 0).ToArray();
            all = values.Length >= 4 ? [.. values, .. new long[8 - values.Length]] : null;
        }

        if (all is null)
        {
            return null;
        }

        var busy = all[0] + all[1] + all[2] + all[5] + all[6];
        return new MachineCpuCounters(busy / TicksPerSecond, (all[3] + all[4]) / TicksPerSecond, all[7] / TicksPerSecond, Math.Max(cores, 1));
    }

    /// <summary>The 1-minute load average (<c>/proc/loadavg</c>'s first field); null when it cannot be read.</summary>
    public static double? LoadAverage1(string path = "/proc/loadavg")
    {
        try
        {
            var first = File.ReadAllText(path).Split(' ', 2)[0];
            return double.TryParse(first, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The kernel's boot id (<c>/proc/sys/kernel/random/boot_id</c>): the same for every reader of one machine's <c>/proc/stat</c>; null when it cannot be read.</summary>
    public static string? BootId(string path = "/proc/sys/kernel/random/boot_id")
    {
        try
        {
            return File.ReadAllText(path).Trim() is { Length: > 0 } id ? id : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
