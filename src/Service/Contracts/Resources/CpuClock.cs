using System.Globalization;

namespace Dashboard.Service.Contracts.Resources;

/// <summary>The clock rate a cost per operation is computed with, and where it was read.</summary>
/// <param name="MHz">Clock rate in MHz.</param>
/// <param name="Source">Where it comes from, e.g. "/proc/cpuinfo 'cpu MHz', mean of 2 processors".</param>
public sealed record CpuClock(double MHz, string Source)
{
    /// <summary>The property of a run's <c>EnvironmentJson</c> that records the clock rate (MHz) when the run was measured.</summary>
    public const string EnvironmentProperty = "cpuClockMHz";

    /// <summary>
    /// This machine's clock rate from <c>/proc/cpuinfo</c> (Linux): the mean of the <c>cpu MHz</c> lines over the
    /// processors listed. Null where the file is missing or lists no rate.
    /// </summary>
    public static CpuClock? ReadProcCpuinfo(string path = "/proc/cpuinfo")
    {
        try
        {
            return File.Exists(path) ? Parse(File.ReadAllText(path), path) : null;
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Parses the text of a <c>/proc/cpuinfo</c>: the mean of its <c>cpu MHz</c> lines; null when there is none.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public static CpuClock? Parse(string text, string source = "/proc/cpuinfo")
    {
        ArgumentNullException.ThrowIfNull(text);
        var rates = new List<double>();
        foreach (var line in text.Split('\n'))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon > 0 && line[..colon].Trim() == "cpu MHz"
                && double.TryParse(line[(colon + 1)..].Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out var mhz) && mhz > 0)
            {
                rates.Add(mhz);
            }
        }

        return rates.Count == 0 ? null : new CpuClock(rates.Average(), $"{source} 'cpu MHz', mean of {rates.Count} processor(s)");
    }
}
