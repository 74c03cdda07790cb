using System.Text.Json;
using System.Text.Json.Serialization;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// Steady state before measuring (docs/statistics.md; Georges, Buytaert &amp; Eeckhout, "Statistically rigorous Java
/// performance evaluation", OOPSLA 2007, §4: steady state when the coefficient of variation of the last k iterations
/// falls under a threshold). Before each measured level the runner drives the level's clients in windows of
/// <see cref="Window"/> and measures each window's throughput; it starts measuring once the CoV of the last
/// <see cref="Windows"/> windows is at most <see cref="MaxCoefficientOfVariation"/>, or when <see cref="MaxWarmup"/> has
/// passed (then the level is flagged "measured before steady state").
/// </summary>
/// <remarks>
/// In a scenario, the field <c>steadyState</c> is <c>"off"</c> (the default: only the <c>warmup</c> requests),
/// <c>"defaults"</c> (<see cref="Defaults"/>: k = 5 windows of 1 s, CoV ≤ 2 %, at most 30 s), or an object with any of
/// <c>windows</c>, <c>maxCov</c> (a fraction: 0.02 = 2 %), <c>window</c> and <c>maxWarmup</c> (<c>"hh:mm:ss"</c>).
/// </remarks>
/// <param name="Windows">k: how many of the latest windows the CoV is taken over; 2..100.</param>
/// <param name="MaxCoefficientOfVariation">The CoV threshold as a fraction (0.02 = 2 %); more than 0, at most 1.</param>
/// <param name="Window">Length of one window; 100 ms..1 min.</param>
/// <param name="MaxWarmup">Time bound of the warm-up per level; at least k windows, at most 10 min.</param>
[JsonConverter(typeof(SteadyStateSettingsConverter))]
public sealed record SteadyStateSettings(int Windows, double MaxCoefficientOfVariation, TimeSpan Window, TimeSpan MaxWarmup)
{
    /// <summary>The defaults: k = 5 windows of 1 s, CoV ≤ 2 %, at most 30 s per level.</summary>
    public static SteadyStateSettings Defaults { get; } = new(5, 0.02, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30));

    /// <summary>One line for people: "CoV ≤ 2 % over 5 × 1 s windows, at most 30 s".</summary>
    public override string ToString() =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"CoV ≤ {MaxCoefficientOfVariation * 100:0.##} % over {Windows} × {Window.TotalSeconds:0.###} s windows, at most {MaxWarmup.TotalSeconds:0.###} s");
}

/// <summary>Reads <c>"off"</c> (null is written back as absent), <c>"defaults"</c> or an object; writes an object.</summary>
internal sealed class SteadyStateSettingsConverter : JsonConverter<SteadyStateSettings>
{
    public override bool HandleNull => false;

    public override SteadyStateSettings? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType == JsonTokenType.String)
        {
            return reader.GetString() switch
            {
                "off" => null,
                "defaults" => SteadyStateSettings.Defaults,
                var other => throw new JsonException($"'{other}' is not a steadyState setting; expected \"off\", \"defaults\" or an object with windows, maxCov, window, maxWarmup"),
            };
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw new JsonException("steadyState must be \"off\", \"defaults\" or an object with windows, maxCov, window, maxWarmup");
        }

        var d = SteadyStateSettings.Defaults;
        var (windows, cov, window, max) = (d.Windows, d.MaxCoefficientOfVariation, d.Window, d.MaxWarmup);
        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            var name = reader.GetString();
            reader.Read();
            switch (name)
            {
                case "windows":
                    windows = reader.GetInt32();
                    break;
                case "maxCov":
                    cov = reader.GetDouble();
                    break;
                case "window":
                    window = ReadTime(ref reader, name);
                    break;
                case "maxWarmup":
                    max = ReadTime(ref reader, name);
                    break;
                default:
                    throw new JsonException($"unknown steadyState field '{name}'; known: windows, maxCov, window, maxWarmup");
            }
        }

        return new SteadyStateSettings(windows, cov, window, max);
    }

    public override void Write(Utf8JsonWriter writer, SteadyStateSettings value, JsonSerializerOptions options)
    {
        writer.WriteStartObject();
        writer.WriteNumber("windows", value.Windows);
        writer.WriteNumber("maxCov", value.MaxCoefficientOfVariation);
        writer.WriteString("window", value.Window.ToString("c", System.Globalization.CultureInfo.InvariantCulture));
        writer.WriteString("maxWarmup", value.MaxWarmup.ToString("c", System.Globalization.CultureInfo.InvariantCulture));
        writer.WriteEndObject();
    }

    private static TimeSpan ReadTime(ref Utf8JsonReader reader, string field) =>
        reader.TokenType == JsonTokenType.String && TimeSpan.TryParse(reader.GetString(), System.Globalization.CultureInfo.InvariantCulture, out var t)
            ? t
            : throw new JsonException($"steadyState.{field} must be a time \"hh:mm:ss\"");
}
