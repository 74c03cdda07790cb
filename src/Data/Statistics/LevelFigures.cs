using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Statistics;

/// <summary>
/// Maps a level's statistics (<see cref="LatencyStatistics"/>, computed from its measured raw samples) onto its stored row
/// (<see cref="LevelEntity"/>) through each declaration's <see cref="LevelStatistic.Store"/> (<see cref="LevelStatistics.All"/>):
/// request and error counts by kind, wire bytes, throughput (req/s) and response times (ms). Used by the runner for the
/// levels it generates and for levels spread over load agents.
/// </summary>
public static class LevelFigures
{
    /// <summary>Sets <paramref name="level"/>'s counts, bytes, throughput and response times from <paramref name="stats"/>.</summary>
    /// <remarks>
    /// A level where no measured request succeeded has no response time (NaN); SQLite cannot store NaN, so the columns hold
    /// 0 and readers tell such a level by <c>Errors == Requests</c> (<see cref="LevelEntity.MeanMs"/>; the CSV leaves them empty).
    /// </remarks>
    public static void Apply(LevelEntity level, LatencyStatistics stats)
    {
        ArgumentNullException.ThrowIfNull(level);
        ArgumentNullException.ThrowIfNull(stats);
        foreach (var statistic in LevelStatistics.All)
        {
            statistic.Store?.Invoke(level, stats);
        }
    }

    /// <summary><paramref name="value"/>, or 0 when it is not finite (a level with no successful request).</summary>
    public static double OrZero(double value) => double.IsFinite(value) ? value : 0;
}
