using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.External;

/// <summary>
/// A client technology that runs in its own process and speaks the driver protocol (docs/driver-protocol.md):
/// one process per cell, kept for all its levels; the driver takes its own timestamps, the runner only collects.
/// </summary>
/// <param name="command">How to start the driver.</param>
/// <param name="requestTimeout">Per-request timeout passed to the driver (<c>timeoutMs</c>).</param>
/// <param name="generator">Where the driver processes are registered while they run, for the generator CPU; may be null.</param>
public sealed class ExternalProcessDriver(DriverCommand command, TimeSpan requestTimeout, Load.GeneratorProcesses? generator = null) : IClientDriver
{
    /// <summary>How long a driver may take to write <c>ready</c> (a JVM reading a WSDL included).</summary>
    public static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    /// <summary>How long a cancelled level may take to write its <c>level</c> record before the driver is killed.</summary>
    public static readonly TimeSpan CancelGrace = TimeSpan.FromSeconds(10);

    internal static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { DefaultIgnoreCondition = JsonIgnoreCondition.Never };

    /// <inheritdoc />
    public string ClientId => command.ClientId;

    /// <summary>Where the drivers' <c>p</c> records (a running level's progress) go; null: they are read and dropped.</summary>
    public ILevelProgressSink? Progress { get; init; }

    /// <inheritdoc />
    public async Task<ICellSession> OpenCellAsync(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(payload);
        if (command.MissingReason is { } missing)
        {
            throw new LoadClientException(missing);
        }

        Process process;
        try
        {
            process = Process.Start(command.CreateStartInfo()) ?? throw new LoadClientException($"could not start {command.FileName}");
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new LoadClientException($"could not start the {command.ClientId} driver ({command.FileName}): {e.Message}", e);
        }

        var session = new DriverSession(command.ClientId, process, generator, Progress is null ? null : new CellProgress(Progress, endpoint.Name, command.ClientId, payload.Id));
        try
        {
            var job = new { type = "job", protocol = 1, endpoint, payload = payload.Id, timeoutMs = (int)requestTimeout.TotalMilliseconds, credentials = security?.Credentials, caCertificate = security?.CaCertificate };
            await session.SendAsync(JsonSerializer.Serialize(job, Json));
            await session.WaitReadyAsync(StartTimeout, cancellationToken);
            return session;
        }
        catch
        {
            await session.DisposeAsync();
            throw;
        }
    }

    /// <summary>One driver process and the protocol over its standard streams.</summary>
    private sealed class DriverSession : ICellSession
    {
        private readonly string _clientId;
        private readonly Process _process;
        private readonly Queue<string> _stderrTail = new();
        private readonly Task _stderrPump;

        private readonly Load.GeneratorProcesses? _generator;
        private readonly CellProgress? _progress;

        public DriverSession(string clientId, Process process, Load.GeneratorProcesses? generator, CellProgress? progress)
        {
            _clientId = clientId;
            _progress = progress;
            _process = process;
            _generator = generator;
            generator?.Add(process);
            _stderrPump = Task.Run(PumpStderrAsync);
        }

        public Task SendAsync(string line) => WriteLineAsync(line);

        public async Task WaitReadyAsync(TimeSpan timeout, CancellationToken cancellationToken)
        {
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            limit.CancelAfter(timeout);
            try
            {
                while (true)
                {
                    var (kind, data) = await ReadRecordAsync(limit.Token);
                    switch (kind)
                    {
                        case "ready":
                            return;
                        case "fail":
                            throw new LoadClientException($"the {_clientId} driver failed: {FailMessage(data)}");
                        default:
                            throw new LoadClientException($"the {_clientId} driver broke the protocol: expected 'ready', got '{Trim(kind + " " + data)}'");
                    }
                }
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                throw new LoadClientException($"the {_clientId} driver wrote no 'ready' within {timeout.TotalSeconds:0} s{StderrSuffix()}");
            }
        }

