using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Perfolizer.Mathematics.SignificanceTesting;
using Perfolizer.Mathematics.SignificanceTesting.Base;
using Perfolizer.Mathematics.SignificanceTesting.MannWhitney;
using Perfolizer.Metrology;
using Probability = Pragmastat.Probability;


namespace Dashboard.Data.Measurement;

/// <summary>
/// Two-sample tests on independent observations, from Perfolizer 0.6.1 (docs/dependencies.md): Welch's t-test (Welch
/// 1947) with its Welch–Satterthwaite degrees of freedom, the Mann–Whitney U test (Mann &amp; Whitney 1947) and TOST
/// equivalence, two one-sided Welch tests (Schuirmann 1987). Nothing here computes a test statistic, a degree of freedom
/// or a quantile itself: each comes from the library. Observations are in any unit; the claims engine passes natural
/// logarithms, so that differences are log ratios (docs/statistics.md, "Tests from a library").
/// </summary>
public static class SampleTests
{
    /// <summary>"Perfolizer 0.6.1": the library every result here comes from, for the verdicts' method strings.</summary>
    public const string Library = "Perfolizer 0.6.1";

    /// <summary>Fewest observations per side for any test here: 2 (a sample variance needs 2).</summary>
    public const int MinimumPerSide = 2;

    /// <summary>
    /// Welch's two-sided t-test of mean(<paramref name="x"/>) − mean(<paramref name="y"/>) = 0 (Perfolizer's
    /// <c>WelchTest</c>), with the (1 − <paramref name="alpha"/>) interval of the difference: difference ± t<sub>1−α/2</sub>(ν) · SE,
    /// the quantile from Perfolizer's <c>StudentDistribution</c>. When both samples have no spread the difference is exact:
    /// p = 0 when it is not 0, else 1, and the interval is the point.
    /// </summary>
    /// <exception cref="ArgumentNullException">A sample is null.</exception>
    /// <exception cref="ArgumentException">A sample has fewer than <see cref="MinimumPerSide"/> values or a value that is not finite.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alpha"/> is not in (0, 1).</exception>
    public static WelchOutcome Welch(IReadOnlyList<double> x, IReadOnlyList<double> y, double alpha = 0.05)
    {
        Check(x, nameof(x));
        Check(y, nameof(y));
        CheckAlpha(alpha);
        var difference = x.Average() - y.Average();
        var standardError = Math.Sqrt((Variance(x) / x.Count) + (Variance(y) / y.Count));
        if (standardError == 0)
        {
            return new WelchOutcome(difference == 0 ? 0 : Math.CopySign(double.PositiveInfinity, difference), x.Count + y.Count - 2,
                difference == 0 ? 1 : 0, difference, 0, difference, difference);
        }

        var result = WelchTest.Instance.Perform(new Pragmastat.Sample(x), new Pragmastat.Sample(y), AlternativeHypothesis.TwoSides, Threshold.Zero);
        var half = new StudentDistribution(result.Df).Quantile(new Probability(1 - (alpha / 2))) * standardError;
        return new WelchOutcome(result.T, result.Df, Math.Min(1, result.PValue.Value), difference, standardError, difference - half, difference + half);
    }

    /// <summary>
    /// The Mann–Whitney U test, two-sided (Perfolizer's <c>MannWhitneyTest</c>: the exact distribution for small
    /// samples). U is x's count of pairs (xᵢ, yⱼ) with xᵢ &gt; yⱼ, ties counted ½ (R's <c>wilcox.test</c> calls it W).
    /// With 3 values per side the smallest two-sided p is 0.1: the test reports, it never decides a verdict alone.
    /// </summary>
    /// <exception cref="ArgumentNullException">A sample is null.</exception>
    /// <exception cref="ArgumentException">A sample has fewer than <see cref="MinimumPerSide"/> values or a value that is not finite.</exception>
    public static MannWhitneyOutcome MannWhitney(IReadOnlyList<double> x, IReadOnlyList<double> y)
    {
        Check(x, nameof(x));
        Check(y, nameof(y));
        var result = MannWhitneyTest.Instance.Perform(new Pragmastat.Sample(x), new Pragmastat.Sample(y), AlternativeHypothesis.TwoSides, Threshold.Zero);
        return new MannWhitneyOutcome(result.Ux, Math.Min(1, result.PValue.Value));
    }

