namespace Dashboard.Web.Auth;

/// <summary>
/// Security headers on every answer: a Content-Security-Policy MudBlazor, Plotly and Blazor Server work under (scripts
/// and connections from the dashboard itself only; inline styles, which MudBlazor and Plotly set; images from data: and
/// blob: for the chart downloads), no framing, no MIME sniffing, and no referrer (share and setup links carry secrets).
/// </summary>
public sealed class SecurityHeaders(RequestDelegate next)
{
    /// <summary>The Content-Security-Policy sent with every answer.</summary>
    public const string ContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; " +
        "connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

    /// <summary>Adds the headers, then calls the rest of the pipeline.</summary>
    public Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var headers = context.Response.Headers;
        headers.ContentSecurityPolicy = ContentSecurityPolicy;
        headers.XContentTypeOptions = "nosniff";
        headers.XFrameOptions = "DENY";
        headers["Referrer-Policy"] = "no-referrer";
        headers["Cross-Origin-Opener-Policy"] = "same-origin";
        return next(context);
    }
}
