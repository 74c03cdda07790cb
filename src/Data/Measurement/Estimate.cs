using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Probability = Pragmastat.Probability;

namespace Dashboard.Data.Measurement;

/// <summary>
/// A mean over <see cref="N"/> independent observations of a non-negative quantity (repetitions of a level:
/// throughput in req/s, response times in ms), with its spread and, where it means something, its 95 % confidence
/// interval. Units are those of the observations. NaN-free: with no observation everything is 0 and <see cref="N"/> is 0.
/// With <see cref="SampleTests"/> (every test of a difference, from a library) this type is the statistics home of the
/// project: every interval and coefficient of variation is computed here (docs/statistics.md).
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
/// e-Handbook of Statistical Methods §7.2.2.1). t quantiles come from Perfolizer's <c>StudentDistribution</c>, as the tests' do (<see cref="SampleTests"/>).</para>
/// <para><b>Spread.</b> <see cref="CoefficientOfVariation"/> = s / mean, given from 2 observations on (Georges et al.
/// use the CoV for steady state; we show it beside every repeated figure).</para>
/// <para><b>Observations.</b> <see cref="Independent"/> decides what the independent observations of a level are: one
/// value per repetition, or one per launch (its repetitions' mean) when the repetitions come from 2 or more launches.
/// The interval above and the test of a difference (<see cref="SampleTests.Difference"/>: Welch's t-test on ln of these
/// observations, from Perfolizer) both stand on them.</para>
/// </remarks>
/// <param name="Mean">The arithmetic mean of the observations.</param>
/// <param name="Low95">Lower end of the 95 % confidence interval of the mean; = <see cref="Mean"/> when <see cref="HasInterval"/> is false.</param>
/// <param name="High95">Upper end of the 95 % confidence interval of the mean; = <see cref="Mean"/> when <see cref="HasInterval"/> is false.</param>
/// <param name="N">Number of observations (repetitions, or launches: <see cref="Independent"/>).</param>
public readonly record struct Estimate(double Mean, double Low95, double High95, int N)
{
    /// <summary>Fewest observations behind every part for which an interval is given: 3.</summary>
    public const int MinimumForInterval = 3;

    /// <summary>Standard error of the mean, s/√n (same unit as <see cref="Mean"/>); 0 with fewer than 2 observations.</summary>
    public double StandardError { get; init; }

    /// <summary>Degrees of freedom of <see cref="StandardError"/>, n − 1; 0 with fewer than 2 observations.</summary>
    public double DegreesOfFreedom { get; init; }

    /// <summary>Coefficient of variation s / mean (a fraction: 0.02 = 2 %), or null with fewer than 2 observations or a mean of 0.</summary>
    public double? CoefficientOfVariation { get; init; }

    /// <summary>True when there is a noise estimate (at least 2 observations): a test is possible, an interval only from 3.</summary>
    public bool HasNoiseEstimate => N >= 2 && DegreesOfFreedom > 0;

    /// <summary>True when <see cref="Low95"/>..<see cref="High95"/> is a confidence interval: at least <see cref="MinimumForInterval"/> observations and a positive mean.</summary>
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
    /// and driver processes and are not independent; otherwise those of the values themselves (<see cref="Independent"/>).
    /// </summary>
    /// <param name="values">One value per repetition, each with the launch it ran in (null: not recorded).</param>
    /// <exception cref="ArgumentNullException"><paramref name="values"/> is null.</exception>
    /// <exception cref="ArgumentException">A value is NaN, infinite or negative.</exception>
    public static Estimate OverLaunches(IReadOnlyList<(double Value, int? Launch)> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return Of([.. Independent([.. values.Select((v, i) => (v.Value, i, v.Launch))]).Select(o => o.Value)]);
    }

    /// <summary>
    /// The independent observations of one level (docs/statistics.md, "Launches"; Kalibera &amp; Jones 2013): when its
    /// repetitions come from 2 or more launches, every one recorded, one observation per launch, the mean of that
    /// launch's repetitions (<see cref="Observation.IsLaunch"/>, keyed by launch); otherwise one per repetition (keyed by
    /// repetition). Ordered by key. What every interval (<see cref="OverLaunches"/>) and every test of a difference
    /// (<see cref="SampleTests.Difference"/>) of a level stands on.
    /// </summary>
    /// <param name="values">One value per repetition, with its repetition number (unique within the level) and launch (null: not recorded).</param>
    /// <exception cref="ArgumentNullException"><paramref name="values"/> is null.</exception>
    public static IReadOnlyList<Observation> Independent(IReadOnlyList<(double Value, int Repetition, int? Launch)> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var launches = values.Where(v => v.Launch is not null).Select(v => v.Launch).Distinct().Count();
        if (launches < 2 || values.Any(v => v.Launch is null))
        {
            return [.. values.OrderBy(v => v.Repetition).Select(v => new Observation(v.Repetition, false, v.Value))];
        }

        return [.. values.GroupBy(v => v.Launch!.Value).OrderBy(g => g.Key).Select(g => new Observation(g.Key, true, g.Average(v => v.Value)))];
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
            ? NormalDistribution.Standard.Quantile(new Probability(1 - (alpha / 2)))
            : new StudentDistribution(degreesOfFreedom).Quantile(new Probability(1 - (alpha / 2)));
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
}

/// <summary>One independent observation of a level (<see cref="Estimate.Independent"/>).</summary>
/// <param name="Replicate">The repetition number, or the launch number when <paramref name="IsLaunch"/>.</param>
/// <param name="IsLaunch">True when the observation is a launch's mean of its repetitions.</param>
/// <param name="Value">The value, in the level's unit.</param>
public readonly record struct Observation(int Replicate, bool IsLaunch, double Value);
