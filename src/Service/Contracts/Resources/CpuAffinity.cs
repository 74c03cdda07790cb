using System.Globalization;

namespace Dashboard.Service.Contracts.Resources;

/// <summary>
/// The cores this process may run on now: its CPU affinity, read from <c>Cpus_allowed_list</c> of
/// <c>/proc/self/status</c> at each call. <see cref="Environment.ProcessorCount"/> is read once when the runtime
/// starts, so it misses a <c>taskset -p</c> made after that (the runner pins itself for an emulated-lan run; a user may
/// pin a running host): a CPU share divided by it would be halved on a 2-core machine.
/// </summary>
public static class CpuAffinity
{
    /// <summary>The cores this process may run on now, ascending; null where <paramref name="statusPath"/> cannot be read or has no list (not Linux).</summary>
    /// <param name="statusPath">The status file to read; tests pass their own.</param>
    public static IReadOnlySet<int>? AllowedCores(string statusPath = "/proc/self/status")
    {
        try
        {
            var line = File.ReadLines(statusPath).FirstOrDefault(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));
            return line is null ? null : Parse(line["Cpus_allowed_list:".Length..]);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            return null;
        }
    }

    /// <summary>How many cores this process may run on now (≥ 1): <see cref="AllowedCores"/>, else <see cref="Environment.ProcessorCount"/>.</summary>
    public static int CoreCount() => AllowedCores() is { Count: > 0 } cores ? cores.Count : Environment.ProcessorCount;

    /// <summary>Parses a CPU list such as <c>0-1,3</c> (the kernel's list format) into its cores, ascending.</summary>
    /// <exception cref="FormatException">A part is not a core number or a range of them.</exception>
    public static IReadOnlySet<int> Parse(string list)
    {
        var cores = new SortedSet<int>();
        foreach (var part in list.Trim().Split(',', StringSplitOptions.RemoveEmptyEntries))
        {
            var range = part.Split('-');
            var from = int.Parse(range[0], NumberStyles.None, CultureInfo.InvariantCulture);
            var to = range.Length > 1 ? int.Parse(range[1], NumberStyles.None, CultureInfo.InvariantCulture) : from;
            for (var c = from; c <= to; c++)
            {
                cores.Add(c);
            }
        }

        return cores;
    }
}
