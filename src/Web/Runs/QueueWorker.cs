using System.Diagnostics;
using System.Globalization;
using System.Text;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Processes;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Web.Options;
using Dashboard.Web.Processes;
using Dashboard.Web.Storage;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Runs;

/// <summary>
/// Runs one queued benchmark (called by <see cref="BenchmarkJob"/> on the <c>benchmarks</c> queue, whose single worker
/// makes it one at a time): marks the run Running, starts the built runner executable with <c>run --scenario FILE --db
/// FILE --progress json --run-id N --stop-at-stdin-eof</c>, so the runner adds the run's levels and samples to its row and
/// ends when the dashboard ends, reads one JSON event per stdout line, records what they say on the row (the runner
/// writes nothing to it), publishes them to the live pages and ends the run with the runner's outcome
/// (<see cref="RunOutcome"/>). Cancel sends SIGTERM; the runner keeps its samples.
/// </summary>
public sealed class QueueWorker(
    RunStore store,
    RunEvents events,
    IOptions<RunnerOptions> runnerOptions,
    IOptions<LocalHostOptions> localHostOptions,
    IOptions<DashboardOptions> dashboardOptions,
    Hosts.HostRegistry hosts,
    Hosts.HostMonitor hostMonitor,
    Hosts.LocalServiceHost localHost,
    Hosts.HostClient hostClient,
    TimeProvider time,
    ILogger<QueueWorker> logger) : IDisposable
{
    private readonly SemaphoreSlim _single = new(1, 1);
    private CurrentRun? _current;

    /// <summary>Raised with the run id and the due time when a run must be tried again later (machine busy).</summary>
    public event Func<int, DateTime, Task>? RetryScheduled;

    /// <summary>The id of the run in progress, or null.</summary>
    public int? CurrentRunId => _current?.RunId;

    /// <summary>
    /// Runs run <paramref name="runId"/> if it is still waiting (Queued or Scheduled); a run cancelled meanwhile, or marked
    /// Interrupted because the process that ran it died, is left as it is (only a user re-queues it).
    /// </summary>
    /// <param name="runId">The run.</param>
    /// <param name="stopping">Fires when the dashboard stops: the run is interrupted, its samples kept.</param>
    public async Task RunAsync(int runId, CancellationToken stopping)
    {
        await _single.WaitAsync(stopping);
        try
        {
            var run = await store.FindAsync(runId, stopping);
            if (run is null || !RunStore.Waiting.Contains(run.Status))
            {
                logger.LogInformation("Run {RunId}: not started, it is {Status}", runId, run?.Status.ToString() ?? "deleted");
                return;
            }

            if (await store.TryStartAsync(run.Id, stopping))
            {
                await ExecuteAsync(run, stopping);
            }
        }
        finally
        {
            _single.Release();
        }
    }

    /// <summary>Asks the run in progress to stop (SIGTERM to its runner); false when <paramref name="runId"/> is not running here.</summary>
    public bool CancelRunning(int runId)
    {
        var current = _current;
        if (current is null || current.RunId != runId)
        {
            return false;
        }

        current.UserCancelled = true;
        current.Cancel.Cancel();
        return true;
    }

    private async Task ExecuteAsync(RunEntity run, CancellationToken stopping)
    {
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        var current = new CurrentRun(run.Id, cancel);
        _current = current;
        events.Publish(new RunUpdate(run.Id, RunStatus.Running));
        var scenarioFile = Path.Combine(Path.GetTempPath(), $"dashboard-run-{run.Id}-{Guid.NewGuid():N}.json");
        try
        {
            var executable = runnerOptions.Value.ExecutableFullPath;
            if (!File.Exists(executable))
            {
                await FinishAsync(run.Id, RunStatus.Failed,
                    $"the runner is not built: {executable} does not exist; build it (dotnet build src/Runner) or set Dashboard:Runner:ExecutablePath");
                return;
            }

            await WaitForLocalHostAsync(run.Id, run.ScenarioJson, cancel.Token);
            await File.WriteAllTextAsync(scenarioFile, run.ScenarioJson, CancellationToken.None);
            // While the runner runs, the hosts' health is polled less often (the runner watches the host it loads).
            RunnerOutcome outcome;
            using (hostMonitor.WhileRunning())
            {
                outcome = await RunRunnerAsync(run.Id, executable, scenarioFile, HostTokenOf(run.ScenarioJson), Dashboard.Data.Results.OpenSweep.IsOpenWorkload(run.ScenarioJson), current);
            }

            await EndAsync(run.Id, outcome, current, stopping.IsCancellationRequested);
        }
#pragma warning disable CA1031 // Whatever went wrong, the run must not stay Running.
        catch (Exception e) when (e is not OperationCanceledException || !stopping.IsCancellationRequested)
#pragma warning restore CA1031
        {
            logger.LogError(e, "Run {RunId} failed in the dashboard", run.Id);
            await FinishAsync(run.Id, RunStatus.Failed, $"the dashboard could not run it: {e.Message}");
        }
        finally
        {
            _current = null;
            File.Delete(scenarioFile);
        }
    }

    // A run for the local host that this dashboard started waits (LocalHostOptions.StartWait at most) until the host answers
    // /healthz at all (up, or "starting" while its JVM starts, which the runner handles): after a restart of the dashboard the queue's first run starts at once, while the new host is still
    // starting (it failed "the service host is unreachable: Connection refused" in the CI of 2026-11-28). Any other host,
    // or a local host that is not running (not built, exited), is the runner's to report.
    private async Task WaitForLocalHostAsync(int runId, string scenarioJson, CancellationToken cancellationToken)
    {
        var wait = localHostOptions.Value.StartWait;
        if (wait <= TimeSpan.Zero || localHost.State != Hosts.LocalHostState.Running || HostOf(scenarioJson) is not { } address
            || Uri.Compare(address, hosts.LocalAddress, UriComponents.SchemeAndServer, UriFormat.Unescaped, StringComparison.OrdinalIgnoreCase) != 0)
        {
            return;
        }

        var started = time.GetTimestamp();
        var (health, detail) = await hostClient.CheckAsync(address, cancellationToken);
        if (health != Hosts.HostHealth.Down)
        {
            return;
        }

        logger.LogInformation("Run {RunId}: waiting up to {Wait} for the local service host to answer ({Detail})", runId, wait, detail);
        try
        {
            while (health == Hosts.HostHealth.Down && time.GetElapsedTime(started) < wait)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(250), time, cancellationToken);
                (health, detail) = await hostClient.CheckAsync(address, cancellationToken);
            }
        }
        catch (OperationCanceledException)
        {
            // Cancelled by a user, or the dashboard stops: the runner path below ends the run as either does.
            return;
        }

        logger.LogInformation("Run {RunId}: the local service host is {Health} after {Seconds:0.0} s{Then}", runId, health,
            time.GetElapsedTime(started).TotalSeconds, health != Hosts.HostHealth.Down ? "" : $" ({detail}); the runner starts and reports what it finds");
    }

    // The host address the scenario names, or null.
    private static Uri? HostOf(string scenarioJson)
    {
        using var document = System.Text.Json.JsonDocument.Parse(scenarioJson);
        return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object && document.RootElement.TryGetProperty("host", out var host)
            && host.ValueKind == System.Text.Json.JsonValueKind.String && Uri.TryCreate(host.GetString(), UriKind.Absolute, out var address)
            ? address
            : null;
    }

    // The control token of the host the scenario names (docs/security.md): the local one's or a registered one's; null for another.
    private string? HostTokenOf(string scenarioJson) => HostOf(scenarioJson) is { } address ? hosts.ControlTokenFor(address) : null;

    private async Task<RunnerOutcome> RunRunnerAsync(int runId, string executable, string scenarioFile, string? hostToken, bool open, CurrentRun current)
    {
        var start = new ProcessStartInfo(executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.UTF8,
            WorkingDirectory = Path.GetDirectoryName(executable)!,
        };
        start.RedirectStandardInput = true;
        foreach (var (name, value) in RunnerRuntime.Variables)
        {
            start.Environment[name] = value;
        }

        // The runner writes where the dashboard reads (docs/architecture.md, "Storage"): the same SQLite file, or the same
        // PostgreSQL database, whose connection string goes through the environment (never the command line, which every
        // user of the machine can read).
        var dashboard = dashboardOptions.Value;
        string[] storage = dashboard.Storage == StorageProvider.PostgreSql ? ["--storage", "postgresql"] : ["--db", dashboard.DatabasePath];
        if (dashboard.Storage == StorageProvider.PostgreSql)
        {
            start.Environment[ResultsStore.ConnectionVariable] = dashboard.ResultsConnectionString;
        }

        // The host's control token, also through the environment only (docs/security.md).
        if (hostToken is not null)
        {
            start.Environment[Service.Contracts.Security.HostControlToken.EnvironmentVariable] = hostToken;
        }

        foreach (var argument in new[] { "run", "--scenario", scenarioFile }.Concat(storage).Concat(["--progress", "json",
            "--run-id", runId.ToString(CultureInfo.InvariantCulture), "--stop-at-stdin-eof"]))
        {
            start.ArgumentList.Add(argument);
        }

        // The security folder of the hosts the run calls (docs/security.md); without one the runner uses the default
        // folder, which is the local host's unless it was given another data folder.
        var securityDirectory = runnerOptions.Value.SecurityDirectory
            ?? (localHostOptions.Value.DataDirectory is { } data ? Service.Contracts.Security.HostDataDirectory.SecurityDirectoryOf(Path.GetFullPath(data)) : null);
        if (securityDirectory is not null)
        {
            start.ArgumentList.Add("--security-dir");
            start.ArgumentList.Add(securityDirectory);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{executable} did not start");
        // The runner's standard input stays open, unwritten, while this process lives: when it ends, however it ends, the
        // runner reads end of input and stops (--stop-at-stdin-eof; docs/architecture.md, "A process tree that dies together").
        logger.LogInformation("Run {RunId}: runner {Pid} started: {Executable}", runId, process.Id, executable);

        var stderr = new StringBuilder();
        var stderrTask = Task.Run(async () =>
        {
            while (await process.StandardError.ReadLineAsync() is { } line)
            {
                lock (stderr)
                {
                    if (stderr.Length < 8_000)
                    {
                        stderr.AppendLine(line);
                    }
                }
            }
        });

        var stopTimeout = runnerOptions.Value.StopTimeout;
        Task? stopping = null;
        await using var registration = current.Cancel.Token.Register(() => stopping = PosixProcess.StopAsync(process, stopTimeout));

        ProgressEvent? ended = null;
        while (await process.StandardOutput.ReadLineAsync() is { } line)
        {
            var progress = ProgressEvent.TryParse(line);
            if (progress is null)
            {
                continue;
            }

            // The dashboard writes the run's row; the runner reports (docs/architecture.md, "One owner per run").
            switch (progress.Event)
            {
                case ProgressEvents.RunStarted:
                    await store.RecordStartAsync(runId, new RunStart(progress.TotalLevels, progress.Environment?.GetRawText(), progress.Topology, progress.LinkRateMbps, progress.OrderSeed), CancellationToken.None);
                    break;
                case ProgressEvents.LevelCompleted:
                    await store.UpdateProgressAsync(runId, progress.CompletedLevels, progress.TotalLevels,
                        $"{progress.CompletedLevels} of {progress.TotalLevels} levels; last: {progress.Variant} × {progress.Client} × {progress.Payload}, {(progress.Clients is { } level ? Charts.Format.Level(level, open) : "level")}",
                        CancellationToken.None);
                    break;
                case ProgressEvents.RunEnded:
                    ended = progress;
                    break;
            }

            events.Publish(new RunUpdate(runId, RunStatus.Running, progress));
        }

        await process.WaitForExitAsync(CancellationToken.None);
        await stderrTask;
        if (stopping is not null)
        {
            await stopping;
        }

        string errorText;
        lock (stderr)
        {
            errorText = stderr.ToString().Trim();
        }

        logger.LogInformation("Run {RunId}: runner exited with code {ExitCode}", runId, process.ExitCode);
        return new RunnerOutcome(process.ExitCode, ended, errorText);
    }

    private async Task EndAsync(int runId, RunnerOutcome outcome, CurrentRun current, bool dashboardStopping)
    {
        var run = await store.FindAsync(runId, CancellationToken.None);
        switch (RunOutcome.Of(outcome.ExitCode, outcome.Ended, LastLine(outcome.Stderr), current.UserCancelled, dashboardStopping, run?.CompletedLevels ?? 0, run?.TotalLevels ?? 0))
        {
            case RunOutcome.RetryLater:
                var due = time.GetUtcNow().UtcDateTime + runnerOptions.Value.BusyRetryDelay;
                await store.RescheduleAsync(runId, due, $"machine busy (another benchmark holds it); trying again at {due:HH:mm:ss} UTC", CancellationToken.None);
                events.Publish(new RunUpdate(runId, RunStatus.Scheduled));
                if (RetryScheduled is { } retry)
                {
                    await retry(runId, due);
                }

                return;
            case RunOutcome.Finish finish:
                await FinishAsync(runId, finish);
                return;
        }
    }

    private Task FinishAsync(int runId, RunStatus status, string error) => FinishAsync(runId, new RunOutcome.Finish(status, error, null, EndedByRunner: false));

    private async Task FinishAsync(int runId, RunOutcome.Finish finish)
    {
        var run = await store.FinishAsync(runId, finish.Status, finish.Error, CancellationToken.None, finish.CompletedLevels, finish.EndedByRunner);
        logger.LogInformation("Run {RunId} ended {Status}: {Error}", runId, run?.Status ?? finish.Status, run?.Error ?? finish.Error);
        events.Publish(new RunUpdate(runId, run?.Status ?? finish.Status));
    }

    /// <summary>
    /// The runner's last words on stderr (up to three lines, without <c>error: </c>), leaving out its notices
    /// (<c>note: </c> lines: a busy machine, a shared host): they say how a run went, not why it ended.
    /// </summary>
    private static string? LastLine(string text)
    {
        var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(l => !l.StartsWith("note: ", StringComparison.Ordinal)).ToArray();
        return lines.Length == 0 ? null : string.Join(" ", lines.TakeLast(3)).Replace("error: ", "", StringComparison.Ordinal);
    }

    /// <inheritdoc />
    public void Dispose() => _single.Dispose();

    private sealed record RunnerOutcome(int ExitCode, ProgressEvent? Ended, string Stderr);

    private sealed class CurrentRun(int runId, CancellationTokenSource cancel)
    {
        public int RunId { get; } = runId;

        public CancellationTokenSource Cancel { get; } = cancel;

        public bool UserCancelled { get; set; }
    }
}
