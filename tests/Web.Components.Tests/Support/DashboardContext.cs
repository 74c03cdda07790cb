using System.Reflection;
using Dashboard.Data;
using Dashboard.Data.Agents;
using Dashboard.Data.Entities;
using Dashboard.Web.Agents;
using Dashboard.Web.Extensions;
using Dashboard.Web.Options;
using Microsoft.AspNetCore.Builder;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using MudBlazor;

namespace Dashboard.Web.Components.Tests.Support;

/// <summary>
/// A bunit context with the dashboard's own services (the <c>AddXxx</c> of <see cref="DashboardExtensions"/>, hosted
/// services not started): a real SQLite results database and <c>hosts.json</c> in a temporary folder, the repository's
/// preset files, a local host address nothing listens on. JS interop is loose (the browser clock keeps UTC).
/// </summary>
public sealed class DashboardContext : BunitContext
{
    /// <summary>The test's folder (data: results.db, hosts.json).</summary>
    public string Root { get; } = Path.Combine(Path.GetTempPath(), "dashboard-component-tests", Guid.NewGuid().ToString("N"));

    /// <summary>The local host's address (a port nothing listens on).</summary>
    public const string LocalHost = "http://127.0.0.1:9";

    /// <summary>Creates the context; <paramref name="presetsFolder"/> defaults to the repository's examples/.</summary>
    public DashboardContext(string? presetsFolder = null)
    {
        Directory.CreateDirectory(Path.Combine(Root, "data"));
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Dashboard:DataFolder"] = Path.Combine(Root, "data"),
            ["Dashboard:PresetsFolder"] = presetsFolder ?? ExamplesFolder,
            ["Dashboard:StartLocalHost"] = "false",
            ["Dashboard:LocalHost:Address"] = LocalHost,
        });
        builder.AddDashboardOptions();
        builder.AddResultsDatabase();
        builder.AddRunQueue();
        builder.AddServiceHosts();
        builder.AddDashboardUi();
        builder.AddAgents();
        // The dashboard's own services, MudBlazor's, options, the database and HTTP client factories; not the server's
        // Razor Components services (bunit brings its own navigation manager and JS runtime) nor hosted services.
        foreach (var service in builder.Services.Where(s => s.ServiceType != typeof(IHostedService)
                     && s.ServiceType.Namespace?.StartsWith("Microsoft.AspNetCore.Components", StringComparison.Ordinal) != true
                     && s.ServiceType.Namespace?.StartsWith("Microsoft.JSInterop", StringComparison.Ordinal) != true))
        {
            Services.Add(service);
        }

        JSInterop.Mode = JSRuntimeMode.Loose;
        // The machine is shared by several builds and test runs: waits get 15 s rather than bunit's 1 s.
        DefaultWaitTimeout = TimeSpan.FromSeconds(15);
        using (OpenDatabase())
        {
            // created and migrated, as the dashboard's DatabaseInitializer does at start
        }

        Services.AddSingleton(TimeProvider.System);
        // Hangfire keeps its log provider in a process-wide static that the last context to configure Hangfire points at
        // its own logger factory; contexts of parallel tests are disposed while others queue runs, so a disposed factory
        // would throw inside Hangfire (CI of 2026-11-28). The null factory is never disposed and nothing here reads logs.
        Services.AddSingleton<ILoggerFactory>(NullLoggerFactory.Instance);
    }

    /// <summary>
    /// Makes the dashboard one of the PostgreSQL mode as far as the agents go: the pages list <paramref name="agents"/>
    /// (every registered agent) instead of the SQLite mode's none. Call before rendering.
    /// </summary>
    public void UseAgents(params AgentInfo[] agents)
    {
        IReadOnlyList<AgentInfo> list = agents;
        Services.AddSingleton(new AgentDirectory(_ => Task.FromResult(list)));
    }

    /// <summary>An agent as the registry lists it: <paramref name="cores"/> cores, the given client technologies, heartbeat 1 s ago.</summary>
    /// <remarks>Without technologies: <c>dotnet</c> and <c>wcf</c>, and java unavailable ("no java on PATH").</remarks>
    public static AgentInfo Agent(string name, AgentState state = AgentState.Online, int cores = 2, params string[] technologies)
    {
        string[] clients = technologies.Length == 0 ? ["dotnet", "wcf"] : technologies;
        var unavailable = new Dictionary<string, string>(StringComparer.Ordinal);
        if (!clients.Contains("java"))
        {
            unavailable["java"] = "no java on PATH";
        }

        return new(name, AgentQueues.NameOf(name), $"{name}.lan", cores, clients, unavailable, new Dictionary<string, string>(StringComparer.Ordinal) { [".NET"] = "10.0.0" },
            0.1, 0.05, DateTime.UtcNow.AddMinutes(-5), DateTime.UtcNow.AddSeconds(-1), 1, state, state == AgentState.Offline ? "stopped" : null);
    }

    /// <summary>The repository's examples/ folder.</summary>
    public static string ExamplesFolder =>
        typeof(DashboardContext).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == "ExamplesFolder").Value!;

    /// <summary>The results database, created or migrated.</summary>
    public ResultsDbContext OpenDatabase() => ResultsDatabase.Open(Path.Combine(Root, "data", "results.db"));

    /// <summary>Stores a run (and its levels) as the runner would have left it.</summary>
    public async Task<RunEntity> AddRunAsync(RunEntity run, params LevelEntity[] levels)
    {
        ArgumentNullException.ThrowIfNull(run);
        await using var db = OpenDatabase();
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        foreach (var level in levels)
        {
            level.RunId = run.Id;
            db.Levels.Add(level);
        }

        await db.SaveChangesAsync();
        return run;
    }

    /// <summary>The dialog provider <see cref="RenderPage{T}"/> rendered: dialogs a page opens appear in its markup.</summary>
    public IRenderedComponent<MudDialogProvider>? Dialogs { get; private set; }

    /// <summary>The snackbar provider <see cref="RenderPage{T}"/> rendered: the notes a page shows appear in its markup.</summary>
    public IRenderedComponent<MudSnackbarProvider>? Snackbars { get; private set; }

    /// <summary>Renders <typeparamref name="T"/> after the MudBlazor providers (popovers, dialogs, snackbars) a page needs.</summary>
    public IRenderedComponent<T> RenderPage<T>(Action<ComponentParameterCollectionBuilder<T>>? parameters = null)
        where T : Microsoft.AspNetCore.Components.IComponent
    {
        Render<MudPopoverProvider>();
        Dialogs = Render<MudDialogProvider>();
        Snackbars = Render<MudSnackbarProvider>();
        return parameters is null ? Render<T>() : Render(parameters);
    }

    /// <summary>Disposes the context (asynchronously: MudBlazor's services are only async-disposable) and deletes its folder.</summary>
    public async Task DisposeAndDeleteAsync()
    {
        await DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
