namespace Dashboard.Data.Measurement;

/// <summary>
/// Steady-state detection by the coefficient of variation of the last k windows (Georges, Buytaert &amp; Eeckhout,
/// "Statistically rigorous Java performance evaluation", OOPSLA 2007, §4.1: steady state is reached when the CoV of the
/// last k iterations falls below a threshold). Fed one figure per window: a closed level's throughput (req/s), an open
/// level's median response time (ms; <c>SteadyStateWarmup</c>); not thread-safe.
/// </summary>
/// <param name="windows">k, the number of latest windows the CoV is taken over; at least 2.</param>
/// <param name="maxCoefficientOfVariation">The threshold as a fraction (0.02 = 2 %); more than 0.</param>
public sealed class SteadyStateDetector(int windows, double maxCoefficientOfVariation)
{
    private readonly List<double> _rates = [];
    private readonly int _windows = windows >= 2 ? windows : throw new ArgumentOutOfRangeException(nameof(windows), windows, "At least 2 windows.");
    private readonly double _max = maxCoefficientOfVariation > 0 ? maxCoefficientOfVariation : throw new ArgumentOutOfRangeException(nameof(maxCoefficientOfVariation), maxCoefficientOfVariation, "The threshold must be positive.");

    /// <summary>Windows seen so far.</summary>
    public int Count => _rates.Count;

    /// <summary>CoV (fraction) of the last k windows, or of all when fewer; null with fewer than 2 windows or a mean of 0.</summary>
    public double? CoefficientOfVariation => Estimate.CoefficientOfVariationOf(_rates.Count <= _windows ? _rates : _rates[^_windows..]);

    /// <summary>True once k windows are in and the CoV of the last k is at most the threshold.</summary>
    public bool IsSteady => _rates.Count >= _windows && CoefficientOfVariation is { } cov && cov <= _max;

    /// <summary>Adds one window's figure (throughput in req/s, or an open level's median response time in ms; finite, ≥ 0) and returns <see cref="IsSteady"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="throughputRps"/> is negative or not finite.</exception>
    public bool Add(double throughputRps)
    {
        if (!double.IsFinite(throughputRps) || throughputRps < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(throughputRps), throughputRps, "A window's figure is a finite non-negative number.");
        }

        _rates.Add(throughputRps);
        return IsSteady;
    }
}
