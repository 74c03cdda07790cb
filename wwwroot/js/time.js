// The browser's time zone for the dashboard's pages (src/Web/Components/Time/BrowserClock.cs): times are stored in UTC
// and shown and entered in the browser's local time.
window.dashboardTime = {
    // IANA zone name, e.g. "Europe/Berlin" ("UTC" when the browser does not say).
    zone: () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    // Minutes to add to UTC to get local time now (e.g. 60 for UTC+1).
    offsetMinutes: () => -new Date().getTimezoneOffset(),
    // A local wall time "yyyy-MM-ddTHH:mm" as the UTC instant it is in this zone (daylight saving time included), ISO 8601.
    toUtc: (local) => new Date(local).toISOString(),
};
