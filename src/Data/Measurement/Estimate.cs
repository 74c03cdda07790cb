using MathNet.Numerics.Distributions;

namespace Dashboard.Data.Measurement;

/// <summary>
/// A mean over <see cref="N"/> independent observations of a non-negative quantity (repetitions of a level:
/// throughput in req/s, response times in ms), with its spread and, where it means something, its 95 % confidence
/// interval. Units are those of the observations. NaN-free: with no observation everything is 0 and <see cref="N"/> is 0.
/// This type is the statistics home of the project: every interval, coefficient of variation and test of a difference
/// is computed here (docs/statistics.md).
/// </summary>
/// <remarks>
/// <para><b>Interval.</b> Given only from <see cref="MinimumForInterval"/> = 3 observations on (with 2, the t factor of
/// 12.7 at ν = 1 makes any interval meaningless; Georges, Buytaert &amp; Eeckhout, "Statistically rigorous Java
/// performance evaluation", OOPSLA 2007, base their intervals on several invocations). Throughput and times are
/// positive, so the interval is a Student t interval on the <b>log scale</b>, mapped back: ln of the mean ± t<sub>0.975</sub>(ν)
/// · SE/mean, i.e. [mean · e<sup>−h</sup>, mean · e<sup>+h</sup>] with h = t<sub>0.975</sub>(ν) · SE/mean (the delta
/// method: the standard error of ln x̄ is SE/x̄; Casella &amp; Berger, Statistical Inference, 2nd ed., "the delta
/// method"). It can never leave the positive range; for a small coefficient of variation it equals the usual mean ±
/// t · SE. SE = s/√n with s the sample standard deviation (divisor n − 1), ν = n − 1 (Student 1908; NIST/SEMATECH
/// e-Handbook of Statistical Methods §7.2.2.1). t quantiles come from MathNet.Numerics.</para>
/// <para><b>Spread.</b> <see cref="CoefficientOfVariation"/> = s / mean, given from 2 observations on (Georges et al.
/// use the CoV for steady state; we show it beside every repeated figure).</para>
/// <para><b>Test of a difference.</b> <see cref="Test"/>: Welch's two-sided t-test (Welch 1947, "The generalization of
/// 'Student's' problem when several different population variances are involved", Biometrika 34) on the log scale (the
/// ratio of the means), with the Welch–Satterthwaite degrees of freedom. The one test rankings and comparisons use.</para>
/// </remarks>
/// <param name="Mean">The arithmetic mean of the observations.</param>
/// <param name="Low95">Lower end of the 95 % confidence interval of the mean; = <see cref="Mean"/> when <see cref="HasInterval"/> is false.</param>
/// <param name="High95">Upper end of the 95 % confidence interval of the mean; = <see cref="Mean"/> when <see cref="HasInterval"/> is false.</param>
/// <param name="N">Number of observations (repetitions); for a mean of estimates, the smallest of theirs.</param>
public readonly record struct Estimate(double Mean, double Low95, double High95, int N)
{
    /// <summary>Fewest observations behind every part for which an interval is given: 3.</summary>
    public const int MinimumForInterval = 3;

    /// <summary>Standard error of the mean, s/√n (same unit as <see cref="Mean"/>); 0 with fewer than 2 observations.</summary>
    public double StandardError { get; init; }

    /// <summary>Degrees of freedom of <see cref="StandardError"/> (n − 1, or Welch–Satterthwaite's); 0 with fewer than 2 observations.</summary>
    public double DegreesOfFreedom { get; init; }

    /// <summary>Coefficient of variation s / mean (a fraction: 0.02 = 2 %), or null with fewer than 2 observations or a mean of 0. For a mean of estimates, the standard-error-based √n·SE/mean of the smallest part count.</summary>
    public double? CoefficientOfVariation { get; init; }

    /// <summary>True when there is a noise estimate (at least 2 observations behind every part): a test is possible, an interval only from 3.</summary>
    public bool HasNoiseEstimate => N >= 2 && DegreesOfFreedom > 0;

    /// <summary>True when <see cref="Low95"/>..<see cref="High95"/> is a confidence interval: at least <see cref="MinimumForInterval"/> observations behind every part and a positive mean.</summary>
    public bool HasInterval => N >= MinimumForInterval && DegreesOfFreedom > 0 && Mean > 0;

    /// <summary>Why there is no interval, for readers ("n = 2: at least 3 for an interval"), or null when there is one.</summary>
    public string? IntervalNote => HasInterval ? null
        : N == 0 ? "no observation"
        : N < MinimumForInterval ? $"n = {N}: at least {MinimumForInterval} for an interval"
        : "mean 0: no interval";

    /// <summary>Half the width of the interval, (<see cref="High95"/> − <see cref="Low95"/>) / 2; 0 without an interval. The interval is not symmetric around the mean (log scale).</summary>
    public double HalfWidth95 => (High95 - Low95) / 2;

    /// <summary>
    /// The precision of the mean (docs/statistics.md, "Precision target"; BenchmarkDotNet's relative error): the larger
    /// distance of the interval's ends from the mean, as a fraction of the mean (0.02 = within ±2 %); null without an
    /// interval (<see cref="HasInterval"/>). On the log scale the upper end is the farther one.
    /// </summary>
    public double? RelativeHalfWidth95 => HasInterval ? Math.Max(High95 / Mean - 1, 1 - Low95 / Mean) : null;

    /// <summary>
    /// The mean, coefficient of variation and (from 3 values) log-scale 95 % interval of <paramref name="values"/>.
    /// Empty → all 0 with <see cref="N"/> = 0.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="values"/> is null.</exception>
    /// <exception cref="ArgumentException">A value is NaN, infinite or negative (the quantities estimated here are non-negative).</exception>
    public static Estimate Of(IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var n = values.Count;
        if (n == 0)
        {
            return default;
        }

        double sum = 0;
        foreach (var value in values)
        {
            if (!double.IsFinite(value) || value < 0)
            {
                throw new ArgumentException($"Every value must be a finite non-negative number (req/s, ms); got {value}.", nameof(values));
            }

            sum += value;
        }

        var mean = sum / n;
        if (n == 1)
        {
            return new Estimate(mean, mean, mean, 1);
        }

        var s = StandardDeviation(values, mean);
        var standardError = s / Math.Sqrt(n);
        return WithInterval(mean, standardError, n - 1, n, mean > 0 ? s / mean : null);
    }

    /// <summary>
    /// <see cref="Of"/> with launches as the top level of the hierarchy (Kalibera &amp; Jones, "Rigorous benchmarking in
    /// reasonable time", ISMM 2013; docs/statistics.md, "Launches"): when the values come from 2 or more launches, the mean,
    /// CoV and interval are those of the launches' means (N = launches), since repetitions within one launch share its host
    /// and driver processes and are not independent; otherwise those of the values themselves.
    /// </summary>
    /// <param name="values">One value per repetition, each with the launch it ran in (null: not recorded).</param>
    /// <exception cref="ArgumentNullException"><paramref name="values"/> is null.</exception>
    /// <exception cref="ArgumentException">A value is NaN, infinite or negative.</exception>
    public static Estimate OverLaunches(IReadOnlyList<(double Value, int? Launch)> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var launches = values.Where(v => v.Launch is not null).Select(v => v.Launch).Distinct().Count();
        if (launches < 2 || values.Any(v => v.Launch is null))
        {
            return Of([.. values.Select(v => v.Value)]);
        }

        return Of([.. values.GroupBy(v => v.Launch).OrderBy(g => g.Key).Select(g => Of([.. g.Select(v => v.Value)]).Mean)]);
    }

    /// <summary>
    /// The mean of independent estimates (e.g. one variant's per-level means over several levels and payloads):
    /// mean of their means, standard error √(Σ SEᵢ²) / k, Welch–Satterthwaite degrees of freedom
    /// (Σ SEᵢ²)² / Σ (SEᵢ⁴ / νᵢ), and <see cref="N"/> the smallest of theirs. If any part has no noise estimate,
    /// neither has the result. The interval follows the rule of <see cref="Of"/> (log scale, n ≥ 3). Empty → all 0.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="parts"/> is null.</exception>
    public static Estimate MeanOf(IReadOnlyList<Estimate> parts)
    {
        ArgumentNullException.ThrowIfNull(parts);
        if (parts.Count == 0)
        {
            return default;
        }

        var k = parts.Count;
        var mean = parts.Sum(p => p.Mean) / k;
        var n = parts.Min(p => p.N);
        if (!parts.All(p => p.HasNoiseEstimate))
        {
            return new Estimate(mean, mean, mean, n);
        }

        var variance = parts.Sum(p => p.StandardError * p.StandardError);
        var standardError = Math.Sqrt(variance) / k;
        var degrees = Satterthwaite(parts.Select(p => (p.StandardError, p.DegreesOfFreedom)), fallback: parts.Sum(p => p.DegreesOfFreedom));
        return WithInterval(mean, standardError, degrees, n, mean > 0 ? standardError * Math.Sqrt(n) / mean : null);
    }

    /// <summary>
    /// Welch's two-sided t-test at level <paramref name="alpha"/> of <paramref name="candidate"/> against
    /// <paramref name="baseline"/> on the log scale: is the ratio of their means different from 1 beyond the noise of
    /// both? See <see cref="DifferenceTest"/> for what is returned; with fewer than 2 observations on a side, or a mean of
    /// 0, no test is possible and the result says why.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alpha"/> is not in (0, 1).</exception>
    public static DifferenceTest Test(Estimate baseline, Estimate candidate, double alpha = 0.05)
    {
        if (!(alpha is > 0 and < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(alpha), alpha, "The significance level must be between 0 and 1.");
        }

        double? ratio = baseline.Mean > 0 ? candidate.Mean / baseline.Mean : null;
        if (!baseline.HasNoiseEstimate || !candidate.HasNoiseEstimate)
        {
            return DifferenceTest.NotPossible(ratio, baseline.N, candidate.N, alpha,
                $"n = {Math.Min(baseline.N, candidate.N)} on a side: at least 2 repetitions on each side for a test (no test is possible)");
        }

        if (baseline.Mean <= 0 || candidate.Mean <= 0)
        {
            return DifferenceTest.NotPossible(ratio, baseline.N, candidate.N, alpha, "a mean of 0: no test on the log scale");
        }

        // Log scale: ln(mean) has standard error SE/mean (delta method).
        var seA = baseline.StandardError / baseline.Mean;
        var seB = candidate.StandardError / candidate.Mean;
        var difference = Math.Log(candidate.Mean) - Math.Log(baseline.Mean);
        var welch = Welch(difference, seA, baseline.DegreesOfFreedom, seB, candidate.DegreesOfFreedom);
        var halfWidth = welch.StandardError > 0 ? TwoSidedCriticalValue(welch.DegreesOfFreedom, alpha) * welch.StandardError : 0;
        return new DifferenceTest(
            welch.PValue < alpha ? DifferenceVerdict.Differs : DifferenceVerdict.NoDifference,
            ratio, Math.Exp(difference - halfWidth), Math.Exp(difference + halfWidth), welch.PValue, welch.T, welch.DegreesOfFreedom,
            baseline.N, candidate.N, alpha, null);
    }

    /// <summary>
    /// Welch's two-sided t-test as a yes/no: true when the means differ (<see cref="Test"/>), false when not, null when no
    /// test is possible (fewer than 2 observations on a side).
    /// </summary>
    public static bool? DiffersFrom(Estimate a, Estimate b, double alpha = 0.05) => Test(a, b, alpha).Verdict switch
    {
        DifferenceVerdict.Differs => true,
        DifferenceVerdict.NoDifference => false,
        _ => null,
    };

    /// <summary>
    /// Welch's t statistic, Welch–Satterthwaite degrees of freedom and two-sided p-value of a difference
    /// <paramref name="difference"/> of two independent means with standard errors <paramref name="standardErrorA"/>,
    /// <paramref name="standardErrorB"/> and degrees of freedom <paramref name="degreesA"/>, <paramref name="degreesB"/>
    /// (Welch 1947). Both standard errors 0: t is ±∞ (p = 0) when the difference is not 0, else 0 (p = 1).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A degree of freedom is not positive.</exception>
    public static WelchResult Welch(double difference, double standardErrorA, double degreesA, double standardErrorB, double degreesB)
    {
        if (!(degreesA > 0) || !(degreesB > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(degreesA), "Degrees of freedom must be positive on both sides.");
        }

        var variance = (standardErrorA * standardErrorA) + (standardErrorB * standardErrorB);
        if (variance <= 0)
        {
            return difference == 0
                ? new WelchResult(0, degreesA + degreesB, 0, 1)
                : new WelchResult(difference > 0 ? double.PositiveInfinity : double.NegativeInfinity, degreesA + degreesB, 0, 0);
        }

        var se = Math.Sqrt(variance);
        var degrees = Satterthwaite([(standardErrorA, degreesA), (standardErrorB, degreesB)], fallback: degreesA + degreesB);
        var t = difference / se;
        var p = 2 * StudentT.CDF(0, 1, degrees, -Math.Abs(t));
        return new WelchResult(t, degrees, se, Math.Min(1, p));
    }

    /// <summary>The two-sided critical value of Student's t with ν = <paramref name="degreesOfFreedom"/>: the (1 − α/2) quantile; α = 0.05 gives the factor of a 95 % interval (2.228 at ν = 10).</summary>
    /// <exception cref="ArgumentOutOfRangeException">ν is not positive, or α not in (0, 1).</exception>
    public static double TwoSidedCriticalValue(double degreesOfFreedom, double alpha = 0.05)
    {
        if (!(degreesOfFreedom > 0) || double.IsNaN(degreesOfFreedom))
        {
            throw new ArgumentOutOfRangeException(nameof(degreesOfFreedom), degreesOfFreedom, "Degrees of freedom must be positive.");
        }

        if (!(alpha is > 0 and < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(alpha), alpha, "α must be between 0 and 1.");
        }

        return double.IsPositiveInfinity(degreesOfFreedom)
            ? Normal.InvCDF(0, 1, 1 - (alpha / 2))
            : StudentT.InvCDF(0, 1, degreesOfFreedom, 1 - (alpha / 2));
    }

    /// <summary>
    /// Coefficient of variation s / mean of <paramref name="values"/> (sample standard deviation, divisor n − 1), as a
    /// fraction; null with fewer than 2 values or a mean of 0. Used for steady-state detection (Georges et al. 2007).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="values"/> is null.</exception>
    public static double? CoefficientOfVariationOf(IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count < 2)
        {
            return null;
        }

        var mean = values.Average();
        return mean > 0 ? StandardDeviation(values, mean) / mean : null;
    }

    private static double StandardDeviation(IReadOnlyList<double> values, double mean)
    {
        double squares = 0;
        foreach (var value in values)
        {
            squares += (value - mean) * (value - mean);
        }

        return Math.Sqrt(squares / (values.Count - 1));
    }

    private static Estimate WithInterval(double mean, double standardError, double degreesOfFreedom, int n, double? coefficientOfVariation)
    {
        var (low, high) = (mean, mean);
        if (n >= MinimumForInterval && mean > 0 && standardError > 0)
        {
            var h = TwoSidedCriticalValue(degreesOfFreedom) * standardError / mean;
            (low, high) = (mean * Math.Exp(-h), mean * Math.Exp(h));
        }

        return new Estimate(mean, low, high, n) { StandardError = standardError, DegreesOfFreedom = degreesOfFreedom, CoefficientOfVariation = coefficientOfVariation };
    }

    /// <summary>Welch–Satterthwaite degrees of freedom of a sum of independent variances; <paramref name="fallback"/> when all are 0.</summary>
    private static double Satterthwaite(IEnumerable<(double StandardError, double DegreesOfFreedom)> parts, double fallback)
    {
        double numerator = 0, denominator = 0;
        foreach (var (se, df) in parts)
        {
            var v = se * se;
            numerator += v;
            denominator += v * v / df;
        }

        return denominator > 0 ? numerator * numerator / denominator : fallback;
    }
}

