using System.Globalization;
using Dashboard.Data.Claims;
using Dashboard.Data.Export;
using Plotly.Blazor;
using Plotly.Blazor.LayoutLib;
using Plotly.Blazor.Traces;
using ScatterErrorX = Plotly.Blazor.Traces.ScatterLib.ErrorX;
using ScatterErrorType = Plotly.Blazor.Traces.ScatterLib.ErrorXLib.TypeEnum;
using ScatterFill = Plotly.Blazor.Traces.ScatterLib.FillEnum;
using ScatterHoverInfo = Plotly.Blazor.Traces.ScatterLib.HoverInfoFlag;
using ScatterLine = Plotly.Blazor.Traces.ScatterLib.Line;
using ScatterMarker = Plotly.Blazor.Traces.ScatterLib.Marker;
using ScatterMode = Plotly.Blazor.Traces.ScatterLib.ModeFlag;
using ScatterSymbol = Plotly.Blazor.Traces.ScatterLib.MarkerLib.SymbolEnum;
using XAutoMargin = Plotly.Blazor.LayoutLib.XAxisLib.AutoMarginFlag;
using XTickMode = Plotly.Blazor.LayoutLib.XAxisLib.TickModeEnum;
using XType = Plotly.Blazor.LayoutLib.XAxisLib.TypeEnum;
using YTickMode = Plotly.Blazor.LayoutLib.YAxisLib.TickModeEnum;
using YType = Plotly.Blazor.LayoutLib.YAxisLib.TypeEnum;

namespace Dashboard.Web.Charts;

/// <summary>One row of a forest plot: a case's ratio A ÷ B with its 95 % interval.</summary>
/// <param name="Case">The case key, e.g. "MetroSoap11 vs MetroSoap11Https · java × Int × 20 clients × same-machine".</param>
/// <param name="Ratio">A ÷ B (&gt; 0).</param>
/// <param name="Low">Lower end of its 95 % interval (= <paramref name="Ratio"/> without one).</param>
/// <param name="High">Upper end of its 95 % interval.</param>
/// <param name="Verdict">The case's verdict, in words ("holds", "does not hold"…).</param>
/// <param name="Detail">The test and its p-values, for the hover and the table, e.g. "Welch … p = 0.001, Holm 0.003".</param>
public sealed record ForestRow(string Case, double Ratio, double Low, double High, string Verdict, string Detail);

/// <summary>
/// A claim's forest plot as data (issue #34 item 7): one row per measured case with its ratio A ÷ B and interval, the
/// claim's band (what agrees with it, or the "no advantage" margin around 1), and the summary effect when one decided.
/// Drawn by <see cref="ForestPlot.Build"/>.
/// </summary>
/// <param name="Title">The claim's statement.</param>
/// <param name="XTitle">"ratio A ÷ B (metric, unit), log scale".</param>
/// <param name="Rows">The cases, top to bottom.</param>
/// <param name="BandLow">Lower end of the shaded band (ratio).</param>
/// <param name="BandHigh">Upper end of the shaded band (ratio); null for an open range, drawn to the axis's end.</param>
/// <param name="BandName">What the band means, e.g. "claimed: A ÷ B in [1.18, 1.38]" or "no advantage: within ±5 %".</param>
public sealed record ForestSpec(string Title, string XTitle, IReadOnlyList<ForestRow> Rows, double BandLow, double? BandHigh, string BandName)
{
    /// <summary>The summary effect over the cases (drawn as a diamond in its own row), or null.</summary>
    public ForestRow? Summary { get; init; }

    /// <summary>How the plot was computed, shown under it on the page (never exported).</summary>
    public string? Subtitle { get; init; }

