using Dashboard.Data.Entities;
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
/// <param name="PValue">The test's two-sided p-value, or null without a test.</param>
public sealed record RatioTest(TestOutcome Outcome, double? Ratio, double? Low, double? High, bool HasInterval, string Method, string? Note = null, double? PValue = null);

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
/// <param name="Bound">What limited the level, or null when not known (no CPU measured).</param>
/// <param name="Note">Where the flags come from, or why they are not known.</param>
public sealed record LevelCondition(bool IsPartial, LevelBound? Bound, string? Note = null);

/// <summary>Per-level partial and bound flags, from the statistics home (src/Data/Measurement) where it records them.</summary>
public interface ILevelConditions
{
    /// <summary>The flags of <paramref name="level"/>; <paramref name="resources"/> are its server readings when there are any.</summary>
    LevelCondition ConditionOf(LevelAggregate level, LevelResources? resources);
}

/// <summary>
/// <see cref="IDifferenceTest"/> over the statistics home's one test, <see cref="Estimate.Test"/>: Welch's two-sided
/// t-test on the log scale (Welch 1947) with the Welch–Satterthwaite degrees of freedom, and the (1 − α) interval of the
/// ratio A ÷ B from the same test; no test with fewer than 2 repetitions on a side or a mean of 0 (docs/statistics.md).
/// </summary>
public sealed class HomeDifferenceTest : IDifferenceTest
{
    /// <inheritdoc />
    public string Method => "Welch's two-sided t-test on the log scale (Welch 1947; docs/statistics.md) at 5 %, with the ratio's 95 % interval";

    /// <inheritdoc />
    public RatioTest Compare(Estimate a, Estimate b, double alpha)
    {
        // Baseline B, candidate A: the home's ratio is candidate ÷ baseline = A ÷ B.
        var t = Estimate.Test(b, a, alpha);
        var outcome = t.Verdict switch
        {
            DifferenceVerdict.Differs => TestOutcome.Differs,
            DifferenceVerdict.NoDifference => TestOutcome.NoDifference,
            _ => TestOutcome.NotPossible,
        };
        var hasInterval = t.RatioLow95 is not null && t.RatioHigh95 is not null;
        return new RatioTest(outcome, t.Ratio, t.RatioLow95 ?? t.Ratio, t.RatioHigh95 ?? t.Ratio, hasInterval, Method, t.Reason, t.PValue);
    }
}

/// <summary>
/// <see cref="ILevelConditions"/> over the flags stored with each level (docs/statistics.md, "What bound each level"):
/// partial when a repetition of the level was cut (<see cref="LevelAggregate.Complete"/> is false), and the bound the
/// runner classified (<see cref="LevelAggregate.Bound"/>, generator first over the repetitions; null when no CPU was measured).
/// </summary>
public sealed class StoredLevelConditions : ILevelConditions
{
    /// <inheritdoc />
    public LevelCondition ConditionOf(LevelAggregate level, LevelResources? resources)
    {
        ArgumentNullException.ThrowIfNull(level);
        return new LevelCondition(!level.Complete, level.Bound,
            level.Bound is null ? "stored with the level (docs/statistics.md); no CPU measured, bound unknown" : "stored with the level (docs/statistics.md)");
    }
}
