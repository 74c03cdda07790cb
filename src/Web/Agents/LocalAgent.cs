using System.Diagnostics;
using Dashboard.Service.Contracts.Processes;
using Dashboard.Web.Options;
using Dashboard.Web.Processes;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Agents;

/// <summary>
/// The dashboard machine's own agent in PostgreSQL mode (docs/agents.md): the built runner's <c>agent --stop-at-stdin-eof</c>
/// (the connection string in its environment, <c>ConnectionStrings__Results</c>) as a child process whose standard input the dashboard holds, so it ends with the dashboard
/// however the dashboard ends (docs/architecture.md, "A process tree that dies together"). Its stderr lines go to the log.
/// </summary>
public sealed class LocalAgent(AgentSettingsSource source, IOptions<AgentsOptions> options, IOptions<RunnerOptions> runner, Hosts.HostRegistry hosts, ILogger<LocalAgent> logger)
    : IHostedService, IDisposable
{
    private Process? _process;

    /// <summary>What the local agent is doing, one line for the Agents page.</summary>
    public string Status { get; private set; } = "no local agent (SQLite mode)";

    /// <summary>The local agent's name.</summary>
    public string Name => options.Value.LocalAgentName ?? Environment.MachineName;

    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (source.ConnectionString is not { } connection)
        {
            return Task.CompletedTask;
        }

        if (!options.Value.StartLocalAgent)
        {
            Status = "the dashboard starts no local agent (Dashboard:Agents:StartLocalAgent=false)";
            return Task.CompletedTask;
        }

        var path = runner.Value.ExecutableFullPath;
        if (!File.Exists(path))
        {
            Status = $"the runner is not built: {path} does not exist (dotnet build src/Runner)";
            logger.LogWarning("Local agent not started: {Status}", Status);
            return Task.CompletedTask;
        }

        var start = new ProcessStartInfo(path) { UseShellExecute = false, RedirectStandardInput = true, RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var argument in new[] { "agent", "--name", Name, "--stop-at-stdin-eof" })
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in RunnerRuntime.Variables)
        {
            start.Environment[name] = value;
        }

        // In the environment, never on the command line (which every user of the machine can read).
        start.Environment["ConnectionStrings__Results"] = connection;
        // The local host's control token, when known now (docs/security.md); else the agent reads the host's control-token file itself.
        if (hosts.LocalControlToken is { } token)
        {
            start.Environment[Service.Contracts.Security.HostControlToken.EnvironmentVariable] = token;
        }

        _process = Process.Start(start)!;
        _process.EnableRaisingEvents = true;
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { Length: > 0 } line)
            {
                logger.LogInformation("Local agent {Name}: {Line}", Name, line);
            }
        };
        _process.OutputDataReceived += (_, _) => { };
        _process.BeginErrorReadLine();
        _process.BeginOutputReadLine();
        _process.Exited += (_, _) =>
        {
            Status = $"the local agent exited with code {_process.ExitCode} (see the dashboard's log)";
            logger.LogWarning("Local agent {Name} exited with code {ExitCode}", Name, _process.ExitCode);
        };
        Status = $"local agent {Name} runs (process {_process.Id})";
        logger.LogInformation("Local agent {Name} started: {Path} pid {Pid}", Name, path, _process.Id);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_process is { HasExited: false } process)
        {
            // End of input is the agent's stop signal; it signs off and exits.
            process.StandardInput.Close();
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            try
            {
                await process.WaitForExitAsync(wait.Token);
            }
            catch (OperationCanceledException)
            {
                await PosixProcess.StopAsync(process, TimeSpan.FromSeconds(5));
            }
        }
    }

    /// <inheritdoc />
    public void Dispose() => _process?.Dispose();
}

/// <summary>
/// Where the agents are: the PostgreSQL connection string in PostgreSQL mode (<c>Dashboard:Storage=PostgreSql</c>,
/// <c>ConnectionStrings:Results</c>), null in SQLite mode.
/// </summary>
/// <param name="ConnectionString">The PostgreSQL connection string, or null.</param>
public sealed record AgentSettingsSource(string? ConnectionString);
