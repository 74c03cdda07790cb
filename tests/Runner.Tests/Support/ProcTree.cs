using System.Globalization;

namespace Dashboard.Runner.Tests.Support;

/// <summary>Child processes read from <c>/proc</c> (the JVM a host supervises, the drivers a runner started).</summary>
public static class ProcTree
{
    /// <summary>The ids of the live children of <paramref name="parentPid"/> whose command line contains <paramref name="fragment"/>.</summary>
    public static int[] Children(int parentPid, string fragment)
    {
        var children = new List<int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            try
            {
                var stat = File.ReadAllText(Path.Combine(directory, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (fields[0] is not ("Z" or "X") && int.Parse(fields[1], CultureInfo.InvariantCulture) == parentPid
                    && File.ReadAllText(Path.Combine(directory, "cmdline")).Contains(fragment, StringComparison.Ordinal))
                {
                    children.Add(pid);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Ended meanwhile.
            }
        }

        return [.. children];
    }
}
