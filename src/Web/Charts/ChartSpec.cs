namespace Dashboard.Web.Charts;

/// <summary>One line, marker or bar series of a chart.</summary>
/// <param name="Name">Legend text.</param>
/// <param name="X">X values (ignored when <see cref="Categories"/> is set).</param>
/// <param name="Y">Y values, same length as <paramref name="X"/> (or <see cref="Categories"/>); null is a gap.</param>
/// <param name="Text">Hover text per point, or null.</param>
/// <param name="Dash">Line dash: <c>solid</c>, <c>dot</c>, <c>dash</c>, <c>dashdot</c>.</param>
/// <param name="ErrorPoints">Indices of points measured with errors: drawn with a cross (lines) or a cross-hatch (bars).</param>
public sealed record ChartSeries(string Name, IReadOnlyList<double> X, IReadOnlyList<double?> Y, IReadOnlyList<string>? Text = null, string Dash = "solid", IReadOnlyList<int>? ErrorPoints = null)
{
    /// <summary>Category labels of the x axis, one per point (bars, percentile spectra); null for numeric x.</summary>
    public IReadOnlyList<string>? Categories { get; init; }

    /// <summary>Lower bound of the 95 % confidence interval per point, in the unit of <see cref="Y"/>; null draws no error bar.</summary>
    public IReadOnlyList<double?>? Low { get; init; }

    /// <summary>Upper bound of the 95 % confidence interval per point, in the unit of <see cref="Y"/>.</summary>
    public IReadOnlyList<double?>? High { get; init; }

    /// <summary>
    /// The case the colour belongs to (e.g. <c>MetroSoap11 × java</c>): the same key gets the same colour in every chart
    /// and every run (<see cref="ChartColors"/>); null: the series name.
    /// </summary>
    public string? ColorKey { get; init; }

    /// <summary>Bar fill pattern (plotly's <c>marker.pattern.shape</c>: <c>/</c>, <c>x</c>…); null for a solid fill.</summary>
    public string? Pattern { get; init; }

    /// <summary>Legend group (e.g. a run on the compare page); entries of one group are listed and toggled together.</summary>
    public string? Group { get; init; }

    /// <summary>Marker symbol of a line's points (plotly's names: <c>circle</c>, <c>square</c>, <c>diamond</c>…); null: circle.</summary>
    public string? Symbol { get; init; }
}

/// <summary>
/// A span of the time axis: one level of a run on a chart over time. Drawn as a vertical line at its start with the
/// level's label; a span whose level had errors is shaded red and says so.
/// </summary>
/// <param name="Start">Start of the level, s since the run started.</param>
/// <param name="End">End of the level, s since the run started.</param>
/// <param name="Label">Short label drawn at the bottom (e.g. <c>20</c> clients), or null.</param>
/// <param name="HasErrors">The level had failed requests.</param>
/// <param name="CellStart">The first level of a variant × client × payload cell (a stronger line, the cell's name as label).</param>
/// <param name="Title">Hover text: the level's cell and clients.</param>
public sealed record ChartSpan(double Start, double End, string? Label, bool HasErrors, bool CellStart, string Title);

/// <summary>What the ticks of a log axis say.</summary>
public enum AxisUnit
{
    /// <summary>Plain numbers (1, 10, 100; the unit is in the axis title).</summary>
    Number,

    /// <summary>Bytes with a decimal prefix: 200 B, 1 KB (1,000 B), 1 MB (1,000,000 B).</summary>
    Bytes,
}

/// <summary>
/// What one chart shows (pure data, no drawing): every chart says what was measured and in which unit (title and axis
/// titles). Drawn by <see cref="PlotlyFigure"/> as a Plotly.Blazor figure, on screen and in the paper style for export.
/// </summary>
/// <param name="Title">What was measured, e.g. "Throughput vs concurrent clients".</param>
/// <param name="XTitle">X axis with unit.</param>
/// <param name="YTitle">Y axis with unit.</param>
/// <param name="Series">The series.</param>
/// <param name="Note">A line under the title, e.g. that some levels had errors (drawn in red, exported too).</param>
/// <param name="LogY">Log-scale y axis.</param>
/// <param name="Subtitle">How the figure was computed: shown under the chart on the page, never in an exported image.</param>
/// <param name="ZeroY">Start the y axis at zero.</param>
public sealed record ChartSpec(string Title, string XTitle, string YTitle, IReadOnlyList<ChartSeries> Series, string? Note = null, bool LogY = false, string? Subtitle = null, bool ZeroY = true)
{
    /// <summary><c>line</c> (lines and markers) or <c>bar</c> (grouped bars).</summary>
    public string Kind { get; init; } = "line";

    /// <summary>Log-scale x axis.</summary>
    public bool LogX { get; init; }

    /// <summary>Tick labels of a log x axis.</summary>
    public AxisUnit XUnit { get; init; } = AxisUnit.Number;

    /// <summary>Tick labels of a log y axis.</summary>
    public AxisUnit YUnit { get; init; } = AxisUnit.Number;

    /// <summary>The x axis shows whole numbers only (concurrent clients): ticks at integers, never 0.5.</summary>
    public bool IntegerX { get; init; }

    /// <summary>A fixed y range [low, high] in the unit of the series (shared by panels that are compared side by side); null: automatic.</summary>
    public IReadOnlyList<double>? YRange { get; init; }

    /// <summary>Levels marked on a time axis, or null.</summary>
    public IReadOnlyList<ChartSpan>? Spans { get; init; }
}
