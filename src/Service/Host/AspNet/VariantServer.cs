namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The builder of one variant's own Kestrel server inside the host (the aspnet variants, the wcfbindings HTTP variants):
/// a slim web application that reads none of the host's configuration and logs warnings and errors only. The host's
/// configuration is not such a server's: its <c>Urls</c> made Kestrel warn "Overriding address(es) 'http://localhost:5090'"
/// for every variant, and its log levels printed every server's lifetime lines ("Now listening on", "Application is
/// shutting down..."), ten or more times per host start and stop where one is true (issue #36). The host says once per
/// variant where it listens ("Variant X listens on ..."), and its own control API's lifetime lines once.
/// </summary>
internal static class VariantServer
{
    /// <summary>A builder for the server of the variant named <paramref name="variantName"/> (its application name); the caller adds Kestrel's endpoint.</summary>
    /// <exception cref="ArgumentException"><paramref name="variantName"/> is null or empty.</exception>
    public static WebApplicationBuilder CreateBuilder(string variantName)
    {
        ArgumentException.ThrowIfNullOrEmpty(variantName);
        // No address but the one its caller gives Kestrel: the web host takes its addresses from the configuration as it
        // is when the builder is made (appsettings.json of the working directory, the host's folder when the dashboard
        // starts it, says "Urls"), so they are emptied here, by the command line that comes last.
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions
        {
            ApplicationName = variantName,
            Args = ["--urls=", "--http_ports=", "--https_ports="],
        });
        // Nor the rest of that configuration (its log levels): every setting of this server is made in code by its caller.
        builder.Configuration.Sources.Clear();
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Services.Configure<ConsoleLifetimeOptions>(o => o.SuppressStatusMessages = true);
        return builder;
    }
}
