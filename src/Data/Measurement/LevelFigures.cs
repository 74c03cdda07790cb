using Dashboard.Data.Entities;

namespace Dashboard.Data.Measurement;

/// <summary>
/// The one place a level's statistics (<see cref="LatencyStatistics"/>, computed from its measured raw samples) are mapped
/// onto its stored row (<see cref="LevelEntity"/>): request and error counts by kind, wire bytes, throughput (req/s) and
/// response times (ms). Used by the runner for the levels it generates and for levels spread over load agents.
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
        level.Requests = stats.Requests;
        level.Errors = stats.Errors;
        level.TimeoutErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Timeout);
        level.FaultErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Fault);
        level.ConnectionErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Connection);
        level.AuthenticationErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Authentication);
        level.OtherErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.Other);
        level.WrongReplyErrors = stats.ErrorsByKind.GetValueOrDefault(SampleOutcome.WrongReply);
        level.MeanRequestBytes = stats.MeanRequestBytes;
        level.MeanResponseBytes = stats.MeanResponseBytes;
        level.ThroughputRps = stats.ThroughputRps;
        level.MeanMs = OrZero(stats.MeanMs);
        level.P50Ms = OrZero(stats.P50Ms);
        level.P90Ms = OrZero(stats.P90Ms);
        level.P99Ms = OrZero(stats.P99Ms);
        level.P999Ms = OrZero(stats.P999Ms);
        level.MaxMs = OrZero(stats.MaxMs);
    }

    /// <summary><paramref name="value"/>, or 0 when it is not finite (a level with no successful request).</summary>
    public static double OrZero(double value) => double.IsFinite(value) ? value : 0;
}
