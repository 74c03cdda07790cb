using System.Globalization;

namespace Dashboard.Web.Components.Pages;

/// <summary>A run's elapsed time and, while it runs, its estimated time left.</summary>
/// <param name="Elapsed">Time since the run started, e.g. <c>1 h 02 min</c>, <c>3 min 05 s</c>, <c>12 s</c>.</param>
/// <param name="Eta">Estimated time left (elapsed ÷ completed levels × levels left), or null before the first level ends or after the run.</param>
public sealed record RunTiming(string Elapsed, string? Eta)
{
    /// <summary>The timing of a run started at <paramref name="startedUtc"/>, seen at <paramref name="nowUtc"/>.</summary>
    public static RunTiming Of(DateTime startedUtc, DateTime nowUtc, int completedLevels, int totalLevels, bool running)
    {
        var elapsed = nowUtc - startedUtc;
        if (elapsed < TimeSpan.Zero)
        {
            elapsed = TimeSpan.Zero;
        }

        string? eta = null;
        if (running && completedLevels > 0 && totalLevels > completedLevels)
        {
            eta = Text(elapsed / completedLevels * (totalLevels - completedLevels));
        }

        return new RunTiming(Text(elapsed), eta);
    }

    /// <summary>
    /// The estimate made when the run was queued checked against the run (issue #36): <c>estimated 164 s (116–212 s), took
    /// 173 s: ×1.05, within its range</c>. The range is left out when the estimate has none (or it rounds to one figure);
    /// the ratio is the wall time taken ÷ the estimate.
    /// </summary>
    /// <param name="estimatedSeconds">The plan's expected wall time, s (<c>Runs.EstimatedSeconds</c>); must be positive.</param>
    /// <param name="lowSeconds">The low end of its range, s, or null.</param>
    /// <param name="highSeconds">The high end of its range, s, or null.</param>
    /// <param name="took">The run's wall time, start to end.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="estimatedSeconds"/> is not positive.</exception>
    public static string EstimateCheck(double estimatedSeconds, double? lowSeconds, double? highSeconds, TimeSpan took)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(estimatedSeconds);
        var estimate = Short(TimeSpan.FromSeconds(estimatedSeconds));
        var range = "";
        var within = "";
        if (lowSeconds is { } low && highSeconds is { } high)
        {
            var lowText = Short(TimeSpan.FromSeconds(low));
            var highText = Short(TimeSpan.FromSeconds(high));
            if (lowText != highText)
            {
                var (lowNumber, lowUnit) = Split(lowText);
                var (_, highUnit) = Split(highText);
                range = lowUnit == highUnit ? $" ({lowNumber}–{highText})" : $" ({lowText} – {highText})";
            }

            within = took.TotalSeconds >= low && took.TotalSeconds <= high ? ", within its range" : ", outside its range";
        }

        var ratio = took.TotalSeconds / estimatedSeconds;
        return string.Create(CultureInfo.InvariantCulture, $"estimated {estimate}{range}, took {Short(took)}: ×{ratio:0.00}{within}");
    }

    /// <summary>Seconds below 10 min (a ratio near 1 needs them), whole minutes below 2 h, hours with one decimal above.</summary>
    private static string Short(TimeSpan duration) =>
        duration < TimeSpan.FromMinutes(10) ? string.Create(CultureInfo.InvariantCulture, $"{Math.Round(duration.TotalSeconds, MidpointRounding.AwayFromZero):0} s")
        : duration < TimeSpan.FromHours(2) ? string.Create(CultureInfo.InvariantCulture, $"{Math.Round(duration.TotalMinutes, MidpointRounding.AwayFromZero):0} min")
        : string.Create(CultureInfo.InvariantCulture, $"{duration.TotalHours:0.#} h");

    private static (string Number, string Unit) Split(string text)
    {
        var space = text.LastIndexOf(' ');
        return (text[..space], text[(space + 1)..]);
    }

    /// <summary><c>2 h 05 min</c>, <c>3 min 07 s</c> or <c>12 s</c>.</summary>
    public static string Text(TimeSpan span) =>
        span.TotalHours >= 1 ? string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalHours} h {span.Minutes:00} min")
        : span.TotalMinutes >= 1 ? string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalMinutes} min {span.Seconds:00} s")
        : string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalSeconds} s");
}
