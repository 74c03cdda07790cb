using System.Diagnostics;
using Dashboard.Web.Options;
using Dashboard.Web.Runs;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Hosts;

/// <summary>State of the local service host child process.</summary>
public enum LocalHostState
{
    /// <summary>Not started: <c>Dashboard:StartLocalHost</c> is false.</summary>
    Disabled,

    /// <summary>The executable does not exist (not built on this machine).</summary>
    NotBuilt,

    /// <summary>The child process runs.</summary>
    Running,

    /// <summary>The child process exited or could not start.</summary>
    Exited,
}

/// <summary>
/// Starts the built service host (<c>src/Service/Host</c>) as a child process unless
/// <c>--Dashboard:StartLocalHost=false</c>, and stops it (SIGINT, then kill) when the dashboard stops.
/// </summary>
public sealed class LocalServiceHost(IOptions<DashboardOptions> dashboard, IOptions<LocalHostOptions> options, ILogger<LocalServiceHost> logger)
    : IHostedService, IDisposable
{
    private Process? _process;

    /// <summary>Where the child process is.</summary>
    public LocalHostState State { get; private set; } = LocalHostState.Disabled;

    /// <summary>One line for people about <see cref="State"/>.</summary>
    public string Message { get; private set; } = "the dashboard does not start a local service host (Dashboard:StartLocalHost=false)";

    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (!dashboard.Value.StartLocalHost)
        {
            return Task.CompletedTask;
        }

        var path = options.Value.ExecutableFullPath;
        if (!File.Exists(path))
        {
            State = LocalHostState.NotBuilt;
            Message = $"the service host is not built: {path} does not exist. Build it (dotnet build src/Service/Host), "
                + "set Dashboard:LocalHost:ExecutablePath, or start the dashboard with --Dashboard:StartLocalHost=false and add a host on the Hosts page";
            logger.LogWarning("Local service host not started: {Message}", Message);
            return Task.CompletedTask;
        }

        try
        {
            var start = new ProcessStartInfo(path) { UseShellExecute = false, WorkingDirectory = Path.GetDirectoryName(path)! };
            start.Environment["ASPNETCORE_URLS"] = options.Value.Address.GetLeftPart(UriPartial.Authority);
            if (options.Value.DataDirectory is { } data)
            {
                start.ArgumentList.Add($"--ServiceHost:DataDirectory={Path.GetFullPath(data)}");
            }

            _process = Process.Start(start);
            _process!.EnableRaisingEvents = true;
            _process.Exited += (_, _) =>
            {
                State = LocalHostState.Exited;
                Message = $"the local service host exited with code {_process.ExitCode}";
                logger.LogWarning("Local service host exited with code {ExitCode}", _process.ExitCode);
            };
            State = LocalHostState.Running;
            Message = $"started {path} (pid {_process.Id}) on {options.Value.Address}";
            logger.LogInformation("Local service host started: {Path} pid {Pid}", path, _process.Id);
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            State = LocalHostState.Exited;
            Message = $"the local service host {path} could not start: {e.Message}";
            logger.LogError(e, "Local service host could not start");
        }

        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_process is { HasExited: false } process)
        {
            logger.LogInformation("Stopping the local service host {Pid}", process.Id);
            await PosixProcess.StopAsync(process, TimeSpan.FromSeconds(10));
        }
    }

    /// <inheritdoc />
    public void Dispose() => _process?.Dispose();
}
