using System.CommandLine;
using Dashboard.Runner.Clients;
using Dashboard.Runner.CommandLine;
using Dashboard.Runner.Load;

// The load generator: its own process, never the dashboard's (docs/architecture.md).
var generator = new GeneratorProcesses();
var root = new RootCommand("Middleware benchmark runner: runs benchmark scenarios against a service host and stores every sample.")
{
    RunCommand.Create(requestTimeout => ClientDriverRegistry.CreateDefault(requestTimeout, generator), generator),
    Dashboard.Runner.Agents.AgentCommand.Create(),
    BundleCommand.Create(),
};
// Ctrl+C and SIGTERM cancel the run; it then stores the level in progress and prints the table. System.CommandLine
// waits ProcessTerminationTimeout for that before it lets the signal end the process (default 2 s, too short on a
// loaded machine: the samples of the level in progress would be lost).
var invocation = new InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromSeconds(120) };
return await root.Parse(args).InvokeAsync(invocation);
