namespace Dashboard.Data.Results;

/// <summary>
/// What one level reached against a precision target (scenario field <c>precision</c>; docs/statistics.md, "Precision
/// target"): the relative half-widths of the 95 % intervals of its throughput and of its server CPU per request
/// (<see cref="Measurement.Estimate.RelativeHalfWidth95"/>), over its complete repetitions.
/// </summary>
/// <param name="Throughput">Throughput's relative half-width (0.02 = ±2 %); null without an interval (fewer than 3 repetitions).</param>
/// <param name="ServerCpu">Server CPU per request's; null when no repetition measured it or there is no interval.</param>
/// <param name="ServerCpuMeasured">True when the host reported server CPU for the level (then it must meet the target too).</param>
/// <param name="Repetitions">Complete repetitions behind the figures.</param>
public sealed record LevelPrecision(double? Throughput, double? ServerCpu, bool ServerCpuMeasured, int Repetitions)
{
    /// <summary>The figures of <paramref name="level"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="level"/> is null.</exception>
    public static LevelPrecision Of(LevelAggregate level)
    {
        ArgumentNullException.ThrowIfNull(level);
        return new LevelPrecision(level.ThroughputRps.RelativeHalfWidth95, level.ServerCpuPerRequest?.RelativeHalfWidth95,
            level.ServerCpuPerRequest is { N: > 0 }, level.Repetitions);
    }

    /// <summary>
    /// True when throughput's interval, and server CPU per request's where it was measured, are within ±<paramref name="target"/>
    /// (a fraction); false without an interval.
    /// </summary>
    public bool Meets(double target) =>
        Throughput is { } t && t <= target && (!ServerCpuMeasured || ServerCpu is { } c && c <= target);

    /// <summary>The figures for a reader, e.g. <c>throughput ±1.4 %, server CPU ±2.6 % (5 repetitions)</c>.</summary>
    public string Text => string.Create(System.Globalization.CultureInfo.InvariantCulture,
        $"throughput {Percent(Throughput)}{(ServerCpuMeasured ? $", server CPU {Percent(ServerCpu)}" : "")} ({Repetitions} repetitions)");

    /// <summary>The figures for a table cell: <c>±1.4 % · ±2.6 %</c> (throughput · server CPU), or <c>—</c> without an interval.</summary>
    public string Cell => Throughput is null ? "—" : ServerCpuMeasured ? $"{Percent(Throughput)} · {Percent(ServerCpu)}" : Percent(Throughput);

    private static string Percent(double? fraction) => fraction is { } f
        ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"±{f * 100:0.0} %")
        : "no interval";
}
