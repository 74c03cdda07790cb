namespace Dashboard.Web.Charts;

/// <summary>One line or marker series of a chart.</summary>
/// <param name="Name">Legend text.</param>
/// <param name="X">X values.</param>
/// <param name="Y">Y values, same length as <paramref name="X"/>.</param>
/// <param name="Text">Hover text per point, or null.</param>
/// <param name="Dash">Line dash: <c>solid</c>, <c>dot</c>, <c>dash</c>.</param>
/// <param name="ErrorPoints">Indices of points measured with errors, drawn with a cross.</param>
/// <param name="Hidden">Listed in the legend but not drawn until clicked.</param>
public sealed record ChartSeries(string Name, IReadOnlyList<double> X, IReadOnlyList<double?> Y, IReadOnlyList<string>? Text = null, string Dash = "solid", IReadOnlyList<int>? ErrorPoints = null, bool Hidden = false);

/// <summary>
/// What one chart shows: every chart says what was measured and in which unit (title and axis titles).
/// Rendered by <c>wwwroot/js/charts.js</c> with plotly.js.
/// </summary>
/// <param name="Title">What was measured, e.g. "Throughput vs concurrent clients".</param>
/// <param name="XTitle">X axis with unit.</param>
/// <param name="YTitle">Y axis with unit.</param>
/// <param name="Series">The series.</param>
/// <param name="Note">A line under the title, e.g. that some levels had errors.</param>
/// <param name="LogY">Log-scale y axis.</param>
/// <param name="Subtitle">A grey line under the title saying how the figure was computed.</param>
/// <param name="ZeroY">Start the y axis at zero.</param>
public sealed record ChartSpec(string Title, string XTitle, string YTitle, IReadOnlyList<ChartSeries> Series, string? Note = null, bool LogY = false, string? Subtitle = null, bool ZeroY = true);