    /// <summary>
    /// The forest plot of <paramref name="result"/>: its measured cases (ratio &gt; 0), its band and its summary; null
    /// when no case has a ratio.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="result"/> is null.</exception>
    public static ForestSpec? Of(ClaimResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var claim = result.Claim;
        var rows = result.Contrasts.Where(c => c.Ratio is > 0).Select(c => new ForestRow(
            c.Label,
            c.Ratio!.Value,
            c.HasInterval && c.RatioLow is > 0 ? c.RatioLow.Value : c.Ratio.Value,
            c.HasInterval && c.RatioHigh is > 0 ? c.RatioHigh.Value : c.Ratio.Value,
            ClaimsExport.VerdictText(c.Verdict),
            Detail(c))).ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var (low, high, name) = claim.Comparison switch
        {
            ClaimComparison.Better => (1 / (1 + claim.EquivalenceMargin), (double?)(1 + claim.EquivalenceMargin),
                string.Create(CultureInfo.InvariantCulture, $"no advantage: within ±{claim.EquivalenceMargin * 100:0.#} %")),
            _ => Claimed(claim),
        };
        var metric = ClaimMetrics.NameOf(claim.Metric);
        var unit = ClaimMetrics.UnitOf(claim.Metric);
        return new ForestSpec(claim.Statement, $"ratio A ÷ B of {metric} ({unit}), log scale", rows, low, high, name)
        {
            Summary = result.Summary is { } s
                ? new ForestRow($"summary over {s.Cases} cases", s.Ratio, s.Low, s.High, ClaimsExport.VerdictText(result.Verdict),
                    "geometric mean of the cases' ratios, 95 % t interval over their logs")
                : null,
            Subtitle = $"{claim.DescribeComparison()}; A is the side the claim favours. Each case: A ÷ B with its 95 % interval ({result.Method}).",
        };
    }

    private static (double Low, double? High, string Name) Claimed(Claim claim)
    {
        var (low, high) = ClaimEvaluator.Band(claim);
        var text = claim.Comparison == ClaimComparison.Similar
            ? string.Create(CultureInfo.InvariantCulture, $"claimed: A ≈ B within ±{claim.Tolerance * 100:0.#} %")
            : double.IsPositiveInfinity(high)
                ? string.Create(CultureInfo.InvariantCulture, $"claimed: A ÷ B ≥ {low:0.##}")
                : string.Create(CultureInfo.InvariantCulture, $"claimed: A ÷ B in [{low:0.##}, {high:0.##}]");
        return (low, double.IsPositiveInfinity(high) ? null : high, text);
    }

    private static string Detail(ContrastResult c)
    {
        var parts = new List<string>();
        if (c.Method.Length > 0)
        {
            parts.Add(c.Method);
        }

        if (c.PValue is { } p)
        {
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"p = {p:0.####}"));
        }

        if (c.AdjustedPValue is { } adjusted)
        {
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"Holm-adjusted p = {adjusted:0.####}"));
        }

        return parts.Count == 0 ? (c.HasInterval ? "" : "no interval") : string.Join("; ", parts);
    }
}

/// <summary>
/// Draws a <see cref="ForestSpec"/> as a Plotly.Blazor figure (pure: no I/O): one row per case with a marker at A ÷ B and horizontal 95 % error bars, the claim's band shaded, a dashed line at 1 (no
/// difference), the summary effect as a larger diamond in a row of its own under the cases, a log x axis with full tick
/// labels (<see cref="AxisTicks"/>). Each row's case key is written above its marker, wrapped to the figure's width.
/// </summary>
public static class ForestPlot
{
    private const string FontFamily = "system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif";
    private const string CaseColor = "#1f4e79";
    private const string SummaryColor = "#b35900";

    /// <summary>Trace names, as the legend shows them.</summary>
    public const string CasesName = "case: A ÷ B, 95 % interval", SummaryName = "summary effect, 95 % interval", NoDifferenceName = "no difference (1)";

    /// <summary>
    /// The figure of <paramref name="spec"/> in <paramref name="style"/> at <paramref name="width"/> px; <paramref name="height"/>
    /// fixes the height (exports), else it grows with the rows (28 px each on screen).
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static Figure Build(ForestSpec spec, ChartStyle style, int width, int? height = null)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(style);
        var rows = spec.Rows;
        var count = rows.Count + (spec.Summary is null ? 0 : 1);

