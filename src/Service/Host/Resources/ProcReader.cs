using System.Globalization;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Host.Resources;

/// <summary>Reads the Linux <c>/proc</c> counters the resource monitor needs; every method returns null when the file cannot be read.</summary>
public static class ProcReader
{
    /// <summary>Clock ticks per second of <c>/proc/*/stat</c> times (USER_HZ, 100 on Linux x86-64 and arm64).</summary>
    public const double TicksPerSecond = 100.0;

    /// <summary>
    /// Machine CPU counters from <c>/proc/stat</c>, in ticks: (busy, total); busy excludes idle and iowait. With
    /// <paramref name="cores"/> (e.g. the host's own cores when it is pinned on an <c>emulated-lan</c> run,
    /// docs/topologies.md) the sum of those cores' <c>cpuN</c> lines, else the all-cores <c>cpu</c> line.
    /// </summary>
    public static (long Busy, long Total)? MachineCpu(string path = "/proc/stat", IReadOnlySet<int>? cores = null)
    {
        try
        {
            long busy = 0, total = 0;
            var found = false;
            foreach (var line in File.ReadLines(path))
            {
                var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (fields.Length < 5 || !fields[0].StartsWith("cpu", StringComparison.Ordinal))
                {
                    break; // the cpu lines come first
                }

                var wanted = cores is null
                    ? fields[0] == "cpu"
                    : fields[0].Length > 3 && int.TryParse(fields[0].AsSpan(3), NumberStyles.None, CultureInfo.InvariantCulture, out var core) && cores.Contains(core);
                if (!wanted)
                {
                    continue;
                }

                // user nice system idle iowait irq softirq steal (guest time is already in user).
                var values = fields.Skip(1).Take(8).Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
                var sum = values.Sum();
                var idle = values[3] + (values.Length > 4 ? values[4] : 0);
                (busy, total, found) = (busy + sum - idle, total + sum, true);
            }

            return found ? (busy, total) : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }

    /// <summary>
    /// The cores this process may run on (<c>Cpus_allowed_list</c> of <c>/proc/self/status</c>, e.g. <c>0-1,3</c>), or null
    /// when it may run on every core of the machine or the list cannot be read.
    /// </summary>
    public static IReadOnlySet<int>? AllowedCores(string statusPath = "/proc/self/status", string statPath = "/proc/stat") =>
        CpuAffinity.AllowedCores(statusPath) is { Count: > 0 } cores && MachineCores(statPath) is { } machine && cores.Count < machine ? cores : null;

    /// <summary>The machine's logical cores (the <c>cpuN</c> lines of <c>/proc/stat</c>), or null when it cannot be read.</summary>
    public static int? MachineCores(string statPath = "/proc/stat")
    {
        try
        {
            return File.ReadLines(statPath).TakeWhile(l => l.StartsWith("cpu", StringComparison.Ordinal)).Count(l => l.Length > 3 && char.IsAsciiDigit(l[3])) is > 0 and var n ? n : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Available memory in MB (<c>MemAvailable</c> of <c>/proc/meminfo</c>).</summary>
    public static double? AvailableMemoryMb(string path = "/proc/meminfo") => MemInfoKb(path, "MemAvailable:") / 1024.0;

    /// <summary>CPU time (user + system) of process <paramref name="pid"/> in seconds, from <c>/proc/{pid}/stat</c>.</summary>
    public static double? ProcessCpuSeconds(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // The command name (field 2) may hold spaces: fields after the last ')' start at field 3.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            var utime = long.Parse(fields[11], CultureInfo.InvariantCulture);
            var stime = long.Parse(fields[12], CultureInfo.InvariantCulture);
            return (utime + stime) / TicksPerSecond;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>Resident memory (<c>VmRSS</c>) of process <paramref name="pid"/> in MB.</summary>
    public static double? ResidentMb(int pid) => MemInfoKb($"/proc/{pid}/status", "VmRSS:") / 1024.0;

    private static double? MemInfoKb(string path, string key)
    {
        try
        {
            foreach (var line in File.ReadLines(path))
            {
                if (line.StartsWith(key, StringComparison.Ordinal))
                {
                    var value = line[key.Length..].Trim().Split(' ')[0];
                    return double.Parse(value, CultureInfo.InvariantCulture);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }

        return null;
    }
}
