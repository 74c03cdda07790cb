using Dashboard.Service.Host.Control;
using Dashboard.Service.Host.Hosting;

// The service host (DESIGN.md §2): control API on :5090, the aspnet variants in this process,
// the JVM service (metro, ice) as a supervised child process.
var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.AddServiceHostOptions();
builder.AddEndpointRegistry();
builder.AddResourceMonitor();
builder.AddAspNetStack();
builder.AddJvmStack();

var app = builder.Build();
app.MapControlApi();
app.Run();