        public async Task<LevelResult> RunLevelAsync(LevelPlan plan, CancellationToken cancellationToken)
        {
            ArgumentNullException.ThrowIfNull(plan);
            plan.Validate();
            var level = new
            {
                type = "level",
                index = 0,
                clients = plan.Clients,
                warmup = plan.WarmupPerClient,
                requests = plan.RequestsPerClient,
                durationMs = plan.Duration is { } d ? (long?)d.TotalMilliseconds : null,
            };
            var cpuBefore = CpuSeconds();
            var watch = Stopwatch.StartNew();
            var samples = new List<Sample>(plan.Clients * (plan.WarmupPerClient + (plan.RequestsPerClient ?? 1000)));
            await WriteLineAsync(JsonSerializer.Serialize(level, Json));

            // Cancelling asks the driver to stop the level; if it does not answer within the grace time it is killed.
            using var cancelRegistration = cancellationToken.Register(() => _ = WriteLineAsync("{\"type\":\"cancel\"}").ContinueWith(_ => { }, TaskScheduler.Default));
            using var grace = new CancellationTokenSource();
            using var graceRegistration = cancellationToken.Register(() => grace.CancelAfter(CancelGrace));
            var previous = (Requests: 0L, ElapsedUs: 0L);
            try
            {
                while (true)
                {
                    var (kind, data) = await ReadRecordAsync(grace.Token);
                    switch (kind)
                    {
                        case "s":
                            samples.Add(ParseSample(data));
                            break;
                        case "p":
                            // A running level's progress (protocol 1, optional): requests so far and the rate since the last one.
                            var p = JsonSerializer.Deserialize<ProgressRecord>(data, Json) ?? throw new JsonException("null p record");
                            var seconds = (p.ElapsedUs - previous.ElapsedUs) / 1e6;
                            _progress?.Report(plan.Clients, p.Requests, p.Errors, seconds > 0 ? Math.Max(0, p.Requests - previous.Requests) / seconds : 0);
                            previous = (p.Requests, p.ElapsedUs);
                            break;
                        case "level":
                            var end = JsonSerializer.Deserialize<LevelRecord>(data, Json) ?? throw new JsonException("null level record");
                            var cpu = CpuSeconds() - cpuBefore;
                            var cpuPercent = 100.0 * cpu / (watch.Elapsed.TotalSeconds * CpuAffinity.CoreCount());
                            var started = DateTimeOffset.FromUnixTimeMilliseconds(end.StartedUnixMs).UtcDateTime;
                            return new LevelResult(plan, started, started.AddTicks(end.ElapsedUs * 10), samples.ToArray(),
                                end.Cancelled || cancellationToken.IsCancellationRequested, Math.Clamp(double.IsFinite(cpuPercent) ? cpuPercent : 0, 0, 100));
                        case "fail":
                            throw new LoadClientException($"the {_clientId} driver failed: {FailMessage(data)}");
                        default:
                            throw new LoadClientException($"the {_clientId} driver broke the protocol: unexpected record '{Trim(kind + " " + data)}'");
                    }
                }
            }
            catch (OperationCanceledException) when (grace.IsCancellationRequested)
            {
                Kill();
                var started = DateTime.UtcNow - watch.Elapsed;
                return new LevelResult(plan, started, DateTime.UtcNow, samples.ToArray(), Cancelled: true, 0);
            }
            catch (LoadClientException e) when (e.PartialLevel is null)
            {
                // The driver died (end of output) or gave up (fail) mid-level: what it streamed before is handed on (partial).
                throw new LoadClientException(e.Message, e) { PartialLevel = Partial(plan, watch.Elapsed, samples) };
            }
            catch (Exception e) when (e is FormatException or JsonException or OverflowException or IndexOutOfRangeException)
            {
                // A record cut short because the driver was killed while writing it is the driver's death, not a protocol break.
                if (await ExitedWithinAsync(TimeSpan.FromSeconds(2)))
                {
                    throw new LoadClientException($"the {_clientId} driver ended its output in the middle of a record{ExitSuffix()}{StderrSuffix()}", e)
                    {
                        PartialLevel = Partial(plan, watch.Elapsed, samples),
                    };
                }

                throw new LoadClientException($"the {_clientId} driver broke the protocol: {e.Message}", e);
            }
        }

        private static LevelResult Partial(LevelPlan plan, TimeSpan elapsed, List<Sample> samples)
        {
            var now = DateTime.UtcNow;
            return new LevelResult(plan, now - elapsed, now, samples.ToArray(), Cancelled: false, 0);
        }

        private async Task<bool> ExitedWithinAsync(TimeSpan wait)
        {
            try
            {
                using var limit = new CancellationTokenSource(wait);
                await _process.WaitForExitAsync(limit.Token);
                return true;
            }
            catch (OperationCanceledException)
            {
                return false;
            }
        }

        public async ValueTask DisposeAsync()
        {
            try
            {
                // End of input: the driver stops and exits (docs/driver-protocol.md).
                _process.StandardInput.Close();
                using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(5));
                await _process.WaitForExitAsync(wait.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or IOException or InvalidOperationException)
            {
                Kill();
            }

            await _stderrPump.ConfigureAwait(false);
            _generator?.Remove(_process);
            _process.Dispose();
        }

