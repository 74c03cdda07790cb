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
/// logarithms, so that differences are log ratios (docs/statistics.md, "Tests from a library"), and so does
/// <see cref="Difference"/>, the test of rankings and the compare page.
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
    /// The one test of a difference that rankings (ties) and the compare page (per level) use: Welch's two-sided t-test
    /// (<see cref="Welch"/>, Perfolizer's <c>WelchTest</c>) on the natural logarithms of the independent observations
    /// (<see cref="Estimate.Independent"/>: one per repetition, or per launch), so that the difference is a log ratio: is
    /// <paramref name="candidate"/> ÷ <paramref name="baseline"/> different from 1 beyond the noise of both? The ratio is
    /// that of the geometric means, e<sup>mean ln candidate − mean ln baseline</sup>, with its (1 − <paramref name="alpha"/>)
    /// Welch interval mapped back; the claims engine reads its ratios the same way (docs/claims.md, "Statistics"). With
    /// fewer than <see cref="MinimumPerSide"/> observations on a side, or an observation of 0 (no logarithm), no test is
    /// possible: the result says why and gives the ratio of the arithmetic means (null when the baseline's is 0 or a side
    /// is empty).
    /// </summary>
    /// <param name="baseline">The baseline's observations (positive for a test).</param>
    /// <param name="candidate">The candidate's observations (positive for a test).</param>
    /// <param name="alpha">The significance level, and 1 − the interval's coverage.</param>
    /// <exception cref="ArgumentNullException">A sample is null.</exception>
    /// <exception cref="ArgumentException">An observation is NaN or infinite.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alpha"/> is not in (0, 1).</exception>
    public static DifferenceTest Difference(IReadOnlyList<double> baseline, IReadOnlyList<double> candidate, double alpha = 0.05)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        CheckAlpha(alpha);
        if (baseline.Concat(candidate).Any(v => !double.IsFinite(v)))
        {
            throw new ArgumentException("Every observation must be a finite number.", baseline.Any(v => !double.IsFinite(v)) ? nameof(baseline) : nameof(candidate));
        }

        double? ratio = baseline.Count > 0 && candidate.Count > 0 && baseline.Average() > 0 ? candidate.Average() / baseline.Average() : null;
        if (baseline.Count < MinimumPerSide || candidate.Count < MinimumPerSide)
        {
            return DifferenceTest.NotPossible(ratio, baseline.Count, candidate.Count, alpha,
                $"n = {Math.Min(baseline.Count, candidate.Count)} on a side: at least {MinimumPerSide} repetitions (or launches) on each side for a test (no test is possible)");
        }

        if (baseline.Concat(candidate).Any(v => !(v > 0)))
        {
            return DifferenceTest.NotPossible(ratio, baseline.Count, candidate.Count, alpha, "a value of 0: no test on the log scale");
        }

        var welch = Welch([.. candidate.Select(v => Math.Log(v))], [.. baseline.Select(v => Math.Log(v))], alpha);
        return new DifferenceTest(
            welch.PValue < alpha ? DifferenceVerdict.Differs : DifferenceVerdict.NoDifference,
            Math.Exp(welch.Difference), Math.Exp(welch.Low), Math.Exp(welch.High), welch.PValue,
            double.IsFinite(welch.T) ? welch.T : null, welch.DegreesOfFreedom, baseline.Count, candidate.Count, alpha, null);
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

/// <summary>What <see cref="SampleTests.Difference"/> concluded. In JSON, the member's name.</summary>
[System.Text.Json.Serialization.JsonConverter(typeof(System.Text.Json.Serialization.JsonStringEnumConverter<DifferenceVerdict>))]
public enum DifferenceVerdict
{
    /// <summary>No test was possible (fewer than 2 observations on a side, or a value of 0); <see cref="DifferenceTest.Reason"/> says why.</summary>
    NoTest,

    /// <summary>The test did not find a difference beyond noise (p ≥ α).</summary>
    NoDifference,

    /// <summary>The test found a difference (p &lt; α).</summary>
    Differs,
}

/// <summary>
/// A candidate compared with a baseline by Welch's t-test on ln of their observations (<see cref="SampleTests.Difference"/>).
/// </summary>
/// <param name="Verdict">Differs, no difference, or no test possible.</param>
/// <param name="Ratio">Candidate ÷ baseline (1.10 = 10 % more): the ratio of the geometric means when tested, of the arithmetic means otherwise; null when the baseline's mean is 0 or a side has no observation.</param>
/// <param name="RatioLow95">Lower end of the (1 − α) interval of the ratio, or null without a test.</param>
/// <param name="RatioHigh95">Upper end of the (1 − α) interval of the ratio, or null without a test.</param>
/// <param name="PValue">Two-sided p-value, or null without a test.</param>
/// <param name="T">Welch's t on the log scale, or null without a test or when neither side has spread (t is infinite then, and JSON has no infinity).</param>
/// <param name="DegreesOfFreedom">Welch–Satterthwaite degrees of freedom, or null without a test.</param>
/// <param name="BaselineN">Observations (repetitions, or launches) behind the baseline.</param>
/// <param name="CandidateN">Observations (repetitions, or launches) behind the candidate.</param>
/// <param name="Alpha">Significance level used.</param>
/// <param name="Reason">Why no test was possible ("n = 1 on a side: … no test is possible"), or null.</param>
public sealed record DifferenceTest(
    DifferenceVerdict Verdict,
    double? Ratio,
    double? RatioLow95,
    double? RatioHigh95,
    double? PValue,
    double? T,
    double? DegreesOfFreedom,
    int BaselineN,
    int CandidateN,
    double Alpha,
    string? Reason)
{
    /// <summary>The relative effect in % (ratio − 1) × 100, or null without a ratio.</summary>
    public double? EffectPercent => Ratio is { } r ? (r - 1) * 100 : null;

    internal static DifferenceTest NotPossible(double? ratio, int baselineN, int candidateN, double alpha, string reason) =>
        new(DifferenceVerdict.NoTest, ratio, null, null, null, null, null, baselineN, candidateN, alpha, reason);
}