    /// <summary>
    /// TOST equivalence (Schuirmann 1987, "A comparison of the two one-sided tests procedure and the power approach for
    /// assessing the equivalence of average bioavailability", J. Pharmacokinet. Biopharm. 15): is mean(x) − mean(y) inside
    /// (<paramref name="lower"/>, <paramref name="upper"/>)? Two one-sided Welch tests (Perfolizer's <c>WelchTest</c> with
    /// the alternatives Greater and Less, on x shifted by the bound); the TOST p-value is the larger of the two, and
    /// equivalence holds at α when it is below α (the same as the (1 − 2α) Welch interval lying inside the bounds). An
    /// infinite bound is no test on its side (p = 0 there).
    /// </summary>
    /// <exception cref="ArgumentNullException">A sample is null.</exception>
    /// <exception cref="ArgumentException">A sample is too small or not finite, or <paramref name="lower"/> ≥ <paramref name="upper"/>.</exception>
    public static EquivalenceOutcome Equivalence(IReadOnlyList<double> x, IReadOnlyList<double> y, double lower, double upper)
    {
        Check(x, nameof(x));
        Check(y, nameof(y));
        if (!(lower < upper))
        {
            throw new ArgumentException($"The lower bound ({lower}) must be below the upper bound ({upper}).", nameof(lower));
        }

        var pLower = double.IsNegativeInfinity(lower) ? 0 : OneSided(x, y, lower, AlternativeHypothesis.Greater);
        var pUpper = double.IsPositiveInfinity(upper) ? 0 : OneSided(x, y, upper, AlternativeHypothesis.Less);
        return new EquivalenceOutcome(pLower, pUpper, Math.Max(pLower, pUpper));
    }

    /// <summary>One-sided Welch test of mean(x) − mean(y) against <paramref name="bound"/>: x shifted by −bound, then Perfolizer.</summary>
    private static double OneSided(IReadOnlyList<double> x, IReadOnlyList<double> y, double bound, AlternativeHypothesis alternative)
    {
        var shifted = x.Select(v => v - bound).ToArray();
        if (Variance(shifted) == 0 && Variance(y) == 0)
        {
            // No spread: the difference is exact, and it is on the alternative's side or not.
            var difference = shifted.Average() - y.Average();
            return alternative == AlternativeHypothesis.Greater ? (difference > 0 ? 0 : 1) : (difference < 0 ? 0 : 1);
        }

        return Math.Min(1, WelchTest.Instance.Perform(new Pragmastat.Sample(shifted), new Pragmastat.Sample(y), alternative, Threshold.Zero).PValue.Value);
    }

    private static double Variance(IReadOnlyList<double> values)
    {
        var mean = values.Average();
        return values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1);
    }

    private static void Check(IReadOnlyList<double> values, string name)
    {
        ArgumentNullException.ThrowIfNull(values, name);
        if (values.Count < MinimumPerSide)
        {
            throw new ArgumentException($"At least {MinimumPerSide} observations per side; got {values.Count}.", name);
        }

        if (values.Any(v => !double.IsFinite(v)))
        {
            throw new ArgumentException("Every observation must be a finite number.", name);
        }
    }

    private static void CheckAlpha(double alpha)
    {
        if (!(alpha is > 0 and < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(alpha), alpha, "The significance level must be between 0 and 1.");
        }
    }
}

/// <summary>Welch's t-test of mean(x) − mean(y) (<see cref="SampleTests.Welch"/>).</summary>
/// <param name="T">The t statistic, difference ÷ standard error (±∞ when neither sample has spread and the means differ).</param>
/// <param name="DegreesOfFreedom">Welch–Satterthwaite degrees of freedom (nx + ny − 2 when neither sample has spread).</param>
/// <param name="PValue">Two-sided p-value, 0..1.</param>
/// <param name="Difference">mean(x) − mean(y), in the observations' unit.</param>
/// <param name="StandardError">Standard error of the difference, √(sx²/nx + sy²/ny).</param>
/// <param name="Low">Lower end of the (1 − α) interval of the difference.</param>
/// <param name="High">Upper end of the (1 − α) interval of the difference.</param>
public readonly record struct WelchOutcome(double T, double DegreesOfFreedom, double PValue, double Difference, double StandardError, double Low, double High);

/// <summary>The Mann–Whitney U test (<see cref="SampleTests.MannWhitney"/>).</summary>
/// <param name="U">x's U: pairs with xᵢ &gt; yⱼ, ties ½.</param>
/// <param name="PValue">Two-sided p-value, 0..1.</param>
public readonly record struct MannWhitneyOutcome(double U, double PValue);

/// <summary>TOST equivalence (<see cref="SampleTests.Equivalence"/>).</summary>
/// <param name="PLower">p of the one-sided test against the lower bound (H₀: difference ≤ lower).</param>
/// <param name="PUpper">p of the one-sided test against the upper bound (H₀: difference ≥ upper).</param>
/// <param name="PValue">The TOST p-value, max(PLower, PUpper): equivalent at α when below α.</param>
public readonly record struct EquivalenceOutcome(double PLower, double PUpper, double PValue);
