using System.Globalization;
using System.Net;
using Plotly.Blazor;
using Plotly.Blazor.LayoutLib;
using Plotly.Blazor.Traces;
using BarMarker = Plotly.Blazor.Traces.BarLib.Marker;
using BarMarkerLine = Plotly.Blazor.Traces.BarLib.MarkerLib.Line;
using BarPattern = Plotly.Blazor.Traces.BarLib.MarkerLib.Pattern;
using BarPatternFill = Plotly.Blazor.Traces.BarLib.MarkerLib.PatternLib.FillModeEnum;
using BarPatternShape = Plotly.Blazor.Traces.BarLib.MarkerLib.PatternLib.ShapeEnum;
using BarErrorY = Plotly.Blazor.Traces.BarLib.ErrorY;
using BarErrorType = Plotly.Blazor.Traces.BarLib.ErrorYLib.TypeEnum;
using ScatterErrorY = Plotly.Blazor.Traces.ScatterLib.ErrorY;
using ScatterErrorType = Plotly.Blazor.Traces.ScatterLib.ErrorYLib.TypeEnum;
using ScatterLine = Plotly.Blazor.Traces.ScatterLib.Line;
using ScatterMarker = Plotly.Blazor.Traces.ScatterLib.Marker;
using ScatterMode = Plotly.Blazor.Traces.ScatterLib.ModeFlag;
using ScatterSymbol = Plotly.Blazor.Traces.ScatterLib.MarkerLib.SymbolEnum;
using ScatterTextFont = Plotly.Blazor.Traces.ScatterLib.TextFont;
using ScatterTextPosition = Plotly.Blazor.Traces.ScatterLib.TextPositionEnum;
using ScatterFill = Plotly.Blazor.Traces.ScatterLib.FillEnum;
using ScatterHoverInfo = Plotly.Blazor.Traces.ScatterLib.HoverInfoFlag;
using XType = Plotly.Blazor.LayoutLib.XAxisLib.TypeEnum;
using YType = Plotly.Blazor.LayoutLib.YAxisLib.TypeEnum;
using XTickMode = Plotly.Blazor.LayoutLib.XAxisLib.TickModeEnum;
using YTickMode = Plotly.Blazor.LayoutLib.YAxisLib.TickModeEnum;
using YRangeMode = Plotly.Blazor.LayoutLib.YAxisLib.RangeModeEnum;
using XAutoMargin = Plotly.Blazor.LayoutLib.XAxisLib.AutoMarginFlag;
using YAutoMargin = Plotly.Blazor.LayoutLib.YAxisLib.AutoMarginFlag;

namespace Dashboard.Web.Charts;

/// <summary>How a figure is drawn: on the page, or for a paper (export).</summary>
/// <param name="Font">Base font size, px.</param>
/// <param name="Title">Title font size, px.</param>
/// <param name="Axis">Axis title font size, px.</param>
/// <param name="Tick">Tick label font size, px.</param>
/// <param name="Legend">Legend font size, px.</param>
/// <param name="Line">Line width, px.</param>
/// <param name="Marker">Marker size, px.</param>
/// <param name="Background">Colour around the plot area.</param>
/// <param name="RowHeight">Height of one legend row, px.</param>
public sealed record ChartStyle(int Font, int Title, int Axis, int Tick, int Legend, double Line, int Marker, string Background, int RowHeight)
{
    /// <summary>On the page: compact fonts, transparent surround.</summary>
    public static ChartStyle Screen { get; } = new(12, 15, 13, 12, 12, 2, 6, "rgba(0,0,0,0)", 20);

    /// <summary>For a paper: white background, fonts of 14 px and more, thicker lines.</summary>
    public static ChartStyle Paper { get; } = new(16, 22, 18, 15, 15, 3, 8, "#ffffff", 26);
}

/// <summary>A Plotly.Blazor figure: traces and layout.</summary>
/// <param name="Data">The traces.</param>
/// <param name="Layout">The layout (height set; width set for exports).</param>
public sealed record Figure(IList<ITrace> Data, Layout Layout);

