using Dashboard.Data.Measurement;
using Dashboard.Data.Results;

namespace Dashboard.Data.Claims;

/// <summary>The outcome of testing A against B: does the noise of both explain their difference?</summary>
public enum TestOutcome
{
    /// <summary>No test is possible (too few repetitions on a side, or a mean of 0); see <see cref="RatioTest.Note"/>.</summary>
    NotPossible,

    /// <summary>The test does not tell A and B apart.</summary>
    NoDifference,

    /// <summary>The test finds a difference.</summary>
    Differs,
}

/// <summary>A ratio A ÷ B with its interval and the test's outcome, as the statistics home gives them.</summary>
/// <param name="Outcome">What the test says.</param>
/// <param name="Ratio">A's mean ÷ B's mean; null when B's mean is 0.</param>
/// <param name="Low">Lower end of the ratio's interval (= <paramref name="Ratio"/> when there is none).</param>
/// <param name="High">Upper end of the ratio's interval (= <paramref name="Ratio"/> when there is none).</param>
/// <param name="HasInterval">True when Low..High is an interval (the home gives one), false when it is the point.</param>
/// <param name="Method">The test and interval, with their source, for readers.</param>
/// <param name="Note">Why no test or interval is possible, or null.</param>
public sealed record RatioTest(TestOutcome Outcome, double? Ratio, double? Low, double? High, bool HasInterval, string Method, string? Note = null);

/// <summary>
/// The difference test and the interval of a ratio, from the project's statistics home (src/Data/Measurement). The
/// claims engine calls nothing else for a test, so that it has no statistics of its own (docs/claims.md).
/// </summary>
public interface IDifferenceTest
{
    /// <summary>The test and the interval, with their sources, as readers see them beside a verdict.</summary>
    string Method { get; }

    /// <summary>Tests <paramref name="a"/> against <paramref name="b"/> at level <paramref name="alpha"/> (two-sided) and gives A ÷ B with its interval.</summary>
    RatioTest Compare(Estimate a, Estimate b, double alpha);
}

/// <summary>What the statistics home knows about one level beyond its figures: was it cut short, and what bound it.</summary>
/// <param name="IsPartial">True when the level was cut (cancel, crash, failed driver): claims leave it out.</param>
/// <param name="Bound">What limited the level.</param>
/// <param name="Note">Where the flags come from, or why they are not known.</param>
public sealed record LevelCondition(bool IsPartial, LevelBound Bound, string? Note = null);

/// <summary>Per-level partial and bound flags, from the statistics home (src/Data/Measurement) where it records them.</summary>
public interface ILevelConditions
{
    /// <summary>The flags of <paramref name="level"/>; <paramref name="resources"/> are its server readings when there are any.</summary>
    LevelCondition ConditionOf(LevelAggregate level, LevelResources? resources);
}

/// <summary>
/// <see cref="IDifferenceTest"/> on what the statistics home offers today: Welch's two-sided t-test of
/// <see cref="Estimate.DiffersFrom"/> (Welch 1947) for the outcome. The ratio's interval is the conservative quotient of
/// the two 95 % intervals, [A.low ÷ B.high, A.high ÷ B.low] (wider than the ratio's own interval; given only when both
/// have a noise estimate and B's interval stays above 0). When the statistics home gives the ratio's own interval, an
/// adapter over it replaces this class (docs/claims.md, "Statistics").
/// </summary>
public sealed class WelchDifferenceTest : IDifferenceTest
{
    /// <inheritdoc />
    public string Method => "Welch's two-sided t-test (Welch 1947) at 5 %; ratio interval from the two 95 % Student intervals (conservative)";

    /// <inheritdoc />
    public RatioTest Compare(Estimate a, Estimate b, double alpha)
    {
        double? ratio = b.Mean > 0 ? a.Mean / b.Mean : null;
        var differs = Estimate.DiffersFrom(a, b, alpha);
        if (differs is null)
        {
            return new RatioTest(TestOutcome.NotPossible, ratio, ratio, ratio, false, Method,
                $"n = {Math.Min(a.N, b.N)} on a side: at least 2 repetitions on each side for a test");
        }

        var outcome = differs.Value ? TestOutcome.Differs : TestOutcome.NoDifference;
        if (ratio is null || b.Low95 <= 0 || a.Low95 < 0)
        {
            return new RatioTest(outcome, ratio, ratio, ratio, false, Method, "an interval reaches 0: no interval of the ratio");
        }

        return new RatioTest(outcome, ratio, a.Low95 / b.High95, a.High95 / b.Low95, true, Method);
    }
}

/// <summary>
/// <see cref="ILevelConditions"/> on what main records today: no partial flag (every stored level counts as complete),
/// and the bound from the CPU the run measured: generator-bound when the load generator's CPU (runner and drivers, % of
/// all cores) averaged at least <see cref="Threshold"/> over the level, server-bound when the stack's process did. On
/// one machine both share every core. Replaced by an adapter over the statistics home's stored flags when it records them.
/// </summary>
public sealed class MeasuredLevelConditions : ILevelConditions
{
    /// <summary>CPU % (of all cores) at or above which a process counts as the limit: 90.</summary>
    public const double Threshold = 90;

    /// <inheritdoc />
    public LevelCondition ConditionOf(LevelAggregate level, LevelResources? resources)
    {
        ArgumentNullException.ThrowIfNull(level);
        var generator = level.GeneratorCpuPercent;
        var server = resources?.StackCpuPercent.N > 0 ? resources.StackCpuPercent.Mean : (double?)null;
        var bound = generator >= Threshold ? LevelBound.Generator
            : server >= Threshold ? LevelBound.Server
            : generator is null && server is null ? LevelBound.Unknown
            : LevelBound.Neither;
        return new LevelCondition(false, bound, "partial levels are not recorded in this build; bound from mean CPU ≥ 90 % of all cores");
    }
}
