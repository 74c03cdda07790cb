using System.Diagnostics;
using System.Text.Json;
using Dashboard.Data.Runs;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Web.Options;
using Dashboard.Web.Processes;
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
/// <c>--Dashboard:StartLocalHost=false</c>, and stops it (SIGTERM, then kill) when the dashboard stops. The host's standard
/// input stays open while the dashboard lives and the host stops at its end (<c>ServiceHost:StopAtStdinEof</c>), so it
/// ends with the dashboard however the dashboard ends; its process (id and start time) is recorded in
/// <c>local-host.json</c> of the data folder, and a host a previous dashboard left running is ended at start, with a log line.
/// </summary>
public sealed class LocalServiceHost(IOptions<DashboardOptions> dashboard, IOptions<LocalHostOptions> options, ILogger<LocalServiceHost> logger)
    : IHostedService, IDisposable
{
    private const string RecordFile = "local-host.json";
    private readonly Lock _gate = new();
    private Process? _process;
    private bool _stopping;

    /// <summary>Where the child process is.</summary>
    public LocalHostState State { get; private set; } = LocalHostState.Disabled;

    /// <summary>How many times the host was started again on request (<c>POST /restart</c>: a run's next launch) since the dashboard started.</summary>
    public int Restarts { get; private set; }

    /// <summary>One line for people about <see cref="State"/>.</summary>
    public string Message { get; private set; } = "the dashboard does not start a local service host (Dashboard:StartLocalHost=false)";

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        if (!dashboard.Value.StartLocalHost)
        {
            return;
        }

        await EndLeftOverAsync(cancellationToken);
        Start(restartOf: null);
    }

    // Starts the host; restartOf is the process id of the host that just ended on request (one line says both).
    private void Start(int? restartOf)
    {
        var path = options.Value.ExecutableFullPath;
        if (!File.Exists(path))
        {
            State = LocalHostState.NotBuilt;
            Message = $"the service host is not built: {path} does not exist. Build it (dotnet build src/Service/Host), "
                + "set Dashboard:LocalHost:ExecutablePath, or start the dashboard with --Dashboard:StartLocalHost=false and add a host on the Hosts page";
            logger.LogWarning("Local service host not started: {Message}", Message);
            return;
        }

        try
        {
            var start = new ProcessStartInfo(path) { UseShellExecute = false, RedirectStandardInput = true, WorkingDirectory = Path.GetDirectoryName(path)! };
            start.ArgumentList.Add("--ServiceHost:StopAtStdinEof=true");
            // POST /restart ends it with HostRestart.ExitCode and it is started again here: a fresh host per launch.
            start.ArgumentList.Add("--ServiceHost:RestartOnRequest=true");
            // --urls, not ASPNETCORE_URLS: the host's appsettings.json "Urls" would win over the environment variable.
            start.ArgumentList.Add("--urls");
            start.ArgumentList.Add(options.Value.Address.GetLeftPart(UriPartial.Authority));
            if (options.Value.DataDirectory is { } data)
            {
                start.ArgumentList.Add($"--ServiceHost:DataDirectory={Path.GetFullPath(data)}");
            }

            // Its control token, when configured here, goes through the environment (never the command line, which every
            // user of the machine reads); else the host makes its own and the dashboard reads it (docs/security.md).
            if (!string.IsNullOrEmpty(options.Value.ControlToken))
            {
                start.Environment["ServiceHost__ControlToken"] = options.Value.ControlToken;
            }

            var process = Process.Start(start)!;
            _process = process;
            process.EnableRaisingEvents = true;
            process.Exited += (_, _) => OnExited(process);
            Record(ProcessIdentity.Of(process.Id));
            State = LocalHostState.Running;
            Message = $"started {path} (pid {process.Id}) on {options.Value.Address}";
            if (restartOf is { } previous)
            {
                Restarts++;
                logger.LogInformation("Local service host restarted for a run's next launch (a fresh host per launch, POST /restart): pid {Previous} ended, pid {Pid} started (restart {Restarts} since the dashboard started)",
                    previous, process.Id, Restarts);
            }
            else
            {
                logger.LogInformation("Local service host started: {Path} pid {Pid}", path, process.Id);
            }
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            State = LocalHostState.Exited;
            Message = $"the local service host {path} could not start: {e.Message}";
            logger.LogError(e, "Local service host could not start");
        }
    }

    // The host ended: on request (POST /restart, a runner's next launch) it is started again at once, unless the dashboard
    // is stopping; any other end is reported on the Hosts page and in the log.
    private void OnExited(Process process)
    {
        lock (_gate)
        {
            if (!ReferenceEquals(process, _process))
            {
                return;
            }

            if (process.ExitCode == HostRestart.ExitCode && !_stopping)
            {
                var previous = process.Id;
                process.Dispose();
                Start(restartOf: previous);
                return;
            }

            State = LocalHostState.Exited;
            Message = $"the local service host exited with code {process.ExitCode}";
            logger.LogWarning("Local service host exited with code {ExitCode}", process.ExitCode);
        }
    }

    private string RecordPath => Path.Combine(dashboard.Value.DataFolderPath, RecordFile);

    private void Record(ProcessIdentity? identity)
    {
        if (identity is null)
        {
            return;
        }

        Directory.CreateDirectory(dashboard.Value.DataFolderPath);
        File.WriteAllText(RecordPath, JsonSerializer.Serialize(identity, JsonSerializerOptions.Web));
    }

    /// <summary>Ends the local host a previous dashboard recorded, if that very process still runs (it held the port).</summary>
    private async Task EndLeftOverAsync(CancellationToken cancellationToken)
    {
        ProcessIdentity? previous;
        try
        {
            previous = File.Exists(RecordPath) ? JsonSerializer.Deserialize<ProcessIdentity>(await File.ReadAllTextAsync(RecordPath, cancellationToken), JsonSerializerOptions.Web) : null;
        }
        catch (JsonException)
        {
            previous = null;
        }

        if (previous is null || !previous.IsAlive())
        {
            return;
        }

        logger.LogWarning("A service host a previous dashboard started (process {Pid}) still runs and holds {Address}; ending it", previous.Pid, options.Value.Address);
        await PosixProcess.EndAsync(previous, TimeSpan.FromSeconds(10), cancellationToken);
        logger.LogWarning("Service host {Pid} left by a previous dashboard ended", previous.Pid);
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            _stopping = true;
        }

        if (_process is { HasExited: false } process)
        {
            logger.LogInformation("Stopping the local service host {Pid}", process.Id);
            await PosixProcess.StopAsync(process, TimeSpan.FromSeconds(10));
        }

        if (_process is not null)
        {
            File.Delete(RecordPath);
        }
    }

    /// <inheritdoc />
    public void Dispose() => _process?.Dispose();
}
