namespace Dashboard.Tests.RealProcesses;

/// <summary>
/// Counts the expensive processes tests start (service hosts, dashboards, Chromium), so that work on CI time can show
/// how many a set of tests starts rather than how long it took on a shared machine: when the environment variable
/// <see cref="Variable"/> names a file, every start appends one line with its kind to it; otherwise nothing is written.
/// </summary>
public static class ProcessStarts
{
    /// <summary>The environment variable that names the file (absent: no counting).</summary>
    public const string Variable = "DASHBOARD_TEST_STARTS";

    private static readonly Lock Gate = new();

    /// <summary>Appends <paramref name="kind"/> (e.g. <c>service-host</c>) as a line to the file, if one is named.</summary>
    public static void Record(string kind)
    {
        var path = Environment.GetEnvironmentVariable(Variable);
        if (string.IsNullOrEmpty(path))
        {
            return;
        }

        lock (Gate)
        {
            File.AppendAllText(path, kind + "\n");
        }
    }
}
