using Dashboard.Web.Agents;
using Dashboard.Web.Auth;
using Dashboard.Web.Extensions;
using Dashboard.Web.Options;

// `Dashboard.Web token create …` / `admin create|reset …`: account commands instead of the web host (docs/security.md).
if (AccountCommands.Matches(args))
{
    return await AccountCommands.RunAsync(args, Console.Out, Console.Error);
}

// The dashboard (docs/architecture.md): UI, run queue and HTTP API. The web root is the repository's top-level wwwroot.
var builder = WebApplication.CreateBuilder(new WebApplicationOptions
{
    Args = args,
    ContentRootPath = AppContext.BaseDirectory,
    WebRootPath = BuildInfo.WebRoot(),
});

// Package assets (_content/MudBlazor/..., _content/Plotly.Blazor/...) from the build output too, not only in Development (docs/web.md, "Static files").
builder.WebHost.UseStaticWebAssets();

builder.AddDashboardOptions();
builder.AddResultsDatabase();
builder.AddRunQueue();
builder.AddServiceHosts();
builder.AddAgents();
builder.AddDashboardUi();
builder.AddDashboardApi();
builder.AddDashboardAuth();

var app = builder.Build();
app.MapDashboard();
await app.RunAsync();
return 0;
