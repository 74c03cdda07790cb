namespace Dashboard.Data.Measurement;

/// <summary>
/// Correction for several tests at once: the one place the claims engine (a claim's cases) and the compare page (a pair of
/// runs' levels) take it from. Holm's step-down procedure (Holm 1979, "A simple sequentially rejective multiple test
/// procedure", Scandinavian Journal of Statistics 6:65–70) keeps the chance of any false "differs" at or below α over all
/// the tests, and rejects at least as often as Bonferroni.
/// </summary>
public static class MultipleTesting
{
    /// <summary>
    /// Holm-adjusted p-values: sorted p₍₁₎ ≤ … ≤ p₍ₘ₎, adjusted p₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1) p₍ⱼ₎), returned in
    /// the input's order (R's <c>p.adjust(p, "holm")</c>). A test is rejected at level α when its adjusted p is below α, which
    /// is the step-down rule: reject the i-th smallest while (m − i + 1) p₍ᵢ₎ &lt; α, then keep every later one. Nulls (no
    /// test was possible) stay null and do not count in m.
    /// </summary>
    /// <param name="pValues">Raw p-values in [0, 1], or null where no test was possible.</param>
    /// <returns>One adjusted p-value (or null) per input, same order.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="pValues"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A p-value is not in [0, 1].</exception>
    public static IReadOnlyList<double?> HolmAdjusted(IReadOnlyList<double?> pValues)
    {
        ArgumentNullException.ThrowIfNull(pValues);
        if (pValues.FirstOrDefault(p => p is { } v && !(v is >= 0 and <= 1)) is { } bad)
        {
            throw new ArgumentOutOfRangeException(nameof(pValues), bad, "A p-value must be between 0 and 1.");
        }

        var order = pValues.Select((p, i) => (p, i)).Where(x => x.p is not null).OrderBy(x => x.p).ToList();
        var adjusted = new double?[pValues.Count];
        var running = 0.0;
        for (var k = 0; k < order.Count; k++)
        {
            running = Math.Max(running, Math.Min(1, (order.Count - k) * order[k].p!.Value));
            adjusted[order[k].i] = running;
        }

        return adjusted;
    }
}
