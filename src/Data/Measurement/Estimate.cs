namespace Dashboard.Data.Measurement;

/// <summary>
/// A mean and its 95 % confidence interval, from <see cref="N"/> independent observations (repetitions of a level,
/// DESIGN.md §5; issue #13). Units are those of the observations. NaN-free: with no observation everything is 0 and
/// <see cref="N"/> is 0; with one observation the interval collapses to the mean and there is no noise estimate.
/// </summary>
/// <remarks>
/// The interval is Student's: mean ± t<sub>0.975</sub>(ν) · s/√n with s the sample standard deviation
/// (divisor n − 1) and ν = n − 1 degrees of freedom (Student 1908; e.g. NIST/SEMATECH e-Handbook of Statistical
/// Methods §7.2.2.1). A mean of several independent estimates (<see cref="MeanOf"/>) gets the
/// Welch–Satterthwaite degrees of freedom (Welch 1947), and two estimates are compared with Welch's t-test
/// (<see cref="DiffersFrom"/>). This is the one place these statistics are computed.
/// </remarks>
/// <param name="Mean">The mean of the observations.</param>
/// <param name="Low95">Lower end of the 95 % confidence interval of the mean (= <see cref="Mean"/> when there is no noise estimate).</param>
/// <param name="High95">Upper end of the 95 % confidence interval of the mean (= <see cref="Mean"/> when there is no noise estimate).</param>
/// <param name="N">Number of observations (repetitions); for a mean of estimates, the smallest of theirs.</param>
public readonly record struct Estimate(double Mean, double Low95, double High95, int N)
{
    /// <summary>Standard error of the mean, s/√n (same unit as <see cref="Mean"/>); 0 without a noise estimate.</summary>
    public double StandardError { get; init; }

    /// <summary>Degrees of freedom of <see cref="StandardError"/> (n − 1, or Welch–Satterthwaite's); 0 without a noise estimate.</summary>
    public double DegreesOfFreedom { get; init; }

    /// <summary>True when the estimate carries a noise estimate (at least two observations behind every part).</summary>
    public bool HasNoiseEstimate => N >= 2 && DegreesOfFreedom > 0;

    /// <summary>Half the width of the 95 % interval: t<sub>0.975</sub>(ν) · <see cref="StandardError"/>; 0 without a noise estimate.</summary>
    public double HalfWidth95 => (High95 - Low95) / 2;

    /// <summary>
    /// The mean and 95 % confidence interval of <paramref name="values"/> (Student t, n − 1 degrees of freedom).
    /// Empty → all 0 with <see cref="N"/> = 0; one value → <see cref="Low95"/> = <see cref="High95"/> = <see cref="Mean"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="values"/> is null.</exception>
    /// <exception cref="ArgumentException">A value is NaN or infinite.</exception>
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
            if (!double.IsFinite(value))
            {
                throw new ArgumentException($"Every value must be a finite number; got {value}.", nameof(values));
            }

            sum += value;
        }

        var mean = sum / n;
        if (n == 1)
        {
            return new Estimate(mean, mean, mean, 1);
        }

        double squares = 0;
        foreach (var value in values)
        {
            squares += (value - mean) * (value - mean);
        }

        var standardError = Math.Sqrt(squares / (n - 1) / n);
        return WithInterval(mean, standardError, n - 1, n);
    }

    /// <summary>
    /// The mean of independent estimates (e.g. one variant's per-level means over several levels and payloads):
    /// mean of their means, standard error √(Σ SEᵢ²) / k, Welch–Satterthwaite degrees of freedom
    /// (Σ SEᵢ²)² / Σ (SEᵢ⁴ / νᵢ), and <see cref="N"/> the smallest of theirs. If any part has no noise estimate,
    /// neither has the result (its interval collapses to the mean). Empty → all 0.
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
        return WithInterval(mean, standardError, degrees, n);
    }

    /// <summary>
    /// Welch's two-sided t-test at level <paramref name="alpha"/>: true when the difference of the means is larger
    /// than the noise of both explains. Without a noise estimate on either side there is no test: returns null.
    /// Two noise-free estimates (standard errors 0) differ exactly when their means differ.
    /// </summary>
    public static bool? DiffersFrom(Estimate a, Estimate b, double alpha = 0.05)
    {
        if (!a.HasNoiseEstimate || !b.HasNoiseEstimate)
        {
            return null;
        }

        var variance = (a.StandardError * a.StandardError) + (b.StandardError * b.StandardError);
        var difference = Math.Abs(a.Mean - b.Mean);
        if (variance <= 0)
        {
            return difference > 0;
        }

        var degrees = Satterthwaite([(a.StandardError, a.DegreesOfFreedom), (b.StandardError, b.DegreesOfFreedom)], fallback: a.DegreesOfFreedom + b.DegreesOfFreedom);
        return difference / Math.Sqrt(variance) > StudentT.TwoSidedCriticalValue(degrees, alpha);
    }

    private static Estimate WithInterval(double mean, double standardError, double degreesOfFreedom, int n)
    {
        var halfWidth = standardError > 0 ? StudentT.TwoSidedCriticalValue(degreesOfFreedom) * standardError : 0;
        return new Estimate(mean, mean - halfWidth, mean + halfWidth, n) { StandardError = standardError, DegreesOfFreedom = degreesOfFreedom };
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
