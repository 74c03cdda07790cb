namespace Dashboard.Web.Charts;

/// <summary>
/// One colour per case (variant × client, or any <see cref="ChartSeries.ColorKey"/>), the same in every chart and every
/// run: the colour is picked from the key's text (a stable FNV-1a hash, not .NET's per-process string hash), so a case
/// drawn in run 3 and run 7 looks the same. Two keys of one chart that hash to the same colour get the next free one.
/// </summary>
public static class ChartColors
{
    /// <summary>The palette: Tableau 10 followed by its lighter and darker companions (20 colours, print-safe on white).</summary>
    public static IReadOnlyList<string> Palette { get; } =
    [
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
        "#393b79", "#ad494a", "#637939", "#e6550d", "#7b4173", "#843c39", "#d6616b", "#525252", "#8c6d31", "#3182bd",
    ];

    /// <summary>Red of levels with errors (crosses, hatching, shaded spans).</summary>
    public const string Error = "#b00020";

    /// <summary>The preferred palette index of <paramref name="key"/> (stable across processes and runs).</summary>
    public static int PreferredIndex(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        var hash = 2166136261u;
        foreach (var c in key)
        {
            hash = (hash ^ c) * 16777619u;
        }

        return (int)(hash % (uint)Palette.Count);
    }

    /// <summary>
    /// Colours of <paramref name="keys"/> in one chart: each its preferred colour, unless an earlier key (in ordinal order,
    /// so the result does not depend on the order given) took it; then the next free one.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Assign(IEnumerable<string> keys)
    {
        ArgumentNullException.ThrowIfNull(keys);
        var taken = new HashSet<int>();
        var colors = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var key in keys.Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal))
        {
            var index = PreferredIndex(key);
            for (var i = 0; i < Palette.Count && taken.Contains(index); i++)
            {
                index = (index + 1) % Palette.Count;
            }

            taken.Add(index);
            colors[key] = Palette[index];
        }

        return colors;
    }
}