        // Rows top to bottom, one y unit each: case i in the slot around y = count - 1 - i, the summary's around y = 0. Each
        // slot holds its case key (wrapped to the plot's width) over the marker, so long keys never squeeze the plot.
        var rowLabels = rows.Select(r => r.Case).Concat(spec.Summary is { } sm ? [sm.Case] : []).ToList();
        var wrapped = rowLabels.Select(l => PlotlyFigure.TitleLines(l, style.Tick, width - 50)).ToList();
        var lines = wrapped.Max(w => w.Count);
        var lineHeight = style.Tick + 5.0;
        var slot = (lines + 1.8) * lineHeight;
        var markerOffset = 0.5 - ((lines + 0.9) * lineHeight / slot);
        double YOf(int i) => count - 1 - i + markerOffset;
        double LabelY(int i) => count - 1 - i + 0.5 - (0.15 * lineHeight / slot);
        var values = rows.SelectMany(r => new[] { r.Low, r.Ratio, r.High })
            .Concat(spec.Summary is { } s ? [s.Low, s.High] : [])
            .Concat([spec.BandLow, 1.0])
            .Concat(spec.BandHigh is { } bh ? [bh] : [])
            .Where(v => v > 0 && double.IsFinite(v)).ToList();
        var (ticks, labels) = AxisTicks.Log(values.Min(), values.Max(), AxisUnit.Number);
        var (xmin, xmax) = (ticks[0], ticks[^1]);
        var bandHigh = spec.BandHigh ?? xmax;
        var (ybottom, ytop) = (-0.5, count - 0.5);

        var data = new List<ITrace>
        {
            new Scatter
            {
                Name = spec.BandName, Mode = ScatterMode.Lines, HoverInfo = ScatterHoverInfo.Name,
                X = [spec.BandLow, bandHigh, bandHigh, spec.BandLow, spec.BandLow],
                Y = [ybottom, ybottom, ytop, ytop, ybottom],
                Fill = ScatterFill.ToSelf, FillColor = "rgba(46,125,50,0.14)", Line = new ScatterLine { Color = "rgba(46,125,50,0.6)", Width = 1 },
            },
            new Scatter
            {
                Name = NoDifferenceName, Mode = ScatterMode.Lines, HoverInfo = ScatterHoverInfo.Skip,
                X = [1.0, 1.0], Y = [ybottom, ytop], Line = new ScatterLine { Color = "#555", Width = 1, Dash = "dash" },
            },
            new Scatter
            {
                Name = CasesName, Mode = ScatterMode.Markers,
                X = [.. rows.Select(r => (object)r.Ratio)],
                Y = [.. rows.Select((_, i) => (object)YOf(i))],
                TextArray = [.. rows.Select(Hover)],
                HoverTemplate = "%{text}<extra></extra>",
                Marker = new ScatterMarker { Color = CaseColor, Size = style.Marker + 2, Symbol = ScatterSymbol.Square },
                ErrorX = new ScatterErrorX
                {
                    Type = ScatterErrorType.Data, Symmetric = false, Visible = true, Color = CaseColor, Thickness = (decimal)style.Line * 0.75m, Width = 5,
                    Array = [.. rows.Select(r => (object)Math.Max(0, r.High - r.Ratio))],
                    ArrayMinus = [.. rows.Select(r => (object)Math.Max(0, r.Ratio - r.Low))],
                },
            },
        };
        if (spec.Summary is { } summary)
        {
            data.Add(new Scatter
            {
                Name = SummaryName, Mode = ScatterMode.Markers,
                X = [summary.Ratio], Y = [YOf(count - 1)],
                TextArray = [Hover(summary)], HoverTemplate = "%{text}<extra></extra>",
                Marker = new ScatterMarker { Color = SummaryColor, Size = style.Marker + 8, Symbol = ScatterSymbol.Diamond },
                ErrorX = new ScatterErrorX
                {
                    Type = ScatterErrorType.Data, Symmetric = false, Visible = true, Color = SummaryColor, Thickness = (decimal)style.Line * 1.5m, Width = 8,
                    Array = [Math.Max(0, summary.High - summary.Ratio)], ArrayMinus = [Math.Max(0, summary.Ratio - summary.Low)],
                },
            });
        }