        private async Task WriteLineAsync(string line)
        {
            try
            {
                await _process.StandardInput.WriteLineAsync(line);
                await _process.StandardInput.FlushAsync();
            }
            catch (IOException e)
            {
                throw new LoadClientException($"the {_clientId} driver is gone{ExitSuffix()}{StderrSuffix()}", e);
            }
        }

        private async Task<(string Kind, string Data)> ReadRecordAsync(CancellationToken cancellationToken)
        {
            var line = await _process.StandardOutput.ReadLineAsync(cancellationToken);
            if (line is null)
            {
                await _process.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(5), CancellationToken.None).ContinueWith(_ => { }, TaskScheduler.Default);
                throw new LoadClientException($"the {_clientId} driver ended its output{ExitSuffix()}{StderrSuffix()}");
            }

            var space = line.IndexOf(' ', StringComparison.Ordinal);
            return space < 0 ? (line, "") : (line[..space], line[(space + 1)..]);
        }

        private static Sample ParseSample(string data)
        {
            // client startUs latencyUs outcome warmup requestBytes responseBytes
            Span<Range> parts = stackalloc Range[8];
            var span = data.AsSpan();
            if (span.Split(parts, ' ') != 7)
            {
                throw new FormatException($"a sample has 7 fields: '{data}'");
            }

            var outcome = int.Parse(span[parts[3]], CultureInfo.InvariantCulture);
            if (outcome is < 0 or > (int)SampleOutcome.WrongReply)
            {
                throw new FormatException($"unknown outcome {outcome} in '{data}'");
            }

            return new Sample(
                int.Parse(span[parts[0]], CultureInfo.InvariantCulture),
                long.Parse(span[parts[1]], CultureInfo.InvariantCulture),
                long.Parse(span[parts[2]], CultureInfo.InvariantCulture),
                (SampleOutcome)outcome,
                span[parts[4]] is "1",
                Math.Max(-1, int.Parse(span[parts[5]], CultureInfo.InvariantCulture)),
                Math.Max(-1, int.Parse(span[parts[6]], CultureInfo.InvariantCulture)));
        }

        private async Task PumpStderrAsync()
        {
            while (await _process.StandardError.ReadLineAsync() is { } line)
            {
                lock (_stderrTail)
                {
                    _stderrTail.Enqueue(line);
                    if (_stderrTail.Count > 5)
                    {
                        _stderrTail.Dequeue();
                    }
                }
            }
        }

        private double CpuSeconds()
        {
            try
            {
                _process.Refresh();
                return _process.TotalProcessorTime.TotalSeconds;
            }
            catch (InvalidOperationException)
            {
                return 0;
            }
        }

        private void Kill()
        {
            try
            {
                _process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // Already gone.
            }
        }

        // .NET reports a process ended by signal N as exit code 128 + N; 130 is a driver's own exit after SIGINT.
        private string ExitSuffix() => !_process.HasExited ? ""
            : _process.ExitCode is > 128 and < 160 and not 130 ? $" (exit code {_process.ExitCode}: killed by signal {_process.ExitCode - 128}{SignalName(_process.ExitCode - 128)})"
            : $" (exit code {_process.ExitCode})";

        private static string SignalName(int signal) => signal switch
        {
            9 => ", SIGKILL",
            15 => ", SIGTERM",
            6 => ", SIGABRT",
            11 => ", SIGSEGV",
            _ => "",
        };

        private string StderrSuffix()
        {
            lock (_stderrTail)
            {
                return _stderrTail.Count == 0 ? "" : ": " + string.Join(" | ", _stderrTail);
            }
        }

        private static string FailMessage(string data)
        {
            try
            {
                return JsonSerializer.Deserialize<FailRecord>(data, Json)?.Message ?? data;
            }
            catch (JsonException)
            {
                return data;
            }
        }

        private static string Trim(string text) => text.Length <= 120 ? text : text[..120] + "…";

        private sealed record LevelRecord(int Index, int Clients, long StartedUnixMs, long ElapsedUs, bool Cancelled);

        private sealed record FailRecord(string Message);

        private sealed record ProgressRecord(long Requests, long? Errors, long ElapsedUs);
    }

    /// <summary>A sink with the cell a driver process runs.</summary>
    private sealed record CellProgress(ILevelProgressSink Sink, string Variant, string Client, string Payload)
    {
        public void Report(int clients, long requests, long? errors, double rateRps) => Sink.Report(Variant, Client, Payload, clients, requests, errors, rateRps);
    }
}
