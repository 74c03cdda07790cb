using System.Globalization;
using System.Text.Json;

namespace Dashboard.Data.Statistics;

/// <summary>
/// When a machine counts as quiet (issue #32, item 4, "A quiet machine, checked"; docs/statistics.md, "Disturbed"): a
/// level is <b>disturbed</b> when processes that are not the benchmark's used more than <see cref="OthersCoresLimit"/> of
/// a core on average over its window, or steal exceeded <see cref="StealPercentLimit"/> % of the machine's time. A run
/// starts on a busy machine when the 1-minute load average is above <see cref="LoadAverageLimit"/> or others used more
/// than <see cref="OthersCoresLimit"/> of a core over the <see cref="StartCheck"/> before its first level.
/// </summary>
public static class QuietMachine
{
    /// <summary>Others' CPU, in cores, above which a window is disturbed: 0.10 (issue #32: "more than 10 % of a core").</summary>
    public const double OthersCoresLimit = 0.10;

    /// <summary>Steal time, % of the machine's time, above which a window is disturbed: 2 (issue #32: "steal exceeded 2 %").</summary>
    public const double StealPercentLimit = 2.0;

    /// <summary>
    /// The 1-minute load average above which a run starts on a busy machine: 1.0, one core's worth of runnable tasks on
    /// average over the last minute (it also counts the benchmark's own previous run, so it is a hint; the measured
    /// others' share decides as well).
    /// </summary>
    public const double LoadAverageLimit = 1.0;

    /// <summary>How long the machine is watched before the first level: 1 s.</summary>
    public static readonly TimeSpan StartCheck = TimeSpan.FromSeconds(1);

    /// <summary>The property of a run's <c>EnvironmentJson</c> that holds <see cref="MachineAtStart"/>.</summary>
    public const string EnvironmentProperty = "machineAtStart";

    /// <summary>Whether a window with these figures is disturbed: true when either is above its limit; null when others' CPU was not measured and steal does not decide.</summary>
    /// <param name="othersCores">Others' CPU over the window, in cores (already less the counters' resolution), or null.</param>
    /// <param name="stealPercent">Steal, % of the machine's time, or null.</param>
    public static bool? IsDisturbed(double? othersCores, double? stealPercent) =>
        othersCores > OthersCoresLimit || stealPercent > StealPercentLimit ? true
        : othersCores is null ? null
        : false;

    /// <summary>The figures behind a disturbed flag, for a tooltip: <c>others 0.43 cores, steal 0.0 %, machine busy 71 %</c>.</summary>
    public static string Describe(double? othersCores, double? stealPercent, double? machineBusyPercent) =>
        string.Join(", ", new[]
        {
            othersCores is { } o ? string.Create(CultureInfo.InvariantCulture, $"others {o:0.00} cores (limit {OthersCoresLimit:0.00})") : null,
            stealPercent is { } s ? string.Create(CultureInfo.InvariantCulture, $"steal {s:0.0} % (limit {StealPercentLimit:0} %)") : null,
            machineBusyPercent is { } b ? string.Create(CultureInfo.InvariantCulture, $"machine busy {b:0} %") : null,
        }.Where(p => p is not null));

    /// <summary>The <see cref="MachineAtStart"/> a run recorded in its environment JSON; null when it has none or the JSON cannot be read.</summary>
    public static MachineAtStart? FromEnvironmentJson(string? environmentJson)
    {
        if (string.IsNullOrEmpty(environmentJson))
        {
            return null;
        }

        try
        {
            using var doc = JsonDocument.Parse(environmentJson);
            return doc.RootElement.ValueKind == JsonValueKind.Object && doc.RootElement.TryGetProperty(EnvironmentProperty, out var value) && value.ValueKind == JsonValueKind.Object
                ? value.Deserialize<MachineAtStart>(JsonSerializerOptions.Web)
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>How busy the machine was as a run started (environment JSON <c>machineAtStart</c>; <see cref="QuietMachine"/>).</summary>
/// <param name="LoadAverage1">The 1-minute load average (<c>/proc/loadavg</c>), or null.</param>
/// <param name="OthersCores">Others' CPU over <see cref="QuietMachine.StartCheck"/> before the first level, in cores, or null.</param>
/// <param name="StealPercent">Steal over that second, % of the machine's time, or null.</param>
/// <param name="Busy">True when either figure was above its limit.</param>
/// <param name="Summary">The figures in words, e.g. <c>1-minute load average 3.20 (limit 1.0); others 0.85 cores over 1 s (limit 0.10)</c>.</param>
public sealed record MachineAtStart(double? LoadAverage1, double? OthersCores, double? StealPercent, bool Busy, string Summary)
{
    /// <summary>Judges the figures measured as a run starts.</summary>
    public static MachineAtStart Of(double? loadAverage1, double? othersCores, double? stealPercent)
    {
        var busy = loadAverage1 > QuietMachine.LoadAverageLimit || QuietMachine.IsDisturbed(othersCores, stealPercent) == true;
        var summary = string.Join("; ", new[]
        {
            loadAverage1 is { } l ? string.Create(CultureInfo.InvariantCulture, $"1-minute load average {l:0.00} (limit {QuietMachine.LoadAverageLimit:0.0})") : null,
            othersCores is not null || stealPercent is not null
                ? string.Create(CultureInfo.InvariantCulture, $"over {QuietMachine.StartCheck.TotalSeconds:0} s before the first level: {QuietMachine.Describe(othersCores, stealPercent, null)}")
                : null,
        }.Where(p => p is not null));
        return new MachineAtStart(loadAverage1, othersCores, stealPercent, busy, summary);
    }
}
