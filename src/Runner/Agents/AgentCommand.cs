using System.CommandLine;
using Dashboard.Data.Agents;
using Dashboard.Service.Contracts.Processes;
using Dashboard.Service.Contracts.Progress;

namespace Dashboard.Runner.Agents;

/// <summary>
/// <c>agent [--connection "CONNECTION STRING"] [--name N] [--heartbeat S] [--stop-at-stdin-eof] [--security-dir DIR]</c> (docs/agents.md): this
/// machine becomes a load agent of a PostgreSQL deployment. It registers (name, cores, client technologies, runtimes,
/// clock offset to the database server), sends a heartbeat every few seconds and serves its own Hangfire queue until it
/// is stopped (Ctrl+C, SIGTERM, end of standard input with <c>--stop-at-stdin-eof</c>: exit 0) or loses the database
/// (exit <see cref="ExitCodes.DatabaseUnavailable"/>, the reason on stderr).
/// </summary>
public static class AgentCommand
{
    /// <summary>The environment variable the connection string is read from when <c>--connection</c> is not given (as the dashboard passes it).</summary>
    public const string ConnectionVariable = "ConnectionStrings__Results";

    /// <summary>Default of <c>--heartbeat</c>, in seconds.</summary>
    public const int DefaultHeartbeatSeconds = 2;

    /// <summary>Builds the <c>agent</c> command.</summary>
    public static Command Create()
    {
        var connection = new Option<string>("--connection")
        {
            Description = $"The PostgreSQL database of the deployment (Npgsql connection string, e.g. \"Host=db;Database=results;Username=bench;Password=…\"). "
                + $"Default: the environment variable {ConnectionVariable}, which keeps the password off the command line (other users of the machine can read that).",
        };
        var name = new Option<string>("--name")
        {
            Description = $"The agent's name (at most {AgentQueues.MaxNameLength} characters; default the machine name). Its Hangfire queue is derived from it.",
            DefaultValueFactory = _ => Environment.MachineName,
        };
        name.Validators.Add(result =>
        {
            if (AgentQueues.ValidationError(result.GetValueOrDefault<string>() ?? "") is { } error)
            {
                result.AddError(error);
            }
        });
        var heartbeat = new Option<int>("--heartbeat")
        {
            Description = $"Seconds between heartbeats, 1-10 (default {DefaultHeartbeatSeconds}); the database is given up after three heartbeats fail.",
            DefaultValueFactory = _ => DefaultHeartbeatSeconds,
        };
        heartbeat.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() is < 1 or > 10)
            {
                result.AddError("--heartbeat: give 1 to 10 seconds");
            }
        });
        var stopAtStdinEof = new Option<bool>("--stop-at-stdin-eof")
        {
            Description = "Stop when standard input ends (the dashboard starts its local agent so: it ends with the dashboard, however the dashboard ends).",
        };

        var securityDir = new Option<DirectoryInfo>("--security-dir")
        {
            Description = "The service host's security folder on this machine (CA certificate, client key store, credentials.json; docs/security.md), "
                + "for levels of secure variants: copy the host's files here. Default: the local host's <DataDirectory>/security.",
            DefaultValueFactory = _ => new DirectoryInfo(Service.Contracts.Security.HostDataDirectory.DefaultSecurityDirectory),
        };

        var command = new Command("agent", "Serve as a load agent: register in the PostgreSQL database and run the load jobs of this agent's queue.")
        {
            connection, name, heartbeat, stopAtStdinEof, securityDir,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            using var parentGone = new CancellationTokenSource();
            using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, parentGone.Token);
            if (parse.GetValue(stopAtStdinEof))
            {
                ParentWatch.Start(parentGone, "standard input ended: the process that started the runner is gone; stopping the run");
            }

            if ((parse.GetValue(connection) ?? Environment.GetEnvironmentVariable(ConnectionVariable)) is not { Length: > 0 } connectionString)
            {
                await Console.Error.WriteLineAsync($"error: --connection: give the PostgreSQL connection string (or set {ConnectionVariable})");
                return ExitCodes.AgentRefused;
            }

            var settings = new AgentSettings(connectionString, parse.GetRequiredValue(name), TimeSpan.FromSeconds(parse.GetValue(heartbeat)))
            {
                SecurityDirectory = parse.GetRequiredValue(securityDir).FullName,
            };
            return await new AgentHost(settings, Console.Error).RunAsync(stop.Token,
                () => parentGone.IsCancellationRequested ? "the process that started it ended (its standard input closed)" : "stopped (SIGINT or SIGTERM)");
        });
        return command;
    }
}
