using System.Globalization;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Load;

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
    public static CoreLoad? Start() =>
        File.Exists("/proc/stat") && CpuAffinity.AllowedCores() is { Count: > 0 } cores ? new CoreLoad([.. cores]) : null;

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
