using System.Globalization;

namespace Dashboard.Web.Charts;

/// <summary>Pixel size of exported figures (PNG and SVG), e.g. <c>1600x900</c> in a query string.</summary>
/// <param name="Width">Width, px.</param>
/// <param name="Height">Height, px.</param>
public readonly record struct ExportSize(int Width, int Height)
{
    /// <summary>1600 × 900 px: a full-width 16:9 figure.</summary>
    public static ExportSize Default { get; } = new(1600, 900);

    /// <summary>The sizes offered in the pages' size control.</summary>
    public static IReadOnlyList<ExportSize> Choices { get; } = [new(1600, 900), new(1200, 800), new(1000, 600), new(800, 600), new(2400, 1350)];

    /// <summary>Smallest and largest accepted side, px.</summary>
    public const int MinSide = 300, MaxSide = 4000;

    /// <summary>Parses <c>WIDTHxHEIGHT</c>; null when absent, malformed or out of <see cref="MinSide"/>..<see cref="MaxSide"/>.</summary>
    public static ExportSize? Parse(string? text)
    {
        var parts = (text ?? "").Split('x', 'X', '×');
        return parts.Length == 2
            && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var w)
            && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var h)
            && w is >= MinSide and <= MaxSide && h is >= MinSide and <= MaxSide
            ? new ExportSize(w, h)
            : null;
    }

    /// <inheritdoc />
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Width}x{Height}");
}
