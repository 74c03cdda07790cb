using Dashboard.Data;
using Dashboard.Web.Api;
using Dashboard.Web.Charts;
using Dashboard.Web.Components;
using Dashboard.Web.Hosts;
using Dashboard.Web.Options;
using Dashboard.Web.Runs;
using Dashboard.Web.Scenarios;
using Dashboard.Web.Storage;
using Microsoft.Extensions.Options;
using MudBlazor.Services;
using Radzen;

namespace Dashboard.Web.Extensions;

/// <summary>One <c>AddXxx</c> per component of the dashboard (eShop style, DESIGN.md §10).</summary>
public static class DashboardExtensions
{
    /// <summary>The options sections, each validated at start.</summary>
    public static IHostApplicationBuilder AddDashboardOptions(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<DashboardOptions>().Bind(builder.Configuration.GetSection(DashboardOptions.Section))
            .ValidateDataAnnotations()
            .Validate(o => !Path.GetInvalidPathChars().Any(o.Database.Contains), "Dashboard:Database is not a valid file name")
            .ValidateOnStart();
        builder.Services.AddOptions<RunnerOptions>().Bind(builder.Configuration.GetSection(RunnerOptions.Section))
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddOptions<LocalHostOptions>().Bind(builder.Configuration.GetSection(LocalHostOptions.Section))
            .ValidateDataAnnotations()
            .Validate(o => o.Address.IsAbsoluteUri && (o.Address.Scheme == Uri.UriSchemeHttp || o.Address.Scheme == Uri.UriSchemeHttps),
                "Dashboard:LocalHost:Address must be an absolute http:// or https:// address")
            .ValidateOnStart();
        return builder;
    }

    /// <summary>The results database: a context factory on the configured file, migrated at start.</summary>
    public static IHostApplicationBuilder AddResultsDatabase(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddHostedService<DatabaseInitializer>();
        builder.Services.AddDbContextFactory<ResultsDbContext>((sp, options) =>
            ResultsDatabase.Configure(options, sp.GetRequiredService<IOptions<DashboardOptions>>().Value.DatabasePath));
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddSingleton<RunnerRunMap>();
        builder.Services.AddSingleton<RunStore>();
        builder.Services.AddSingleton<Results.RunResultsService>();
        return builder;
    }

    /// <summary>The run queue: Quartz-driven worker that starts the built runner, one run at a time.</summary>
    public static IHostApplicationBuilder AddRunQueue(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddSingleton<RunEvents>();
        builder.Services.AddSingleton<QueueWorker>();
        builder.Services.AddSingleton<QueueScheduler>();
        builder.Services.AddHostedService(sp => sp.GetRequiredService<QueueScheduler>());
        builder.Services.AddTransient<ProcessQueueJob>();
        builder.Services.AddSingleton<QueueService>();
        builder.Services.AddSingleton<ScenarioPresets>();
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
        builder.Services.AddHostedService<HostMonitor>();
        return builder;
    }

    /// <summary>The Blazor Server UI (interactive server render mode) with MudBlazor (Radzen until every page has moved); charts are Plotly.Blazor components, which import their own script.</summary>
    public static IHostApplicationBuilder AddDashboardUi(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddRazorComponents().AddInteractiveServerComponents();
        builder.Services.AddMudServices();
        builder.Services.AddRadzenComponents();
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

        app.UseStatusCodePages();
        app.UseStaticFiles();
        app.UseAntiforgery();
        app.MapOpenApi();
        app.MapRunsApi();
        app.MapPresetsApi();
        app.MapRazorComponents<App>().AddInteractiveServerRenderMode();
        return app;
    }
}