/// <summary>Welch's t-test of a difference of two means (<see cref="Estimate.Welch"/>).</summary>
/// <param name="T">The t statistic, difference ÷ standard error.</param>
/// <param name="DegreesOfFreedom">Welch–Satterthwaite degrees of freedom.</param>
/// <param name="StandardError">Standard error of the difference (same unit as the difference).</param>
/// <param name="PValue">Two-sided p-value, 0..1.</param>
public readonly record struct WelchResult(double T, double DegreesOfFreedom, double StandardError, double PValue);

/// <summary>What <see cref="Estimate.Test"/> concluded. In JSON, the member's name.</summary>
[System.Text.Json.Serialization.JsonConverter(typeof(System.Text.Json.Serialization.JsonStringEnumConverter<DifferenceVerdict>))]
public enum DifferenceVerdict
{
    /// <summary>No test was possible (fewer than 2 repetitions on a side, or a mean of 0); <see cref="DifferenceTest.Reason"/> says why.</summary>
    NoTest,

    /// <summary>The test did not find a difference beyond noise (p ≥ α).</summary>
    NoDifference,

    /// <summary>The test found a difference (p &lt; α).</summary>
    Differs,
}

/// <summary>
/// A candidate compared with a baseline by Welch's t-test on the log scale (<see cref="Estimate.Test"/>).
/// </summary>
/// <param name="Verdict">Differs, no difference, or no test possible.</param>
/// <param name="Ratio">Candidate mean ÷ baseline mean (1.10 = 10 % more), or null when the baseline mean is 0.</param>
/// <param name="RatioLow95">Lower end of the (1 − α) interval of the ratio, or null without a test.</param>
/// <param name="RatioHigh95">Upper end of the (1 − α) interval of the ratio, or null without a test.</param>
/// <param name="PValue">Two-sided p-value, or null without a test.</param>
/// <param name="T">Welch's t on the log scale, or null without a test.</param>
/// <param name="DegreesOfFreedom">Welch–Satterthwaite degrees of freedom, or null without a test.</param>
/// <param name="BaselineN">Repetitions behind the baseline.</param>
/// <param name="CandidateN">Repetitions behind the candidate.</param>
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
    /// <summary>The relative effect in % (ratio − 1) × 100, or null when the baseline mean is 0.</summary>
    public double? EffectPercent => Ratio is { } r ? (r - 1) * 100 : null;

    internal static DifferenceTest NotPossible(double? ratio, int baselineN, int candidateN, double alpha, string reason) =>
        new(DifferenceVerdict.NoTest, ratio, null, null, null, null, null, baselineN, candidateN, alpha, reason);
}
