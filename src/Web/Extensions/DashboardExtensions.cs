using Dashboard.Data;
using Dashboard.Web.Api;
using Dashboard.Web.Auth;
using Dashboard.Web.Charts;
using Dashboard.Web.Components;
using Dashboard.Web.Components.Time;
using Dashboard.Web.Hosts;
using Dashboard.Web.Options;
using Dashboard.Web.Runs;
using Dashboard.Web.Scenarios;
using Dashboard.Web.Storage;
using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Options;
using MudBlazor.Services;
using Hangfire;
using DashboardOptions = Dashboard.Web.Options.DashboardOptions;
using Hangfire.Dashboard;
using Hangfire.PostgreSql;
using Hangfire.Storage.SQLite;

namespace Dashboard.Web.Extensions;

/// <summary>One <c>AddXxx</c> per component of the dashboard (eShop's style; docs/architecture.md).</summary>
public static class DashboardExtensions
{
    /// <summary>The options sections, each validated at start; settings given as <c>KEY_FILE</c> are read from their files first (<see cref="SecretFiles"/>).</summary>
    public static IHostApplicationBuilder AddDashboardOptions(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        SecretFiles.Apply(builder.Configuration);
        builder.Services.AddOptions<DashboardOptions>().Bind(builder.Configuration.GetSection(DashboardOptions.Section))
            .Configure<IConfiguration>((o, configuration) => o.ResultsConnectionString = configuration.GetConnectionString("Results"))
            .ValidateDataAnnotations()
            .Validate(o => !Path.GetInvalidPathChars().Any(o.Database.Contains), "Dashboard:Database is not a valid file name")
            .Validate(o => Enum.IsDefined(o.Storage), "Dashboard:Storage must be Sqlite or PostgreSql")
            .ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<DashboardOptions>, StorageValidation>();
        builder.Services.AddHostedService<Processes.ParentWatchService>();
        builder.Services.AddOptions<RunnerOptions>().Bind(builder.Configuration.GetSection(RunnerOptions.Section))
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<LocalHostOptions>().Bind(builder.Configuration.GetSection(LocalHostOptions.Section))
            .ValidateDataAnnotations()
            .Validate(o => o.Address.IsAbsoluteUri && (o.Address.Scheme == Uri.UriSchemeHttp || o.Address.Scheme == Uri.UriSchemeHttps),
                "Dashboard:LocalHost:Address must be an absolute http:// or https:// address")
            .ValidateOnStart();
        return builder;
    }

    /// <summary>
    /// The results database: a context factory on the configured store (<c>Dashboard:Storage</c>: the SQLite file or
    /// PostgreSQL, <see cref="DashboardOptions.CreateResultsStore"/>, the one factory every reader and writer uses), migrated at start.
    /// </summary>
    public static IHostApplicationBuilder AddResultsDatabase(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddHostedService<DatabaseInitializer>();
        builder.Services.AddDbContextFactory<ResultsDbContext>((sp, options) =>
            sp.GetRequiredService<IOptions<DashboardOptions>>().Value.CreateResultsStore().Configure(options));
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddSingleton<RunStore>();
        builder.Services.AddSingleton<RunSummaries>();
        builder.Services.AddSingleton<Results.RunResultsService>();
        builder.Services.AddSingleton<Results.ClaimResultsService>();
        // The claims file (docs/claims.md, "Adding a claim") is read now: a broken entry stops the start with its file, claim id and field.
        _ = Dashboard.Data.Claims.ClaimCatalogue.All;
        return builder;
    }

