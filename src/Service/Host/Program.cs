using Dashboard.Service.Host.Control;
using Dashboard.Service.Host.Hosting;
using Dashboard.Service.Host.Security;

// The service host (docs/architecture.md): control API on :5090, the aspnet and wcfbindings variants in this process,
// the JVM service (metro, ice) as a supervised child process.

// `supervise [host arguments]`: the host as a child process, started again after each POST /restart (HostSupervisor).
if (args is [HostSupervisor.Command, .. var hostArguments])
{
    Environment.ExitCode = await HostSupervisor.RunAsync(hostArguments, Console.Out);
    return;
}

var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.AddServiceHostOptions();
builder.AddParentWatch();
builder.AddSecurityMaterial(); // before every hosted service: the JVM supervisor hands the material to the JVM service
builder.AddEndpointRegistry();
builder.AddResourceMonitor();
builder.AddAspNetStack();
builder.AddWcfBindingStack();
builder.AddJvmStack();

var app = builder.Build();
app.MapControlApi();
app.MapSecurityApi();
app.Run();
