using System.Globalization;

namespace Dashboard.Web.Charts;

/// <summary>Which security panels the run page shows.</summary>
public enum PanelChoice
{
    /// <summary>Unsecure and secure panels side by side (the thesis's figures).</summary>
    Both,

    /// <summary>Only the variants with security mode None.</summary>
    Unsecure,

    /// <summary>Only the variants with a security mode other than None.</summary>
    Secure,
}

/// <summary>
/// The run page's panel choices, kept in its query string so a link reproduces the view:
/// <c>levels=all</c> (every concurrency level instead of 20 clients on), <c>payload=Int</c> or <c>payload=class:Small</c>
/// or <c>payload=all</c>, <c>panels=both|unsecure|secure</c>, <c>spectrum=50</c> (clients of the percentile spectrum),
/// <c>size=1600x900</c> (exported images), <c>p99=1</c> (p99 lines), <c>y=independent</c> (panels with their own y range).
/// </summary>
/// <param name="AllLevels">Show every level; false: from <see cref="ThesisFromClients"/> clients on (thesis ch. 8).</param>
/// <param name="Payload">A payload id, <c>class:&lt;DatasetClass&gt;</c>, <c>all</c>, or null for the run's first payload.</param>
/// <param name="Panels">Which security panels.</param>
/// <param name="SpectrumClients">Concurrency level of the percentile spectrum, or null for the highest shown.</param>
/// <param name="Size">Size of exported images.</param>
public sealed record RunView(bool AllLevels, string? Payload, PanelChoice Panels, int? SpectrumClients, ExportSize Size)
{
    /// <summary>Draw each line's p99 too (dotted, same colour); off by default (<c>p99=1</c>).</summary>
    public bool P99 { get; init; }

    /// <summary>Give the unsecure and secure panels each their own y range (<c>y=independent</c>); by default they share one, so the side by side compares.</summary>
    public bool IndependentY { get; init; }

    /// <summary>The thesis draws response time and throughput from 20 concurrent clients on (ch. 8).</summary>
    public const int ThesisFromClients = 20;

    /// <summary>
    /// Whether the thesis filter (levels from <see cref="ThesisFromClients"/> clients on) applies to levels with these
    /// client counts: not when every level is asked for, and not when fewer than two distinct levels reach
    /// <see cref="ThesisFromClients"/> clients (a curve needs two points; quick sweeps such as 1, 10, 20 then show every
    /// level).
    /// </summary>
    /// <param name="allLevels">The user asked for every level.</param>
    /// <param name="clientCounts">The concurrency levels (clients) there are data for.</param>
    public static bool ThesisFilterApplies(bool allLevels, IEnumerable<int> clientCounts)
    {
        ArgumentNullException.ThrowIfNull(clientCounts);
        return !allLevels && clientCounts.Where(c => c >= ThesisFromClients).Distinct().Take(2).Count() == 2;
    }

    /// <summary>Prefix of a payload class choice, e.g. <c>class:Small</c>.</summary>
    public const string ClassPrefix = "class:";

    /// <summary>The payload choice that averages over every payload of the run.</summary>
    public const string AllPayloads = "all";

    /// <summary>The default view: thesis levels, first payload, both panels, 1600 × 900 images.</summary>
    public static RunView Default { get; } = new(false, null, PanelChoice.Both, null, ExportSize.Default);

    /// <summary>Reads the view from query string values (unknown or malformed values fall back to the default).</summary>
    public static RunView Parse(string? levels, string? payload, string? panels, string? spectrum, string? size, string? p99 = null, string? y = null) => new(
        string.Equals(levels, "all", StringComparison.OrdinalIgnoreCase),
        string.IsNullOrWhiteSpace(payload) ? null : payload.Trim(),
        Enum.TryParse<PanelChoice>(panels, ignoreCase: true, out var p) && Enum.IsDefined(p) ? p : PanelChoice.Both,
        int.TryParse(spectrum, NumberStyles.None, CultureInfo.InvariantCulture, out var c) && c > 0 ? c : null,
        ExportSize.Parse(size) ?? ExportSize.Default)
    {
        P99 = p99 is "1" or "true",
        IndependentY = string.Equals(y, "independent", StringComparison.OrdinalIgnoreCase),
    };

    /// <summary>The query string of this view (without <c>?</c>), only the values that differ from the default.</summary>
    public string ToQuery()
    {
        var parts = new List<string>();
        if (AllLevels)
        {
            parts.Add("levels=all");
        }

        if (Payload is not null)
        {
            parts.Add("payload=" + Uri.EscapeDataString(Payload));
        }

        if (Panels != PanelChoice.Both)
        {
            parts.Add("panels=" + Panels.ToString().ToLowerInvariant());
        }

        if (SpectrumClients is { } clients)
        {
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"spectrum={clients}"));
        }

        if (Size != ExportSize.Default)
        {
            parts.Add("size=" + Size);
        }

        if (P99)
        {
            parts.Add("p99=1");
        }

        if (IndependentY)
        {
            parts.Add("y=independent");
        }

        return string.Join('&', parts);
    }
}
