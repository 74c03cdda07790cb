using System.Diagnostics;
using System.Text.Json;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Service.Host.Control;
using Dashboard.Service.Host.Resources;
using Dashboard.Service.Host.Security;
using Dashboard.Service.Host.Settings;
using Microsoft.Extensions.Options;
using Polly;
using Polly.Retry;

namespace Dashboard.Service.Host.Jvm;

/// <summary>
/// Starts and watches the JVM service process that serves the metro and ice variants (docs/jvm-service.md), handing it
/// the security material's folder (<c>--security-dir</c>, docs/security.md): waits for its <c>ready</c> line, lists its endpoints, restarts it when it dies (logging the exit code), and stops
/// it with the host. Restarts back off exponentially (Polly) and stop after <see cref="JvmOptions.MaxRestarts"/>
/// within <see cref="JvmOptions.RestartWindowMinutes"/>. The JVM's standard input stays open while the host lives; the JVM exits at end of input, so it
/// never outlives the host, even when the host is killed.
/// </summary>
public sealed class JvmSupervisor(
    IOptions<JvmOptions> jvmOptions,
    IOptions<ServiceHostOptions> hostOptions,
    EndpointRegistry registry,
    JvmProcessInfo processInfo,
    SecurityMaterial security,
    TimeProvider timeProvider,
    ILogger<JvmSupervisor> logger) : BackgroundService
{
    /// <summary>The group name of the JVM stacks in the registry and <c>/healthz</c>.</summary>
    public const string Group = "jvm";

    /// <summary>The main class of the JVM service.</summary>
    public const string MainClass = "dashboard.service.ServiceMain";

    private Process? _process;

    /// <inheritdoc />
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var options = jvmOptions.Value;
        if (!options.Enabled)
        {
            registry.Set(Group, [], "disabled");
            return;
        }

        var variants = hostOptions.Value.Ports.Keys
            .Where(name => VariantCatalogue.TryGet(name, out var v) && v.Stack is VariantCatalogue.Metro or VariantCatalogue.Ice && v.IsAvailable)
            .ToArray();
        var classPathFile = Path.Combine(options.EffectiveServiceDirectory, "classpath");
        if (variants.Length == 0 || !File.Exists(classPathFile))
        {
            var reason = variants.Length == 0 ? "no metro or ice variant has a port" : $"the JVM service is not built ({classPathFile} is missing; run src/Service/Jvm/build.sh)";
            logger.LogWarning("JVM stacks not started: {Reason}", reason);
            registry.Set(Group, [], "down: " + reason);
            return;
        }

        var classPath = (await File.ReadAllTextAsync(classPathFile, stoppingToken)).Trim();
        var restarts = new RestartWindow(TimeSpan.FromMinutes(options.RestartWindowMinutes), options.MaxRestarts, timeProvider);
        var pipeline = RestartPipeline(options, restarts, stoppingToken);
        while (!stoppingToken.IsCancellationRequested)
        {
            JvmRun last;
            try
            {
                last = await pipeline.ExecuteAsync(async token => await RunTimedAsync(options, classPath, variants, token), stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }

            if (stoppingToken.IsCancellationRequested)
            {
                break;
            }

            if (last.Lasted >= restarts.Window)
            {
                // It had recovered: a new episode, whose backoff starts again from the first delay.
                var delay = TimeSpan.FromSeconds(options.RestartFirstDelaySeconds);
                restarts.Add();
                logger.LogError("JVM service exited with code {ExitCode} after {Minutes:0.#} min; restarting in {Delay} s", last.ExitCode, last.Lasted.TotalMinutes, delay.TotalSeconds);
                registry.Set(Group, [], $"down: exited with code {last.ExitCode}, restarting");
                await Task.Delay(delay, timeProvider, stoppingToken).ContinueWith(_ => { }, TaskScheduler.Default);
                continue;
            }

            var reason = $"restarted {restarts.Count} times in {options.RestartWindowMinutes:0.##} min, giving up (last exit code {last.ExitCode})";
            logger.LogError("JVM service exited with code {ExitCode}; {Reason}", last.ExitCode, reason);
            registry.Set(Group, [], "down: " + reason);
            return;
        }
    }

    /// <summary>
    /// Polly's retry for the JVM's runs: a run that ends while the host is not stopping is retried after an
    /// exponential backoff (<see cref="JvmOptions.RestartFirstDelaySeconds"/> doubling up to
    /// <see cref="JvmOptions.RestartMaxDelaySeconds"/>) while <paramref name="restarts"/> has room; a run that lasted
    /// the whole window is handed back (it had recovered), as is the last run once the window is full.
    /// </summary>
    private ResiliencePipeline<JvmRun> RestartPipeline(JvmOptions options, RestartWindow restarts, CancellationToken stoppingToken) =>
        new ResiliencePipelineBuilder<JvmRun> { TimeProvider = timeProvider }
            .AddRetry(new RetryStrategyOptions<JvmRun>
            {
                ShouldHandle = args => ValueTask.FromResult(
                    !stoppingToken.IsCancellationRequested
                    && args.Outcome.Result is { } run && run.Lasted < restarts.Window && restarts.HasRoom()),
                BackoffType = DelayBackoffType.Exponential,
                Delay = TimeSpan.FromSeconds(options.RestartFirstDelaySeconds),
                MaxDelay = TimeSpan.FromSeconds(options.RestartMaxDelaySeconds),
                UseJitter = false,
                MaxRetryAttempts = int.MaxValue,
                OnRetry = args =>
                {
                    restarts.Add();
                    var exitCode = args.Outcome.Result?.ExitCode;
                    logger.LogError("JVM service exited with code {ExitCode}; restart {Restart} of at most {MaxRestarts} in {Window} min, in {Delay} s",
                        exitCode, restarts.Count, options.MaxRestarts, options.RestartWindowMinutes, args.RetryDelay.TotalSeconds);
                    registry.Set(Group, [], $"down: exited with code {exitCode}, restarting");
                    return ValueTask.CompletedTask;
                },
            })
            .Build();

    private async Task<JvmRun> RunTimedAsync(JvmOptions options, string classPath, string[] variants, CancellationToken stoppingToken)
    {
        registry.Set(Group, [], "starting");
        var started = timeProvider.GetTimestamp();
        var exitCode = await RunOnceAsync(options, classPath, variants, stoppingToken);
        return new JvmRun(exitCode, timeProvider.GetElapsedTime(started));
    }

    /// <inheritdoc />
    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        registry.Set(Group, [], "stopped");
    }

    private async Task<int> RunOnceAsync(JvmOptions options, string classPath, string[] variants, CancellationToken stoppingToken)
    {
        var host = hostOptions.Value;
        var start = new ProcessStartInfo(options.JavaPath)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in options.JvmArguments.Concat(host.JvmLimitArguments()).Concat(["-Dsun.net.httpserver.nodelay=true", "-Dcom.sun.xml.ws.monitoring.endpoint=false", "-cp", classPath, MainClass, "--bind", host.BindAddress, "--advertise", host.AdvertisedHost, "--security-dir", security.SecurityDirectory]))
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var variant in variants)
        {
            start.ArgumentList.Add("--port");
            start.ArgumentList.Add($"{variant}={host.Ports[variant]}");
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {options.JavaPath}");
        _process = process;
        processInfo.ProcessId = process.Id;
        logger.LogInformation("JVM service started (pid {Pid}) for {Variants}", process.Id, string.Join(", ", variants));
        var ready = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var stderr = PumpStderrAsync(process);
        var stdout = PumpStdoutAsync(process, ready);
        try
        {
            var timeout = Task.Delay(TimeSpan.FromSeconds(options.StartTimeoutSeconds), stoppingToken);
            var exited = process.WaitForExitAsync(CancellationToken.None);
            var first = await Task.WhenAny(ready.Task, timeout, exited);
            if (first == timeout && !stoppingToken.IsCancellationRequested)
            {
                logger.LogError("JVM service wrote no ready line within {Timeout} s; stopping it", options.StartTimeoutSeconds);
                Kill(process);
            }

            await process.WaitForExitAsync(stoppingToken);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            await StopProcessAsync(process);
        }
        finally
        {
            processInfo.ProcessId = null;
            _process = null;
            await Task.WhenAll(stdout, stderr);
        }

        return process.HasExited ? process.ExitCode : -1;
    }

    private async Task PumpStdoutAsync(Process process, TaskCompletionSource ready)
    {
        while (await process.StandardOutput.ReadLineAsync() is { } line)
        {
            var space = line.IndexOf(' ', StringComparison.Ordinal);
            var kind = space < 0 ? line : line[..space];
            var data = space < 0 ? "" : line[(space + 1)..];
            switch (kind)
            {
                case "ready":
                    try
                    {
                        var message = JsonSerializer.Deserialize<ReadyMessage>(data, JsonSerializerOptions.Web);
                        var endpoints = message?.Endpoints ?? [];
                        if (message?.Versions is { } versions)
                        {
                            registry.SetVersions(Group, versions);
                        }

                        registry.Set(Group, endpoints, "up");
                        logger.LogInformation("JVM service ready: {Endpoints}", string.Join(", ", endpoints.Select(e => $"{e.Name} at {e.Address}")));
                        ready.TrySetResult();
                    }
                    catch (JsonException e)
                    {
                        logger.LogError("JVM service wrote a ready line that does not parse: {Error}", e.Message);
                    }

                    break;
                case "fail":
                    logger.LogError("JVM service failed: {Message}", data);
                    registry.Set(Group, [], "down: " + data);
                    break;
                default:
                    logger.LogInformation("JVM: {Line}", line);
                    break;
            }
        }
    }

    private async Task PumpStderrAsync(Process process)
    {
        while (await process.StandardError.ReadLineAsync() is { } line)
        {
            logger.LogInformation("JVM: {Line}", line);
        }
    }

    private async Task StopProcessAsync(Process process)
    {
        try
        {
            // End of input asks the JVM to stop (docs/jvm-service.md); kill it if it does not within 5 s.
            process.StandardInput.Close();
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await process.WaitForExitAsync(grace.Token);
            logger.LogInformation("JVM service stopped (exit code {ExitCode})", process.ExitCode);
        }
        catch (OperationCanceledException)
        {
            logger.LogWarning("JVM service did not stop within 5 s of end of input; killing it");
            Kill(process);
        }
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
    }

    private sealed record ReadyMessage(HostEndpoint[] Endpoints, Dictionary<string, string>? Versions);

    /// <summary>One run of the JVM: its exit code (-1 when it did not exit) and how long it ran.</summary>
    private sealed record JvmRun(int ExitCode, TimeSpan Lasted);

    /// <summary>The restarts within the last <see cref="Window"/>, at most <c>max</c> of them.</summary>
    private sealed class RestartWindow(TimeSpan window, int max, TimeProvider clock)
    {
        private readonly Queue<DateTimeOffset> _restarts = new();

        public TimeSpan Window => window;

        /// <summary>Restarts within the window now.</summary>
        public int Count
        {
            get
            {
                Prune();
                return _restarts.Count;
            }
        }

        /// <summary>True while one more restart stays within the limit.</summary>
        public bool HasRoom() => Count < max;

        public void Add() => _restarts.Enqueue(clock.GetUtcNow());

        private void Prune()
        {
            var oldest = clock.GetUtcNow() - window;
            while (_restarts.Count > 0 && _restarts.Peek() < oldest)
            {
                _restarts.Dequeue();
            }
        }
    }
}