    /// <summary>
    /// The run queue (docs/architecture.md, "The queue"): Hangfire on its own SQLite file beside the results database, or
    /// with PostgreSQL storage in the results database itself (schema <see cref="QueueOptions.PostgreSqlSchema"/>); a run
    /// is a job on the <c>benchmarks</c> queue, which ONE worker serves (one benchmark at a time); a light queue with its own
    /// worker fires recurring runs. <see cref="QueueRecovery"/> runs first: what a previous dashboard left is ended or marked.
    /// </summary>
    public static IHostApplicationBuilder AddRunQueue(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<QueueOptions>().Bind(builder.Configuration.GetSection(QueueOptions.Section))
            .ValidateDataAnnotations()
            .Validate(o => !Path.GetInvalidPathChars().Any(o.Storage.Contains), "Dashboard:Queue:Storage is not a valid file name")
            .ValidateOnStart();
        builder.Services.AddSingleton<RunEvents>();
        builder.Services.AddSingleton<QueueWorker>();
        builder.Services.AddSingleton<RunJobs>();
        builder.Services.AddSingleton<QueueService>();
        builder.Services.AddTransient<BenchmarkJob>();
        builder.Services.AddSingleton<ScenarioPresets>();
        builder.Services.AddHangfire((sp, config) =>
        {
            var dashboard = sp.GetRequiredService<IOptions<DashboardOptions>>().Value;
            var queue = sp.GetRequiredService<IOptions<QueueOptions>>().Value;
            config.SetDataCompatibilityLevel(CompatibilityLevel.Version_180)
                .UseSimpleAssemblyNameTypeSerializer()
                .UseRecommendedSerializerSettings();
            if (dashboard.Storage == StorageProvider.PostgreSql)
            {
                // The results database, Hangfire's own schema (created and upgraded by Hangfire.PostgreSql at start).
                config.UsePostgreSqlStorage(
                    postgres => postgres.UseNpgsqlConnection(dashboard.ResultsConnectionString),
                    new PostgreSqlStorageOptions { SchemaName = QueueOptions.PostgreSqlSchema, QueuePollInterval = queue.PollInterval, PrepareSchemaIfNecessary = true });
                return;
            }

            var path = queue.StoragePath(dashboard.DataFolderPath);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            config.UseSQLiteStorage(path, new SQLiteStorageOptions { QueuePollInterval = queue.PollInterval });
        });
        // Before the servers (hosted services start in the order they were added): runs left Running are settled first.
        builder.Services.AddHostedService<QueueRecovery>();
        builder.Services.AddHostedService<QueueWiring>();
        // The benchmarks server is lightweight (its worker only, with the watchdog and cancellation checks Hangfire needs):
        // the schedulers of delayed and recurring jobs and the storage's housekeeping run once, in the triggers server, not
        // twice. Each of their looks takes a lock in the queue's storage, and they go on while a benchmark runs, where
        // this process's CPU counts as others' on the machine (bench/README.md, "The dashboard's own CPU while a run goes").
        builder.Services.AddHangfireServer(o =>
        {
            o.ServerName = $"{Environment.MachineName}:benchmarks";
            o.Queues = [QueueOptions.BenchmarksQueue];
            o.WorkerCount = 1;
            o.IsLightweightServer = true;
        });
        builder.Services.AddHangfireServer((sp, o) =>
        {
            o.ServerName = $"{Environment.MachineName}:triggers";
            o.Queues = [QueueOptions.TriggersQueue];
            o.WorkerCount = 1;
            o.SchedulePollingInterval = sp.GetRequiredService<IOptions<QueueOptions>>().Value.SchedulePollInterval;
        });
        return builder;
    }

