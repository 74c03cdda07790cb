using System.CommandLine;
using Dashboard.Runner.Clients;
using Dashboard.Runner.CommandLine;

// The load generator: its own process, never the dashboard's (DESIGN.md §2).
// No client technology can be built on this machine yet (docs/dependencies.md), so the registry is empty
// and a scenario naming one is refused with the reason.
var drivers = new ClientDriverRegistry([]);
var root = new RootCommand("Middleware benchmark runner: runs CoreWCF/WCF benchmark scenarios and stores every sample.")
{
    RunCommand.Create(drivers),
};
return await root.Parse(args).InvokeAsync();
