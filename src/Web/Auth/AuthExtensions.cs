using System.Security.Claims;
using System.Threading.RateLimiting;
using Dashboard.Data.Accounts;
using Dashboard.Web.Options;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.Identity;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Auth;

/// <summary>
/// The dashboard's front door (docs/security.md, "The dashboard's side"): accounts (ASP.NET Core Identity on the results
/// database), the cookie and bearer schemes, <see cref="AccessPolicy"/> as the fallback policy, rate limits, security
/// headers and the audit of API writes.
/// </summary>
public static class AuthExtensions
{
    /// <summary>The policy scheme that picks <see cref="ApiTokenHandler.SchemeName"/> for a bearer header and the cookie otherwise.</summary>
    public const string Scheme = "Dashboard";

    /// <summary>The rate limiter policy of the sign-in and setup posts.</summary>
    public const string SignInLimit = "sign-in";

    /// <summary>
    /// Accounts without the web: <see cref="AuthOptions"/>, <see cref="AccountsDbContext"/> on the results store, Identity's
    /// <see cref="UserManager{TUser}"/> on <see cref="DashboardUserStore"/>, and <see cref="AccountService"/>. The command
    /// line (<see cref="AccountCommands"/>) uses this alone.
    /// </summary>
    public static IHostApplicationBuilder AddAccounts(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<AuthOptions>().Bind(builder.Configuration.GetSection(AuthOptions.Section))
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddDbContextFactory<AccountsDbContext>((sp, options) =>
            sp.GetRequiredService<IOptions<DashboardOptions>>().Value.CreateResultsStore().ConfigureAccounts(options));
        builder.Services.TryAddSingletonTimeProvider();
        builder.Services.AddIdentityCore<UserEntity>(o =>
        {
            o.Password.RequiredLength = 10;
            o.Password.RequireNonAlphanumeric = false;
            o.Password.RequireUppercase = false;
            o.Password.RequireDigit = false;
            o.Lockout.AllowedForNewUsers = true;
        }).AddUserStore<DashboardUserStore>();
        builder.Services.AddOptions<IdentityOptions>().Configure<IOptions<AuthOptions>>((identity, auth) =>
        {
            identity.Lockout.MaxFailedAccessAttempts = auth.Value.MaxFailedSignIns;
            identity.Lockout.DefaultLockoutTimeSpan = auth.Value.LockoutDuration;
        });
        builder.Services.AddScoped<AccountService>();
        return builder;
    }

