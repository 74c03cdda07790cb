using System.CommandLine;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.CommandLine;
using Dashboard.Runner.Execution;

// The load generator: its own process, never the dashboard's (DESIGN.md §2).
var generator = new GeneratorProcesses();
var drivers = ClientDriverRegistry.CreateDefault(DotNetDriver.DefaultTimeout, generator);
var root = new RootCommand("Middleware benchmark runner: runs benchmark scenarios against a service host and stores every sample.")
{
    RunCommand.Create(drivers, generator),
};
return await root.Parse(args).InvokeAsync();
