using System.Globalization;
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

    /// <summary>The equivalence test (TOST) shows A ÷ B inside the claim's bounds.</summary>
    Equivalent,

    /// <summary>The equivalence test (TOST) cannot show A ÷ B inside the claim's bounds.</summary>
    NotShownEquivalent,
}

/// <summary>A ratio A ÷ B with its interval and the test's outcome, as the statistics home gives them.</summary>
/// <param name="Outcome">What the test says: for a difference test, differs or no difference; for an equivalence test, equivalent (the TOST p-value below α) or not shown equivalent.</param>
/// <param name="Ratio">A ÷ B: the ratio of the geometric means of the observations (exp of the mean log difference); null without one.</param>
/// <param name="Low">Lower end of the ratio's 95 % interval (= <paramref name="Ratio"/> when there is none).</param>
/// <param name="High">Upper end of the ratio's 95 % interval (= <paramref name="Ratio"/> when there is none).</param>
/// <param name="HasInterval">True when Low..High is an interval, false when it is the point.</param>
/// <param name="Method">The exact test of this comparison, with its library, sample sizes and degrees of freedom, for readers.</param>
/// <param name="Note">Why no test or interval is possible, or null.</param>
/// <param name="PValue">The deciding p-value (Welch's two-sided, or TOST's), or null without a test.</param>
public sealed record RatioTest(TestOutcome Outcome, double? Ratio, double? Low, double? High, bool HasInterval, string Method, string? Note = null, double? PValue = null)
{
    /// <summary>The Mann–Whitney U test's two-sided p-value on the same observations, reported beside the verdict; null without a test.</summary>
    public double? MannWhitneyPValue { get; init; }
}

/// <summary>
/// The tests of a ratio on observations, from the project's statistics home (src/Data/Measurement). The claims engine
/// calls nothing else for a test, so that it has no statistics of its own (docs/claims.md).
/// </summary>
public interface IDifferenceTest
{
    /// <summary>The tests used, with their sources, as readers see them beside the verdicts.</summary>
    string Method { get; }

    /// <summary>Tests whether A and B differ (two-sided, level <paramref name="alpha"/>) and gives A ÷ B with its interval; observations are positive values in the metric's unit.</summary>
    RatioTest Compare(IReadOnlyList<double> a, IReadOnlyList<double> b, double alpha);

    /// <summary>Tests whether A ÷ B lies inside [<paramref name="low"/>, <paramref name="high"/>] (equivalence; <paramref name="high"/> may be +∞) and gives A ÷ B with its interval.</summary>
    RatioTest Equivalence(IReadOnlyList<double> a, IReadOnlyList<double> b, double low, double high, double alpha);
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
/// <see cref="IDifferenceTest"/> over <see cref="SampleTests"/> (Perfolizer 0.6.1) on the natural logarithms of the
/// observations, so that differences are log ratios: Welch's two-sided t-test with the Welch–Satterthwaite degrees of
/// freedom for "A better than B" (Welch 1947), TOST equivalence for "A ≈ B" and "A ÷ B in a range" (two one-sided Welch
/// tests against ln of the bounds, Schuirmann 1987), and the Mann–Whitney U test reported beside each (docs/statistics.md).
/// Every observation must be positive (a log scale); at least 2 per side.
/// </summary>
public sealed class LibraryDifferenceTest : IDifferenceTest
{
    /// <inheritdoc />
    public string Method => $"per case, on ln of the observations ({SampleTests.Library}): Welch's two-sided t-test (Welch 1947) for \"A better than B\", "
        + "TOST equivalence, two one-sided Welch tests (Schuirmann 1987), for \"A ≈ B\" and ratio ranges; the ratio's 95 % Welch interval; Mann–Whitney U reported beside";

    /// <inheritdoc />
    public RatioTest Compare(IReadOnlyList<double> a, IReadOnlyList<double> b, double alpha)
    {
        if (Refused(a, b) is { } refused)
        {
            return refused;
        }

        var (la, lb) = (Logs(a), Logs(b));
        var welch = SampleTests.Welch(la, lb, alpha);
        var method = string.Create(CultureInfo.InvariantCulture,
            $"Welch's two-sided t-test on ln values ({SampleTests.Library}), n = {a.Count} vs {b.Count}, ν = {welch.DegreesOfFreedom:0.#}");
        return new RatioTest(welch.PValue < alpha ? TestOutcome.Differs : TestOutcome.NoDifference,
            Math.Exp(welch.Difference), Math.Exp(welch.Low), Math.Exp(welch.High), true, method, null, welch.PValue)
        {
            MannWhitneyPValue = SampleTests.MannWhitney(la, lb).PValue,
        };
    }

    /// <inheritdoc />
    public RatioTest Equivalence(IReadOnlyList<double> a, IReadOnlyList<double> b, double low, double high, double alpha)
    {
        if (Refused(a, b) is { } refused)
        {
            return refused;
        }

        var (la, lb) = (Logs(a), Logs(b));
        var welch = SampleTests.Welch(la, lb, alpha);
        var tost = SampleTests.Equivalence(la, lb, low > 0 ? Math.Log(low) : double.NegativeInfinity, double.IsPositiveInfinity(high) ? high : Math.Log(high));
        var method = string.Create(CultureInfo.InvariantCulture,
            $"TOST equivalence, two one-sided Welch tests on ln values against ln {low:0.###} and ln {high:0.###} ({SampleTests.Library}), n = {a.Count} vs {b.Count}");
        return new RatioTest(tost.PValue < alpha ? TestOutcome.Equivalent : TestOutcome.NotShownEquivalent,
            Math.Exp(welch.Difference), Math.Exp(welch.Low), Math.Exp(welch.High), true, method, null, tost.PValue)
        {
            MannWhitneyPValue = SampleTests.MannWhitney(la, lb).PValue,
        };
    }

    private static RatioTest? Refused(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        const string method = "no test";
        if (a.Count < SampleTests.MinimumPerSide || b.Count < SampleTests.MinimumPerSide)
        {
            return new RatioTest(TestOutcome.NotPossible, null, null, null, false, method, $"{a.Count} vs {b.Count} observations: at least {SampleTests.MinimumPerSide} per side");
        }

        return a.Concat(b).Any(v => !(v > 0) || !double.IsFinite(v))
            ? new RatioTest(TestOutcome.NotPossible, null, null, null, false, method, "a value of 0: no test on the log scale")
            : null;
    }

    private static double[] Logs(IReadOnlyList<double> values) => [.. values.Select(v => Math.Log(v))];
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