        data.Add(new Scatter
        {
            Name = "case keys", Mode = ScatterMode.Text, ShowLegend = false, HoverInfo = ScatterHoverInfo.Skip,
            X = [.. rowLabels.Select(_ => (object)xmin)],
            Y = [.. rowLabels.Select((_, i) => (object)LabelY(i))],
            TextArray = [.. wrapped.Select(w => string.Join("<br>", w.Select(Escape)))],
            TextPosition = Plotly.Blazor.Traces.ScatterLib.TextPositionEnum.BottomRight,
            TextFont = new Plotly.Blazor.Traces.ScatterLib.TextFont { Size = style.Tick, Color = "#263238" },
        });
        var titleLines = PlotlyFigure.TitleLines(spec.Title, style.Title, width);
        var legendNames = data.Select(t => ((Scatter)t).Name).ToList();
        var legendRows = PlotlyFigure.LegendRows(legendNames, style, width);
        var titleHeight = (int)Math.Ceiling(style.Title * 1.3);
        var top = 25 + (titleLines.Count * titleHeight);
        var bottom = 70 + (legendRows * style.RowHeight) + ((PlotlyFigure.TitleLines(spec.XTitle, style.Axis, width).Count - 1) * (style.Axis + 4));
        var layout = new Layout
        {
            Title = new Title
            {
                Text = string.Join("<br>", titleLines.Select(l => "<b>" + Escape(l) + "</b>")),
                Font = new Plotly.Blazor.LayoutLib.TitleLib.Font { Size = style.Title }, X = 0.02m, XAnchor = Plotly.Blazor.LayoutLib.TitleLib.XAnchorEnum.Left,
                // From the figure's top down, so a title of several lines never runs into the plot.
                YRef = Plotly.Blazor.LayoutLib.TitleLib.YRefEnum.Container, Y = 1, YAnchor = Plotly.Blazor.LayoutLib.TitleLib.YAnchorEnum.Top,
                Pad = new Plotly.Blazor.LayoutLib.TitleLib.Pad { T = 10 },
            },
            XAxis = [new XAxis
            {
                Title = new Plotly.Blazor.LayoutLib.XAxisLib.Title { Text = string.Join("<br>", PlotlyFigure.TitleLines(spec.XTitle, style.Axis, width).Select(Escape)), Font = new Plotly.Blazor.LayoutLib.XAxisLib.TitleLib.Font { Size = style.Axis } },
                Type = XType.Log, TickMode = XTickMode.Array, TickVals = [.. ticks.Cast<object>()], TickText = [.. labels.Cast<object>()],
                Range = [Math.Log10(xmin), Math.Log10(xmax)], ZeroLine = false, AutoMargin = XAutoMargin.True,
                TickFont = new Plotly.Blazor.LayoutLib.XAxisLib.TickFont { Size = style.Tick }, GridColor = "#e6e6e6", LineColor = "#444", ShowLine = true,
            }],
            YAxis = [new YAxis
            {
                Type = YType.Linear, ShowTickLabels = false, Ticks = Plotly.Blazor.LayoutLib.YAxisLib.TicksEnum.Empty,
                TickMode = YTickMode.Array, TickVals = [.. Enumerable.Range(0, count + 1).Select(i => (object)(i - 0.5))],
                Range = [ybottom, ytop], ZeroLine = false, ShowGrid = true, GridColor = "#eeeeee", FixedRange = true, LineColor = "#444", ShowLine = true,
            }],
            Margin = new Margin { L = 20, R = 25, T = top, B = bottom },
            Legend = [new Legend
            {
                Orientation = Plotly.Blazor.LayoutLib.LegendLib.OrientationEnum.H, X = 0, Y = 0,
                YRef = Plotly.Blazor.LayoutLib.LegendLib.YRefEnum.Container, YAnchor = Plotly.Blazor.LayoutLib.LegendLib.YAnchorEnum.Bottom,
                Font = new Plotly.Blazor.LayoutLib.LegendLib.Font { Size = style.Legend },
            }],
            HoverMode = HoverModeEnum.Closest,
            ShowLegend = true,
            PaperBgColor = style.Background,
            PlotBgColor = "#ffffff",
            Font = new Font { Family = FontFamily, Size = style.Font, Color = "#222" },
            Separators = ".,",
        };
        layout.Height = height ?? top + bottom + 40 + (int)Math.Ceiling(Math.Max(140, count * slot));
        if (height is not null)
        {
            layout.Width = width;
        }

        return new Figure(data, layout);
    }

    // Plotly's text is a small HTML subset: only its markup characters are escaped, the rest (×, ·, ÷) stays as it is.
    private static string Escape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal)
        .Replace("<", "&lt;", StringComparison.Ordinal).Replace(">", "&gt;", StringComparison.Ordinal);

    private static string Hover(ForestRow r) => Escape(r.Case) + "<br>" + string.Create(CultureInfo.InvariantCulture,
        $"A ÷ B = {r.Ratio:0.###} [{r.Low:0.###}, {r.High:0.###}]: {r.Verdict}") + (r.Detail.Length > 0 ? "<br>" + Escape(r.Detail) : "");
}