    /// <summary>
    /// Accounts (<see cref="AddAccounts"/>) and the web's front door: authentication (cookie, bearer, chosen per request),
    /// authorization (<see cref="AccessPolicy"/> as fallback), rate limits, the setup link at start, the OpenAPI bearer scheme.
    /// </summary>
    public static IHostApplicationBuilder AddDashboardAuth(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.AddAccounts();
        builder.Services.AddHostedService<AccountsInitializer>();
        // Cookie and antiforgery keys in the data folder (a volume in docker-compose), so sign-ins survive a restart.
        var dataFolder = BuildInfo.Resolve(builder.Configuration[$"{DashboardOptions.Section}:DataFolder"] ?? new DashboardOptions().DataFolder);
        builder.Services.AddDataProtection().SetApplicationName("benchmark-dashboard")
            .PersistKeysToFileSystem(new DirectoryInfo(Path.Combine(dataFolder, "keys")));
        builder.Services.AddAuthentication(Scheme)
            .AddPolicyScheme(Scheme, "Cookie, bearer token or share link", o => o.ForwardDefaultSelector = SelectScheme)
            .AddCookie(o =>
            {
                o.Cookie.Name = "dashboard.auth";
                o.Cookie.HttpOnly = true;
                o.Cookie.SameSite = SameSiteMode.Lax;
                o.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
                o.LoginPath = "/account/login";
                o.AccessDeniedPath = "/account/denied";
                o.SlidingExpiration = true;
                o.Events.OnRedirectToLogin = e => AnswerApiOr(e, StatusCodes.Status401Unauthorized);
                o.Events.OnRedirectToAccessDenied = e => AnswerApiOr(e, StatusCodes.Status403Forbidden);
                o.Events.OnValidatePrincipal = SessionValidation.ValidateCookieAsync;
            })
            .AddCookie(ShareEndpoints.Scheme, o =>
            {
                // A share link's reader: no account, the shared runs only (AccessPolicy); a revoked link stops at once.
                o.Cookie.Name = ShareCookie;
                o.Cookie.HttpOnly = true;
                o.Cookie.SameSite = SameSiteMode.Lax;
                o.LoginPath = "/account/login";
                o.AccessDeniedPath = "/account/denied";
                o.Events.OnRedirectToLogin = e => AnswerApiOr(e, StatusCodes.Status401Unauthorized);
                o.Events.OnRedirectToAccessDenied = e => AnswerApiOr(e, StatusCodes.Status403Forbidden);
                o.Events.OnValidatePrincipal = ValidateShareAsync;
            })
            .AddScheme<AuthenticationSchemeOptions, ApiTokenHandler>(ApiTokenHandler.SchemeName, null)
            .AddSingleSignOn(builder.Configuration);
        builder.Services.AddOptions<CookieAuthenticationOptions>(CookieAuthenticationDefaults.AuthenticationScheme)
            .Configure<IOptions<AuthOptions>>((cookie, auth) => cookie.ExpireTimeSpan = auth.Value.SessionLifetime);
        builder.Services.AddScoped<IAuthorizationHandler, AccessHandler>();
        builder.Services.AddAuthorizationBuilder()
            .AddPolicy(AccessPolicy.Name, p => p.AddRequirements(new AccessRequirement()))
            .SetFallbackPolicy(new AuthorizationPolicyBuilder().AddRequirements(new AccessRequirement()).Build());
        builder.Services.AddCascadingAuthenticationState();
        builder.Services.AddScoped<Microsoft.AspNetCore.Components.Authorization.AuthenticationStateProvider, RevalidatingSessionStateProvider>();
        builder.Services.AddRateLimiter(ConfigureRateLimits);
        builder.Services.Configure<OpenApiOptions>("v1", o => o.AddDocumentTransformer<BearerSchemeTransformer>());
        return builder;
    }

    /// <summary>
    /// The front door's middleware, after routing: security headers, authentication, authorization, rate limits, and the
    /// audit of API writes (who, method, path, status).
    /// </summary>
    public static WebApplication UseDashboardAuth(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.UseMiddleware<SecurityHeaders>();
        app.UseAuthentication();
        app.UseRateLimiter();
        app.UseAuthorization();
        app.Use(AuditApiWrites);
        return app;
    }

    /// <summary>The name the audit log records for <paramref name="user"/>: the user or <c>token:NAME</c>, else the client address.</summary>
    public static string ActorOf(HttpContext http)
    {
        ArgumentNullException.ThrowIfNull(http);
        return http.User.Identity?.IsAuthenticated == true ? http.User.Identity.Name ?? "?" : http.Connection.RemoteIpAddress?.ToString() ?? "?";
    }