    /// <summary>Service hosts: the local child process, the known hosts and their health.</summary>
    public static IHostApplicationBuilder AddServiceHosts(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddHttpClient<HostClient>(http => http.Timeout = TimeSpan.FromSeconds(3));
        builder.Services.AddSingleton<HostRegistry>();
        builder.Services.AddSingleton<LocalServiceHost>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<LocalServiceHost>());
        builder.Services.AddSingleton<HostMonitor>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<HostMonitor>());
        return builder;
    }

    /// <summary>The Blazor Server UI (interactive server render mode) with MudBlazor; charts are Plotly.Blazor components, which import their own script.</summary>
    public static IHostApplicationBuilder AddDashboardUi(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddRazorComponents().AddInteractiveServerComponents();
        // Snackbars at the bottom left, away from the New run page's action panel (right) and the app bar.
        builder.Services.AddMudServices(config =>
        {
            config.SnackbarConfiguration.PositionClass = MudBlazor.Defaults.Classes.Position.BottomLeft;
            config.SnackbarConfiguration.PreventDuplicates = true;
            config.SnackbarConfiguration.VisibleStateDuration = 8000;
        });
        builder.Services.AddScoped<BrowserClock>();
        return builder;
    }

    /// <summary>The HTTP API's services: problem details and the OpenAPI document.</summary>
    public static IHostApplicationBuilder AddDashboardApi(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddProblemDetails();
        builder.Services.AddOpenApi();
        return builder;
    }

    /// <summary>The middleware and endpoints: static files from the top-level wwwroot, the UI, the API, OpenAPI.</summary>
    public static WebApplication MapDashboard(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        if (!app.Environment.IsDevelopment())
        {
            app.UseExceptionHandler("/Error", createScopeForErrors: true);
        }

        // HEAD of a page answers as its GET would, without the body: the component endpoints match GET and POST only,
        // so `curl -I /` (or a monitor's HEAD probe) got the not-found page's 404 while a browser got 200.
        app.Use(HeadAsGet);
        // An unknown address answers the app's own page (404 kept) rather than problem details JSON; the API keeps
        // its problem details.
        app.UseWhen(context => !IsApi(context.Request.Path),
            page => page.UseStatusCodePagesWithReExecute("/not-found", createScopeForStatusCodePages: true));
        app.UseWhen(context => IsApi(context.Request.Path), api => api.UseStatusCodePages());
        // Routing after the status code pages, so a re-executed 404 (/not-found) is routed to its page.
        app.UseRouting();
        // After routing: the static file middleware serves only requests no endpoint matched, so package and framework
        // assets go to MapStaticAssets below (compressed); this serves the top-level wwwroot (css/, js/, lib/plotly/).
        app.UseStaticFiles(new StaticFileOptions { FileProvider = new PhysicalFileProvider(app.Environment.WebRootPath) });
        // Authentication, rate limits, authorization (Auth/AccessPolicy.cs is the fallback policy), security headers, audit.
        app.UseDashboardAuth();
        app.UseAntiforgery();
        // Package and framework assets (_content/MudBlazor/…, _framework/blazor.web.js) from the build's static web
        // assets manifest: compressed (gzip, and Brotli after publish) when the browser accepts it, with ETags.
        app.MapStaticAssets().AllowAnonymous();
        app.MapOpenApi();
        var queue = app.Services.GetRequiredService<IOptions<QueueOptions>>().Value;
        app.UseHangfireDashboard(queue.DashboardPath, new Hangfire.DashboardOptions
        {
            // Admins only, and local requests only unless Dashboard:Queue:DashboardRemoteAccess (it can delete and re-queue jobs).
            Authorization = [new HangfireAdminFilter(queue.DashboardRemoteAccess)],
            DashboardTitle = "Benchmark queue (Hangfire)",
            AppPath = "/queue",
        });
        app.MapRunsApi();
        app.MapRecurringApi();
        app.MapPresetsApi();
        app.MapClaimsApi();
        app.MapRunEnvironmentApi();
        app.MapAgentsApi();
        app.MapAccountEndpoints();
        app.MapHostsApi();
        app.MapRazorComponents<App>().AddInteractiveServerRenderMode();
        return app;
    }

    /// <summary>
    /// Runs a <c>HEAD</c> request for a page (not the API, which maps its own methods) as a <c>GET</c> whose body is
    /// discarded, so it answers the status and headers the <c>GET</c> would (RFC 9110 §9.3.2).
    /// </summary>
    private static async Task HeadAsGet(HttpContext context, RequestDelegate next)
    {
        if (!HttpMethods.IsHead(context.Request.Method) || IsApi(context.Request.Path))
        {
            await next(context);
            return;
        }

        var body = context.Response.Body;
        context.Request.Method = HttpMethods.Get;
        context.Response.Body = Stream.Null;
        try
        {
            await next(context);
        }
        finally
        {
            context.Response.Body = body;
            context.Request.Method = HttpMethods.Head;
        }
    }

    private static bool IsApi(PathString path) =>
        path.StartsWithSegments("/api", StringComparison.OrdinalIgnoreCase) || path.StartsWithSegments("/openapi", StringComparison.OrdinalIgnoreCase);
}

/// <summary>
/// <c>Dashboard:Storage</c> and <c>ConnectionStrings:Results</c> together: PostgreSql needs a valid connection string; the
/// error names the key (<see cref="DashboardOptions.StorageError"/>).
/// </summary>
internal sealed class StorageValidation : IValidateOptions<DashboardOptions>
{
    public ValidateOptionsResult Validate(string? name, DashboardOptions options) =>
        options.StorageError() is { } error ? ValidateOptionsResult.Fail(error) : ValidateOptionsResult.Success;
}

