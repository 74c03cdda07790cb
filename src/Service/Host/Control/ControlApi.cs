using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Service.Host.Resources;
using Dashboard.Service.Host.Settings;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.Control;

/// <summary>
/// The control API (docs/service-contract.md, docs/topologies.md): <c>GET /endpoints</c>, <c>GET /versions</c>,
/// <c>GET /resources</c>, <c>GET /cpu</c>, <c>POST /restart</c>, <c>GET /healthz</c>; every route but <c>/healthz</c> (the <c>/security</c> ones included) asks
/// for the control token (<see cref="ControlToken"/>, docs/security.md).
/// </summary>
public static class ControlApi
{
    /// <summary>Maps the control API on <paramref name="app"/>.</summary>
    public static WebApplication MapControlApi(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.UseControlToken();

        // Every variant the host serves now: name, stack, address, transport, encoding, security mode, credential type, WSDL,
        // on-machine only; network addresses name the host the caller used (or ServiceHost:PublicName): EndpointAddresses.
        app.MapGet("/endpoints", (HttpContext context, EndpointRegistry registry, IOptions<ServiceHostOptions> options) =>
        {
            var settings = options.Value;
            var host = EndpointAddresses.HostFor(context.Request.Host.HasValue ? context.Request.Host.Value : null, settings.PublicName, settings.AdvertisedHost);
            return Results.Ok(EndpointAddresses.For(registry.All, host));
        });

        // The versions of the stacks this host serves, read from what is loaded (docs/statistics.md, "Environment"):
        // "aspnet" from this process's assemblies, "jvm" as the JVM service reported them in its ready line (absent until then).
        app.MapGet("/versions", (EndpointRegistry registry) => Results.Ok(ServerVersions.Of(registry)));

        // Machine CPU % (all cores) and available MB; this process's (aspnet stack's) CPU %, resident MB, GC heap, threads; the JVM's CPU % and resident MB.
        app.MapGet("/resources", (ResourceMonitor monitor) => Results.Ok(monitor.Latest));

        // Cumulative counters, read now (never percentages): each stack process's user + system CPU seconds with its pid and
        // start time, the machine's busy, idle and steal seconds. A caller reads them at both ends of a window (docs/statistics.md).
        app.MapGet("/cpu", (CpuCounterReader reader) => Results.Ok(reader.Read()));

        // A fresh host process for the next launch of a run (docs/statistics.md, "Launches"): only when a supervisor starts
        // this host again (ServiceHost:RestartOnRequest). 202 with this process's id, then the host stops (its JVM with it)
        // and exits with HostRestart.ExitCode once the answer is sent; else 409, and the launches share this host.
        app.MapPost(HostRestart.Path, (HttpContext context, IOptions<ServiceHostOptions> options) =>
        {
            if (!options.Value.RestartOnRequest)
            {
                return Results.Problem(statusCode: StatusCodes.Status409Conflict, title: "this host is not restarted by a supervisor",
                    detail: "the host was started without ServiceHost:RestartOnRequest (the dashboard's local host is; start another host as `Dashboard.Service.Host supervise …` to have it): nobody would start it again, so launches share it");
            }

            app.Logger.LogInformation("Restart requested: stopping, exit code {ExitCode}", HostRestart.ExitCode);
            Environment.ExitCode = HostRestart.ExitCode;
            context.Response.OnCompleted(() =>
            {
                app.Lifetime.StopApplication();
                return Task.CompletedTask;
            });
            return Results.Accepted(value: new HostRestartAccepted(Environment.ProcessId));
        });

        // Each stack's state: up, starting, down (for good, with its reason) or disabled (not configured). 503 while a
        // configured stack starts, so a caller waits instead of reading a partial /endpoints; then 200, "ok" when every
        // configured stack is up, "degraded" when one is down.
        app.MapGet("/healthz", (EndpointRegistry registry) =>
        {
            var health = StackHealth.Of(registry.Status);
            var stacks = health.ToDictionary(h => h.Key, h => h.Value.State);
            var reasons = health.Where(h => h.Value.Reason is not null).ToDictionary(h => h.Key, h => h.Value.Reason);
            var status = stacks.ContainsValue(StackHealth.Starting) ? "starting"
                : stacks.ContainsValue(StackHealth.Down) ? "degraded" : "ok";
            return Results.Json(new { status, stacks, reasons },
                statusCode: status == "starting" ? StatusCodes.Status503ServiceUnavailable : StatusCodes.Status200OK);
        });

        app.Lifetime.ApplicationStarted.Register(() =>
            app.Logger.LogInformation("Service host ready: control API on {Addresses}", string.Join(", ", app.Urls)));
        return app;
    }

    /// <summary>The path that answers without the token: a health check says nothing an attacker could use.</summary>
    public const string OpenPath = "/healthz";

    /// <summary>
    /// Refuses every request but <see cref="OpenPath"/> without <c>Authorization: Bearer &lt;token&gt;</c>: 401 with a
    /// <c>WWW-Authenticate: Bearer</c> header and a problem document saying where the token is. The token is made (or
    /// read) here, at start, before the host says it is ready.
    /// </summary>
    public static WebApplication UseControlToken(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var token = app.Services.GetRequiredService<ControlToken>();
        app.Use(async (context, next) =>
        {
            if (context.Request.Path.Equals(OpenPath, StringComparison.OrdinalIgnoreCase)
                || HostControlToken.Matches(context.Request.Headers.Authorization.ToString() is { Length: > 0 } header ? header : null, token.Value))
            {
                await next(context);
                return;
            }

            context.Response.Headers.WWWAuthenticate = HostControlToken.Scheme;
            await Results.Problem(
                statusCode: StatusCodes.Status401Unauthorized,
                title: "The control token is missing or wrong",
                detail: "Every control API route but /healthz needs 'Authorization: Bearer <token>': the host's ServiceHost:ControlToken, "
                    + $"or the token it made in its security folder ({HostControlToken.FileName}); a runner reads {HostControlToken.EnvironmentVariable} (docs/security.md).")
                .ExecuteAsync(context);
        });
        return app;
    }
}
