namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// The limits and defaults of a scenario's precision target (<see cref="ScenarioDocument.Precision"/>; docs/statistics.md,
/// "Precision target"), the way BenchmarkDotNet's MaxRelativeError / MaxIterationCount bound its iterations.
/// </summary>
public static class PrecisionTarget
{
    /// <summary>The finest target a scenario may ask for: 0.001 (±0.1 %).</summary>
    public const double Finest = 0.001;

    /// <summary>The coarsest target: 0.5 (±50 %).</summary>
    public const double Coarsest = 0.5;

    /// <summary>Repetitions a level may get by default, its planned ones included: 20.</summary>
    public const int DefaultMaxRepetitions = 20;

    /// <summary>The most repetitions <see cref="ScenarioDocument.MaxRepetitions"/> may allow: 100 (as <c>repetitions</c>).</summary>
    public const int MostRepetitions = 100;

    /// <summary>Time for extra repetitions by default, after the planned ones: 10 minutes.</summary>
    public static readonly TimeSpan DefaultTimeLimit = TimeSpan.FromMinutes(10);

    /// <summary>The longest <see cref="ScenarioDocument.PrecisionTimeLimit"/>: 12 hours.</summary>
    public static readonly TimeSpan LongestTimeLimit = TimeSpan.FromHours(12);
}