    private static async Task AuditApiWrites(HttpContext http, RequestDelegate next)
    {
        await next(http);
        var method = http.Request.Method;
        if (!http.Request.Path.StartsWithSegments("/api", StringComparison.OrdinalIgnoreCase) || HttpMethods.IsGet(method) || HttpMethods.IsHead(method)
            || http.Response.StatusCode is StatusCodes.Status401Unauthorized or StatusCodes.Status429TooManyRequests)
        {
            return;
        }

        var accounts = http.RequestServices.GetRequiredService<AccountService>();
        await accounts.AuditAsync(ActorOf(http), $"{method} {http.Request.Path}", http.Response.StatusCode.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    /// <summary>The share link reader's cookie.</summary>
    private const string ShareCookie = "dashboard.share";

    // A bearer header wins, then the sign-in cookie, then a share link's cookie; none: the sign-in cookie (which challenges).
    private static string SelectScheme(HttpContext http) =>
        ApiTokenHandler.BearerToken(http.Request) is not null ? ApiTokenHandler.SchemeName
        : !http.Request.Cookies.ContainsKey("dashboard.auth") && http.Request.Cookies.ContainsKey(ShareCookie) ? ShareEndpoints.Scheme
        : CookieAuthenticationDefaults.AuthenticationScheme;

    private static async Task ValidateShareAsync(CookieValidatePrincipalContext context)
    {
        var id = context.Principal?.FindFirst(ShareEndpoints.IdClaim)?.Value;
        var accounts = context.HttpContext.RequestServices.GetRequiredService<AccountService>();
        if (!int.TryParse(id, System.Globalization.CultureInfo.InvariantCulture, out var shareId) || !await accounts.IsShareActiveAsync(shareId, context.HttpContext.RequestAborted))
        {
            context.RejectPrincipal();
            await context.HttpContext.SignOutAsync(ShareEndpoints.Scheme);
        }
    }

    private static Task AnswerApiOr(RedirectContext<CookieAuthenticationOptions> e, int status)
    {
        var path = e.Request.Path;
        if (path.StartsWithSegments("/api", StringComparison.OrdinalIgnoreCase) || path.StartsWithSegments("/openapi", StringComparison.OrdinalIgnoreCase)
            || path.StartsWithSegments("/_blazor", StringComparison.OrdinalIgnoreCase))
        {
            e.Response.StatusCode = status;
            // Not re-executed as the app's not-found page (the pipeline's status code pages for non-API paths, e.g. /_blazor).
            if (e.HttpContext.Features.Get<Microsoft.AspNetCore.Diagnostics.IStatusCodePagesFeature>() is { } pages)
            {
                pages.Enabled = false;
            }

            return Task.CompletedTask;
        }

        e.Response.Redirect(e.RedirectUri);
        return Task.CompletedTask;
    }

    private static void ConfigureRateLimits(RateLimiterOptions limiter)
    {
        limiter.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
        limiter.OnRejected = (context, _) =>
        {
            var http = context.HttpContext;
            http.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger("Dashboard.Web.Auth.RateLimit")
                .LogWarning("Rate limit: refused {Method} {Path} from {Actor} (429)", http.Request.Method, http.Request.Path, ActorOf(http));
            return ValueTask.CompletedTask;
        };
        limiter.AddPolicy(SignInLimit, http => RateLimitPartition.GetFixedWindowLimiter(
            http.Connection.RemoteIpAddress?.ToString() ?? "?",
            _ => new FixedWindowRateLimiterOptions { PermitLimit = Auth(http).SignInPermitsPerMinute, Window = TimeSpan.FromMinutes(1), QueueLimit = 0 }));
        limiter.GlobalLimiter = PartitionedRateLimiter.Create<HttpContext, string>(http =>
            http.Request.Path.StartsWithSegments("/api", StringComparison.OrdinalIgnoreCase)
                ? RateLimitPartition.GetFixedWindowLimiter(
                    "api:" + ActorOf(http),
                    _ => new FixedWindowRateLimiterOptions { PermitLimit = Auth(http).ApiPermitsPerMinute, Window = TimeSpan.FromMinutes(1), QueueLimit = 0 })
                : RateLimitPartition.GetNoLimiter("pages"));
    }

    private static AuthOptions Auth(HttpContext http) => http.RequestServices.GetRequiredService<IOptions<AuthOptions>>().Value;

    private static void TryAddSingletonTimeProvider(this IServiceCollection services)
    {
        if (!services.Any(s => s.ServiceType == typeof(TimeProvider)))
        {
            services.AddSingleton(TimeProvider.System);
        }
    }

    /// <summary>A principal for a signed-in person: name, role, and the account's security stamp.</summary>
    internal static ClaimsPrincipal PrincipalOf(UserEntity user) => new(new ClaimsIdentity(
        [new Claim(ClaimTypes.Name, user.UserName), new Claim(ClaimTypes.Role, user.Role), new Claim(SessionValidation.StampClaim, user.SecurityStamp)],
        CookieAuthenticationDefaults.AuthenticationScheme));
}
