using System.Globalization;
using Microsoft.JSInterop;

namespace Dashboard.Web.Components.Time;

/// <summary>
/// The browser's time zone for one circuit (wwwroot/js/time.js): times are stored in UTC and shown and entered in the
/// browser's local time. Until <see cref="LoadAsync"/> has asked the browser (or when it cannot), times are shown in UTC
/// and say so.
/// </summary>
public sealed class BrowserClock(IJSRuntime js)
{
    private bool _loaded;

    /// <summary>Minutes to add to UTC for local time now; 0 until loaded.</summary>
    public int OffsetMinutes { get; private set; }

    /// <summary>The browser's zone name, e.g. <c>Europe/Berlin</c>; "UTC" until loaded.</summary>
    public string Zone { get; private set; } = "UTC";

    /// <summary>True once the browser answered.</summary>
    public bool IsLocal => _loaded;

    /// <summary>Asks the browser for its zone once per circuit; keeps UTC when it cannot answer (no JS, prerendering).</summary>
    public async Task LoadAsync()
    {
        if (_loaded)
        {
            return;
        }

        try
        {
            Zone = await js.InvokeAsync<string>("dashboardTime.zone") ?? "UTC";
            OffsetMinutes = await js.InvokeAsync<int>("dashboardTime.offsetMinutes");
            _loaded = true;
        }
        catch (Exception e) when (e is JSException or InvalidOperationException or TaskCanceledException or JSDisconnectedException)
        {
            Zone = "UTC";
            OffsetMinutes = 0;
        }
    }

    /// <summary>The local wall time of <paramref name="utc"/> in the browser's zone (its offset now).</summary>
    public DateTime ToLocal(DateTime utc) => DateTime.SpecifyKind(utc, DateTimeKind.Unspecified).AddMinutes(OffsetMinutes);

    /// <summary>
    /// The UTC instant of the local wall time <paramref name="local"/> in the browser's zone, daylight saving time of
    /// that date included (asked of the browser); with the current offset when the browser cannot answer.
    /// </summary>
    public async Task<DateTime> ToUtcAsync(DateTime local)
    {
        try
        {
            var iso = await js.InvokeAsync<string>("dashboardTime.toUtc", local.ToString("yyyy-MM-ddTHH:mm", CultureInfo.InvariantCulture));
            if (DateTime.TryParse(iso, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var utc))
            {
                return DateTime.SpecifyKind(utc, DateTimeKind.Utc);
            }
        }
        catch (Exception e) when (e is JSException or InvalidOperationException or TaskCanceledException or JSDisconnectedException)
        {
        }

        return DateTime.SpecifyKind(local.AddMinutes(-OffsetMinutes), DateTimeKind.Utc);
    }

    /// <summary>"2026-11-25 14:03" in the browser's zone.</summary>
    public string DateTimeText(DateTime utc) => ToLocal(utc).ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture);

    /// <summary>"14:03:12" in the browser's zone.</summary>
    public string TimeText(DateTime utc) => ToLocal(utc).ToString("HH:mm:ss", CultureInfo.InvariantCulture);

    /// <summary>The zone as shown beside times: "Europe/Berlin", or "UTC".</summary>
    public string ZoneText => IsLocal && Zone != "UTC" ? $"{Zone}, UTC{(OffsetMinutes >= 0 ? "+" : "−")}{TimeSpan.FromMinutes(Math.Abs(OffsetMinutes)):h\\:mm}" : "UTC";
}
