using System.Globalization;

namespace Dashboard.Runner.Execution;

/// <summary>
/// How busy the cores this process may use were (by any process), from <c>/proc/stat</c>'s per-core counters for the
/// cores in <c>/proc/self/status</c>'s <c>Cpus_allowed_list</c>. A generator whose cores are saturated could not get
/// more CPU, whether it used them itself or shared them (a shared machine): either way it was the limit.
/// </summary>
public sealed class CoreLoad
{
    private readonly HashSet<int> _cores;
    private readonly (long Busy, long Total) _start;

    private CoreLoad(HashSet<int> cores)
    {
        _cores = cores;
        _start = Read(cores);
    }

    /// <summary>The cores this process may use (its CPU affinity), as read when measuring started.</summary>
    public IReadOnlySet<int> Cores => _cores;

    /// <summary>Starts measuring; null where <c>/proc</c> cannot be read (not Linux).</summary>
    public static CoreLoad? Start()
    {
        try
        {
            var allowed = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));
            if (allowed is null || !File.Exists("/proc/stat"))
            {
                return null;
            }

            var cores = new HashSet<int>();
            foreach (var part in allowed["Cpus_allowed_list:".Length..].Trim().Split(',', StringSplitOptions.RemoveEmptyEntries))
            {
                var range = part.Split('-');
                var from = int.Parse(range[0], CultureInfo.InvariantCulture);
                var to = range.Length > 1 ? int.Parse(range[1], CultureInfo.InvariantCulture) : from;
                for (var c = from; c <= to; c++)
                {
                    cores.Add(c);
                }
            }

            return new CoreLoad(cores);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }

    /// <summary>Busy share of the allowed cores since <see cref="Start"/>, % (0–100): (all − idle − iowait) ÷ all jiffies; null when no time passed.</summary>
    public double? BusyPercent()
    {
        var (busy, total) = Read(_cores);
        var dt = total - _start.Total;
        return dt > 0 ? Math.Clamp(100.0 * (busy - _start.Busy) / dt, 0, 100) : null;
    }

    private static (long Busy, long Total) Read(HashSet<int> cores)
    {
        long busy = 0, total = 0;
        foreach (var line in File.ReadLines("/proc/stat"))
        {
            if (!line.StartsWith("cpu", StringComparison.Ordinal) || line.Length < 4 || !char.IsAsciiDigit(line[3]))
            {
                continue;
            }

            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (!cores.Contains(int.Parse(fields[0].AsSpan(3), CultureInfo.InvariantCulture)))
            {
                continue;
            }

            // user nice system idle iowait irq softirq steal (guest time is inside user/nice already).
            var values = fields.Skip(1).Take(8).Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
            var all = values.Sum();
            total += all;
            busy += all - values[3] - values[4];
        }

        return (busy, total);
    }
}
