using System.Globalization;

namespace Dashboard.Service.Host.Resources;

/// <summary>Reads the Linux <c>/proc</c> counters the resource monitor needs; every method returns null when the file cannot be read.</summary>
public static class ProcReader
{
    /// <summary>Clock ticks per second of <c>/proc/*/stat</c> times (USER_HZ, 100 on Linux x86-64 and arm64).</summary>
    public const double TicksPerSecond = 100.0;

    /// <summary>Machine CPU counters from <c>/proc/stat</c>'s <c>cpu</c> line, in ticks: (busy, total); busy excludes idle and iowait.</summary>
    public static (long Busy, long Total)? MachineCpu(string path = "/proc/stat")
    {
        try
        {
            using var reader = new StreamReader(path);
            var fields = reader.ReadLine()?.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields is null || fields.Length < 5 || fields[0] != "cpu")
            {
                return null;
            }

            // user nice system idle iowait irq softirq steal (guest time is already in user).
            var values = fields.Skip(1).Take(8).Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
            var total = values.Sum();
            var idle = values[3] + (values.Length > 4 ? values[4] : 0);
            return (total - idle, total);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
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