/// <summary>
/// Draws a <see cref="ChartSpec"/> as a Plotly.Blazor figure (pure: no I/O, unit-testable): lines with markers or grouped
/// bars (full width when each series is one case's bar at its own category), a red ✕ (lines) or red cross-hatch (bars) on levels with errors and a "level with errors" legend entry, 95 % CI
/// error bars, log axes with full tick labels (<see cref="AxisTicks"/>), integer client ticks, one colour per case
/// (<see cref="ChartColors"/>), level boundaries on time axes as a few traces on a hidden 0..1 axis. The figure never
/// carries the page's subtitle and has no legend entry hidden until clicked, so what is exported is what a paper shows.
/// </summary>
public static class PlotlyFigure
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;
    private const string FontFamily = "system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif";
    private const int PlotHeight = 340;

    /// <summary>
    /// The figure of <paramref name="spec"/> in <paramref name="style"/>; <paramref name="width"/> is the figure's width
    /// in px (the page's estimate, or the export's size), used to lay out the legend and thin the level labels;
    /// <paramref name="height"/> fixes the height (exports), else it grows with the legend.
    /// </summary>
    public static Figure Build(ChartSpec spec, ChartStyle style, int width, int? height = null)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(style);
        var colors = ChartColors.Assign(spec.Series.Select(s => s.ColorKey ?? s.Name));
        // Bars of one series each, at categories of their own (one bar per case, in the case's colour): they share one
        // offset group, so each is drawn full width over its label instead of thin in a slot of its own.
        var oneBarEach = spec.Kind == "bar" && spec.Series.All(s => s.Categories is { Count: 1 })
            && spec.Series.Select(s => s.Categories![0]).Distinct(StringComparer.Ordinal).Count() == spec.Series.Count;
        var data = new List<ITrace>();
        foreach (var s in spec.Series)
        {
            var color = colors[s.ColorKey ?? s.Name];
            data.Add(spec.Kind == "bar" ? BarTrace(s, color, oneBarEach ? "cases" : null) : LineTrace(s, color, style));
        }

        var anyErrorPoint = spec.Series.Any(s => s.ErrorPoints is { Count: > 0 });
        var anyErrorSpan = spec.Spans?.Any(s => s.HasErrors) == true;
        if (anyErrorPoint || anyErrorSpan)
        {
            var shaded = anyErrorSpan && !anyErrorPoint;
            data.Add(new Scatter
            {
                Name = shaded ? "level with errors (shaded red)" : "level with errors",
                Mode = ScatterMode.Markers,
                X = [null!],
                Y = [null!],
                HoverInfo = ScatterHoverInfo.Skip,
                Marker = new ScatterMarker { Symbol = shaded ? ScatterSymbol.Square : ScatterSymbol.X, Color = shaded ? "rgba(176,0,32,0.3)" : ChartColors.Error, Size = 11 },
            });
        }

        var legendNames = data.Select(t => t is Scatter sc ? sc.Name : ((Bar)t).Name).ToList();
        // A legend grouped by run puts each group on its own rows, under its title.
        var groups = spec.Series.Select(s => s.Group).Where(g => g is not null).Distinct().ToList();
        var rows = groups.Count == 0 ? LegendRows(legendNames, style, width)
            : groups.Sum(g => 1 + LegendRows([.. spec.Series.Where(s => s.Group == g).Select(s => s.Name)], style, width)) + 1;
        data.AddRange(SpanTraces(spec, style, width));
        var titleLines = TitleLines(spec.Title, style.Title, width);
        var noteLines = spec.Note is null ? [] : TitleLines(spec.Note, style.Tick, width);
        var layout = Layout(spec, style, rows, titleLines, noteLines);
        layout.Height = height ?? PlotHeight + (rows * style.RowHeight) + (noteLines.Count * (style.Font + 6)) + ((titleLines.Count - 1) * TitleLineHeight(style));
        if (height is not null)
        {
            layout.Width = width;
        }

        return new Figure(data, layout);
    }

    /// <summary>
    /// The chart title (or its note) as lines that fit a figure <paramref name="width"/> px wide in bold <paramref name="fontSize"/> px
    /// (0.62 of the size per character, the title's left offset and a right margin kept): words are kept whole, a word
    /// longer than a line gets a line of its own. One line when the title fits.
    /// </summary>
    public static IReadOnlyList<string> TitleLines(string title, int fontSize, int width)
    {
        ArgumentNullException.ThrowIfNull(title);
        var perLine = Math.Max(8, (int)Math.Floor((width - 30) / (fontSize * 0.62)));
        var lines = new List<string>();
        var line = "";
        foreach (var word in title.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > perLine)
            {
                lines.Add(line);
                line = word;
            }
            else
            {
                line = line.Length == 0 ? word : line + " " + word;
            }
        }

        lines.Add(line);
        return lines;
    }

    private static int TitleLineHeight(ChartStyle style) => (int)Math.Ceiling(style.Title * 1.3);

    /// <summary>Legend rows below the plot: as many entries per row as fit <paramref name="width"/>, judged by the longest name.</summary>
    public static int LegendRows(IReadOnlyCollection<string> names, ChartStyle style, int width)
    {
        ArgumentNullException.ThrowIfNull(names);
        ArgumentNullException.ThrowIfNull(style);
        if (names.Count == 0)
        {
            return 0;
        }

        var longest = Math.Max(8, names.Max(n => n.Length));
        var perRow = Math.Max(1, (int)Math.Floor((width - 40) / ((longest * style.Legend * 0.6) + 50)));
        return (names.Count + perRow - 1) / perRow;
    }

    private static IList<object> XValues(ChartSeries s) =>
        s.Categories is { } categories ? [.. categories.Cast<object>()] : [.. s.X.Select(x => (object)x)];

    private static IList<object> YValues(ChartSeries s) => [.. s.Y.Select(y => y is { } v ? (object)v : null!)];

    private static (IList<object>? Plus, IList<object>? Minus) ErrorBars(ChartSeries s)
    {
        if (s.Low is null || s.High is null)
        {
            return (null, null);
        }

        var plus = s.Y.Select((y, i) => y is { } v && s.High[i] is { } h ? Math.Max(0, h - v) : 0).ToList();
        var minus = s.Y.Select((y, i) => y is { } v && s.Low[i] is { } l ? Math.Max(0, v - l) : 0).ToList();
        return plus.Any(v => v > 0) || minus.Any(v => v > 0) ? ([.. plus.Cast<object>()], [.. minus.Cast<object>()]) : (null, null);
    }

    private static Scatter LineTrace(ChartSeries s, string color, ChartStyle style)
    {
        var errors = new HashSet<int>(s.ErrorPoints ?? []);
        var count = s.Categories?.Count ?? s.X.Count;
        var (plus, minus) = ErrorBars(s);
        var symbol = s.Symbol switch
        {
            "square" => ScatterSymbol.Square,
            "diamond" => ScatterSymbol.Diamond,
            "triangle-up" => ScatterSymbol.TriangleUp,
            "star" => ScatterSymbol.Star,
            _ => ScatterSymbol.Circle,
        };
        return new Scatter
        {
            Name = s.Name,
            X = XValues(s),
            Y = YValues(s),
            TextArray = s.Text is null ? null : [.. s.Text],
            HoverTemplate = s.Text is null ? null : "%{text}<extra>%{fullData.name}</extra>",
            Mode = count > 60 ? ScatterMode.Lines : ScatterMode.Lines | ScatterMode.Markers,
            Line = new ScatterLine { Color = color, Dash = s.Dash, Width = (decimal)style.Line },
            Marker = new ScatterMarker
            {
                ColorArray = [.. Enumerable.Range(0, count).Select(j => (object)(errors.Contains(j) ? ChartColors.Error : color))],
                SizeArray = [.. Enumerable.Range(0, count).Select(j => (decimal?)(errors.Contains(j) ? style.Marker + 6 : style.Marker))],
                SymbolArray = [.. Enumerable.Range(0, count).Select(j => (ScatterSymbol?)(errors.Contains(j) ? ScatterSymbol.X : symbol))],
            },
            ErrorY = plus is null ? null : new ScatterErrorY { Type = ScatterErrorType.Data, Symmetric = false, Array = plus, ArrayMinus = minus, Thickness = 1.2m, Width = 4, Visible = true, Color = color },
            ConnectGaps = false,
            LegendGroup = s.Group,
            LegendGroupTitle = s.Group is null ? null : new Plotly.Blazor.Traces.ScatterLib.LegendGroupTitle { Text = s.Group },
        };
    }

    private static Bar BarTrace(ChartSeries s, string color, string? offsetGroup)
    {
        var errors = new HashSet<int>(s.ErrorPoints ?? []);
        var count = s.Categories?.Count ?? s.X.Count;
        var (plus, minus) = ErrorBars(s);
        var pattern = s.Pattern switch
        {
            "/" => BarPatternShape.Slash,
            "\\" => BarPatternShape.Backslash,
            "." => BarPatternShape.Dot,
            _ => BarPatternShape.Empty,
        };
        return new Bar
        {
            Name = s.Name,
            X = XValues(s),
            Y = YValues(s),
            TextArray = s.Text is null ? null : [.. s.Text],
            HoverTemplate = s.Text is null ? null : "%{text}<extra>%{fullData.name}</extra>",
            TextPosition = Plotly.Blazor.Traces.BarLib.TextPositionEnum.None,
            Marker = new BarMarker
            {
                Color = color,
                Line = new BarMarkerLine { Color = ChartColors.Error, WidthArray = [.. Enumerable.Range(0, count).Select(j => (decimal?)(errors.Contains(j) ? 2 : 0))] },
                Pattern = new BarPattern
                {
                    ShapeArray = [.. Enumerable.Range(0, count).Select(j => (BarPatternShape?)(errors.Contains(j) ? BarPatternShape.X : pattern))],
                    FgColor = errors.Count > 0 ? ChartColors.Error : "#ffffff",
                    FillMode = BarPatternFill.Overlay,
                    Solidity = 0.35m,
                },
            },
            ErrorY = plus is null ? null : new BarErrorY { Type = BarErrorType.Data, Symmetric = false, Array = plus, ArrayMinus = minus, Thickness = 1.2m, Width = 4, Visible = true, Color = "#333" },
            LegendGroup = s.Group,
            OffsetGroup = offsetGroup,
        };
    }

    private static IEnumerable<ITrace> SpanTraces(ChartSpec spec, ChartStyle style, int width)
    {
        var spans = spec.Spans ?? [];
        if (spans.Count == 0)
        {
            yield break;
        }

        var xs = spec.Series.SelectMany(s => s.X).Concat(spans.Select(s => s.End)).Concat(spans.Select(s => s.Start)).ToList();
        var (xmin, xmax) = (xs.Min(), xs.Max());
        var plotWidth = Math.Max(100, width - 110);
        var font = Math.Max(10, style.Tick - 2);
        yield return Segments("level starts", spans.Where(s => !s.CellStart), "#b0bec5", 1, "dot");
        yield return Segments("cell starts", spans.Where(s => s.CellStart), "#455a64", 1.5m, "solid");
        var errors = spans.Where(s => s.HasErrors).ToList();
        if (errors.Count > 0)
        {
            var x = new List<object>();
            var y = new List<object>();
            foreach (var s in errors)
            {
                x.AddRange([s.Start, s.End, s.End, s.Start, s.Start, null!]);
                y.AddRange([0.0, 0.0, 1.0, 1.0, 0.0, null!]);
            }

            yield return new Scatter
            {
                Name = "levels with errors", YAxis = "y2", ShowLegend = false, HoverInfo = ScatterHoverInfo.Skip, Mode = ScatterMode.Lines,
                X = x, Y = y, Fill = ScatterFill.ToSelf, FillColor = "rgba(176,0,32,0.12)", Line = new ScatterLine { Width = 0 },
            };
            yield return new Scatter
            {
                Name = "errors", YAxis = "y2", ShowLegend = false, Mode = ScatterMode.Text, HoverInfo = ScatterHoverInfo.Text,
                X = [.. errors.Select(s => (object)((s.Start + s.End) / 2))], Y = [.. errors.Select(_ => (object)0.97)],
                TextArray = [.. errors.Select(_ => "✕")], HoverTextArray = [.. errors.Select(s => s.Title)],
                TextFont = new ScatterTextFont { Size = style.Tick, Color = ChartColors.Error },
            };
        }

        yield return new Scatter
        {
            Name = "levels", YAxis = "y2", ShowLegend = false, Mode = ScatterMode.Text | ScatterMode.Markers, HoverInfo = ScatterHoverInfo.Text,
            X = [.. spans.Select(s => (object)s.Start)], Y = [.. spans.Select(_ => (object)0.0)],
            TextArray = [.. Thinned(spans, s => s.Label, font, plotWidth, xmin, xmax)], TextPosition = ScatterTextPosition.TopRight,
            TextFont = new ScatterTextFont { Size = font, Color = "#546e7a" }, HoverTextArray = [.. spans.Select(s => s.Title)],
            Marker = new ScatterMarker { Size = 6, Color = "rgba(0,0,0,0)" },
        };
        var cells = spans.Where(s => s.CellStart).ToList();
        yield return new Scatter
        {
            Name = "cells", YAxis = "y2", ShowLegend = false, Mode = ScatterMode.Text, HoverInfo = ScatterHoverInfo.Text,
            X = [.. cells.Select(s => (object)s.Start)], Y = [.. cells.Select(_ => (object)0.99)],
            TextArray = [.. Thinned(cells, s => s.Title.Split(',')[0], font, plotWidth, xmin, xmax)], TextPosition = ScatterTextPosition.BottomRight,
            TextFont = new ScatterTextFont { Size = font, Color = "#263238" }, HoverTextArray = [.. cells.Select(s => s.Title)],
        };
    }

    private static Scatter Segments(string name, IEnumerable<ChartSpan> spans, string color, decimal width, string dash)
    {
        var x = new List<object>();
        var y = new List<object>();
        foreach (var s in spans)
        {
            x.AddRange([s.Start, s.Start, null!]);
            y.AddRange([0.0, 1.0, null!]);
        }

        return new Scatter
        {
            Name = name, YAxis = "y2", ShowLegend = false, HoverInfo = ScatterHoverInfo.Skip, Mode = ScatterMode.Lines,
            X = x, Y = y, Line = new ScatterLine { Color = color, Width = width, Dash = dash },
        };
    }

    /// <summary>
    /// Labels of items along a time axis, left out where one would overlap its left neighbour (judged at about 0.6 of the
    /// font size per character over <paramref name="plotWidth"/> px); the hover still names every item.
    /// </summary>
    public static IReadOnlyList<string> Thinned(IReadOnlyList<ChartSpan> items, Func<ChartSpan, string?> textOf, int fontSize, double plotWidth, double xmin, double xmax)
    {
        ArgumentNullException.ThrowIfNull(items);
        ArgumentNullException.ThrowIfNull(textOf);
        var perUnit = plotWidth / Math.Max(1e-9, xmax - xmin);
        var lastEnd = double.NegativeInfinity;
        var labels = new List<string>();
        foreach (var item in items)
        {
            var text = textOf(item);
            var left = (item.Start - xmin) * perUnit;
            if (string.IsNullOrEmpty(text) || left < lastEnd)
            {
                labels.Add("");
                continue;
            }

            lastEnd = left + (text.Length * fontSize * 0.6) + 8;
            labels.Add(text);
        }

        return labels;
    }

    private static Layout Layout(ChartSpec spec, ChartStyle style, int legendRows, IReadOnlyList<string> titleLines, IReadOnlyList<string> noteLines)
    {
        var title = string.Join("<br>", titleLines.Select(l => "<b>" + WebUtility.HtmlEncode(l) + "</b>"));
        foreach (var line in noteLines)
        {
            title += $"<br><span style=\"font-size:{style.Tick}px;color:{ChartColors.Error}\">{WebUtility.HtmlEncode(line)}</span>";
        }

        const string grid = "#e6e6e6";
        var categories = spec.Series.Any(s => s.Categories is not null);
        var xAxis = new XAxis
        {
            Title = new Plotly.Blazor.LayoutLib.XAxisLib.Title { Text = spec.XTitle, Font = new Plotly.Blazor.LayoutLib.XAxisLib.TitleLib.Font { Size = style.Axis } },
            Type = spec.LogX ? XType.Log : categories ? XType.Category : XType.Linear,
            ZeroLine = false,
            AutoMargin = XAutoMargin.True,
            TickFont = new Plotly.Blazor.LayoutLib.XAxisLib.TickFont { Size = style.Tick },
            GridColor = grid,
            LineColor = "#444",
            ShowLine = true,
        };
        var xs = spec.Series.Where(s => s.Categories is null).SelectMany(s => s.X.Where((_, i) => s.Y[i] is not null)).ToList();
        if (spec.LogX && xs.Any(x => x > 0))
        {
            var (values, labels) = AxisTicks.Log(xs.Where(x => x > 0).Min(), xs.Max(), spec.XUnit);
            xAxis.TickMode = XTickMode.Array;
            xAxis.TickVals = [.. values.Cast<object>()];
            xAxis.TickText = [.. labels.Cast<object>()];
            xAxis.Range = [Math.Log10(values[0]), Math.Log10(values[^1])];
        }
        else if (spec.IntegerX && xs.Count > 0)
        {
            var ticks = AxisTicks.Integers(xs);
            xAxis.TickMode = XTickMode.Array;
            xAxis.TickVals = [.. ticks.Cast<object>()];
            xAxis.TickText = [.. ticks.Select(t => (object)AxisTicks.Label(t, AxisUnit.Number))];
        }

        var yAxis = new YAxis
        {
            Title = new Plotly.Blazor.LayoutLib.YAxisLib.Title { Text = spec.YTitle, Font = new Plotly.Blazor.LayoutLib.YAxisLib.TitleLib.Font { Size = style.Axis } },
            Type = spec.LogY ? YType.Log : YType.Linear,
            RangeMode = spec.LogY || !spec.ZeroY ? null : YRangeMode.ToZero,
            AutoMargin = YAutoMargin.True,
            TickFont = new Plotly.Blazor.LayoutLib.YAxisLib.TickFont { Size = style.Tick },
            GridColor = grid,
            LineColor = "#444",
            ShowLine = true,
            SeparateThousands = true,
        };
        var ys = spec.Series.SelectMany(s => s.Y.Concat(s.High ?? []).Concat(s.Low ?? [])).Where(v => v is > 0).Select(v => v!.Value).ToList();
        if (spec.LogY && ys.Count > 0)
        {
            var low = spec.YRange is { Count: 2 } r && r[0] > 0 ? r[0] : ys.Min();
            var high = spec.YRange is { Count: 2 } r2 ? Math.Max(r2[1], low) : ys.Max();
            var (values, labels) = AxisTicks.Log(low, high, spec.YUnit);
            yAxis.TickMode = YTickMode.Array;
            yAxis.TickVals = [.. values.Cast<object>()];
            yAxis.TickText = [.. labels.Cast<object>()];
            yAxis.Range = [Math.Log10(values[0]), Math.Log10(values[^1])];
        }
        else if (spec.YRange is { Count: 2 } range)
        {
            yAxis.Range = [range[0], range[1]];
        }

        return new Layout
        {
            Title = new Title { Text = title, Font = new Plotly.Blazor.LayoutLib.TitleLib.Font { Size = style.Title }, X = 0.02m, XAnchor = Plotly.Blazor.LayoutLib.TitleLib.XAnchorEnum.Left },
            XAxis = [xAxis],
            YAxis = [yAxis, new YAxis { Overlaying = "y", Range = [0, 1], Visible = false, FixedRange = true }],
            Margin = new Margin
            {
                L = 70, R = 25, B = 70 + (legendRows * style.RowHeight),
                T = 50 + (noteLines.Count * (style.Tick + 6)) + (style.Title - 15) + ((titleLines.Count - 1) * TitleLineHeight(style)),
            },
            Legend = [new Legend
            {
                Orientation = Plotly.Blazor.LayoutLib.LegendLib.OrientationEnum.H,
                X = 0,
                YRef = Plotly.Blazor.LayoutLib.LegendLib.YRefEnum.Container,
                Y = 0,
                YAnchor = Plotly.Blazor.LayoutLib.LegendLib.YAnchorEnum.Bottom,
                Font = new Plotly.Blazor.LayoutLib.LegendLib.Font { Size = style.Legend },
            }],
            BarMode = BarModeEnum.Group,
            HoverMode = HoverModeEnum.Closest,
            PaperBgColor = style.Background,
            PlotBgColor = "#ffffff",
            Font = new Font { Family = FontFamily, Size = style.Font, Color = "#222" },
            Separators = ".,",
        };
    }
}
