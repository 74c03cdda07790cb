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

    /// <summary><c>2 h 05 min</c>, <c>3 min 07 s</c> or <c>12 s</c>.</summary>
    public static string Text(TimeSpan span) =>
        span.TotalHours >= 1 ? string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalHours} h {span.Minutes:00} min")
        : span.TotalMinutes >= 1 ? string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalMinutes} min {span.Seconds:00} s")
        : string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalSeconds} s");
}
