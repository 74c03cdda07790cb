using System.Globalization;

namespace Dashboard.Web.Charts;

/// <summary>Tick positions and labels the charts compute themselves, so that every tick says its full value.</summary>
public static class AxisTicks
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// <summary>
    /// Ticks of a log axis covering <paramref name="min"/>..<paramref name="max"/> (both &gt; 0): 1, 2, 5 × 10ⁿ when the
    /// range spans at most three decades, else one tick per decade; labels in full (<c>0.5</c>, <c>1</c>, <c>10</c>,
    /// <c>100</c>, <c>1,000</c>, or with <see cref="AxisUnit.Bytes"/> <c>200 B</c>, <c>1 KB</c>, <c>1 MB</c>), never
    /// plotly's leading digits alone.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="min"/> is not positive or <paramref name="max"/> is below it.</exception>
    public static (IReadOnlyList<double> Values, IReadOnlyList<string> Labels) Log(double min, double max, AxisUnit unit)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(min);
        ArgumentOutOfRangeException.ThrowIfLessThan(max, min);
        var low = Math.Floor(Math.Log10(min));
        var high = Math.Ceiling(Math.Log10(max));
        if (high == low)
        {
            high++;
        }

        double[] steps = high - low <= 3 ? [1, 2, 5] : [1];
        var values = new List<double>();
        for (var exponent = low - 1; exponent <= high; exponent++)
        {
            values.AddRange(steps.Select(step => Round(step * Math.Pow(10, exponent))));
        }

        // From the largest tick at or below min to the smallest at or above max: the axis ends at labelled values.
        var first = Math.Max(0, values.FindLastIndex(v => v <= min));
        var last = values.FindIndex(v => v >= max);
        var trimmed = values.GetRange(first, (last < 0 ? values.Count - 1 : last) - first + 1);
        return (trimmed, [.. trimmed.Select(v => Label(v, unit))]);
    }

    /// <summary>A full label of <paramref name="value"/>: <c>0.05</c>, <c>20</c>, <c>1,000</c>; bytes as <c>200 B</c>, <c>1 KB</c>, <c>2.5 MB</c>.</summary>
    public static string Label(double value, AxisUnit unit) => unit switch
    {
        AxisUnit.Bytes => value >= 1e9 ? Scaled(value / 1e9) + " GB"
            : value >= 1e6 ? Scaled(value / 1e6) + " MB"
            : value >= 1e3 ? Scaled(value / 1e3) + " KB"
            : Scaled(value) + " B",
        _ => value >= 1000 ? value.ToString("#,0", Inv) : value.ToString("0.######", Inv),
    };

    /// <summary>
    /// Ticks of a linear axis of whole numbers (concurrent clients) over <paramref name="values"/>: every value when there
    /// are at most eight, else a step of 1, 2, 5, 10, 20, 50… chosen for about eight ticks. Never a fractional tick.
    /// </summary>
    public static IReadOnlyList<double> Integers(IReadOnlyCollection<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var distinct = values.Where(double.IsFinite).Distinct().Order().ToList();
        if (distinct.Count <= 8)
        {
            return distinct;
        }

        var span = distinct[^1] - Math.Min(0, distinct[0]);
        var step = 1.0;
        foreach (var candidate in new[] { 1.0, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000 })
        {
            step = candidate;
            if (span / candidate <= 8)
            {
                break;
            }
        }

        var ticks = new List<double>();
        for (var v = 0.0; v <= distinct[^1] + step / 2; v += step)
        {
            ticks.Add(v);
        }

        return ticks;
    }

    private static string Scaled(double value) => value.ToString(value >= 100 ? "0" : "0.##", Inv);

    private static double Round(double value) => double.Parse(value.ToString("G6", Inv), Inv);
}
