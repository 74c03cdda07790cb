using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Hosts;

/// <summary>
/// Polls a service host's <c>GET /resources</c> during a run (default every 250 ms, docs/architecture.md) and records
/// each snapshot with the load generator's own CPU use, so server CPU and memory are those of the server
/// machine, wherever it runs. Polling failures are counted, never thrown: they must not stop a measurement.
/// </summary>
public sealed class ResourcePoller : IAsyncDisposable
{
    /// <summary>The default polling interval.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromMilliseconds(250);

    private readonly List<ResourceSampleEntity> _samples = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _loop;
    private int _failures;

    /// <summary>Starts polling <paramref name="host"/> at once.</summary>
    /// <param name="http">Client used for the requests; not disposed here.</param>
    /// <param name="host">Base address of the service host.</param>
    /// <param name="runId">Run the samples belong to.</param>
    /// <param name="runStartTimestamp">A <see cref="Stopwatch"/> timestamp: sample offsets (ms) count from here.</param>
    /// <param name="interval">Time between polls; default <see cref="DefaultInterval"/>.</param>
    /// <param name="generator">The runner and its driver processes, whose CPU is the generator CPU; default the runner alone.</param>
    /// <param name="generatorCores">The cores the generator may use (generator CPU % is of these; an emulated-lan run pins it to some, docs/topologies.md); default every core.</param>
    public ResourcePoller(HttpClient http, Uri host, int runId, long runStartTimestamp, TimeSpan? interval = null, Load.GeneratorProcesses? generator = null, int? generatorCores = null)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(host);
        _cores = generatorCores is > 0 ? generatorCores.Value : CpuAffinity.CoreCount();
        _loop = PollAsync(http, new Uri(host, "/resources"), runId, runStartTimestamp, interval ?? DefaultInterval, generator ?? new Load.GeneratorProcesses(), _stop.Token);
    }

    private readonly int _cores;

    /// <summary>Polls that failed (host unreachable, error status, unreadable answer).</summary>
    public int Failures => Volatile.Read(ref _failures);

    /// <summary>
    /// The cores the host said it may use in its latest reading (<see cref="ResourceSnapshot.Cores"/>): null before any
    /// reading; an empty list when the host may use every core of its machine (or did not say).
    /// </summary>
    public IReadOnlyList<int>? ServerCores => Volatile.Read(ref _serverCores);

    private IReadOnlyList<int>? _serverCores;

    /// <summary>Returns the samples taken since the previous call (or the start), oldest first, and forgets them.</summary>
    public IReadOnlyList<ResourceSampleEntity> TakeNew()
    {
        lock (_samples)
        {
            ResourceSampleEntity[] taken = [.. _samples];
            _samples.Clear();
            return taken;
        }
    }

    /// <summary>Stops polling and returns the samples not yet taken, oldest first.</summary>
    public async Task<IReadOnlyList<ResourceSampleEntity>> StopAsync()
    {
        if (!_stop.IsCancellationRequested)
        {
            await _stop.CancelAsync();
        }

        await _loop;
        return TakeNew();
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _stop.Dispose();
    }

    private async Task PollAsync(HttpClient http, Uri address, int runId, long runStart, TimeSpan interval, Load.GeneratorProcesses generator, CancellationToken stop)
    {
        using var timer = new PeriodicTimer(interval);
        var lastCpu = generator.TotalCpu();
        var lastTime = Stopwatch.GetTimestamp();
        do
        {
            try
            {
                var snapshot = await http.GetFromJsonAsync<ResourceSnapshot>(address, JsonSerializerOptions.Web, stop);
                if (snapshot is null)
                {
                    Interlocked.Increment(ref _failures);
                    continue;
                }

                Volatile.Write(ref _serverCores, snapshot.Cores ?? []);
                var now = Stopwatch.GetTimestamp();
                var cpu = generator.TotalCpu();
                var elapsed = Stopwatch.GetElapsedTime(lastTime, now);
                var generatorCpu = elapsed > TimeSpan.Zero ? 100.0 * (cpu - lastCpu) / (elapsed * _cores) : 0;
                (lastCpu, lastTime) = (cpu, now);
                lock (_samples)
                {
                    _samples.Add(new ResourceSampleEntity
                    {
                        RunId = runId,
                        OffsetMs = (long)Stopwatch.GetElapsedTime(runStart, now).TotalMilliseconds,
                        MachineCpuPercent = snapshot.MachineCpuPercent,
                        AvailableMemoryMb = snapshot.AvailableMemoryMb,
                        ProcessCpuPercent = snapshot.ProcessCpuPercent,
                        WorkingSetMb = snapshot.WorkingSetMb,
                        GcHeapMb = snapshot.GcHeapMb,
                        ThreadCount = snapshot.ThreadCount,
                        JvmCpuPercent = snapshot.JvmCpuPercent,
                        JvmResidentMb = snapshot.JvmResidentMb,
                        GeneratorCpuPercent = Math.Clamp(generatorCpu, 0, 100),
                    });
                }
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is HttpRequestException or JsonException or NotSupportedException or TaskCanceledException)
            {
                Interlocked.Increment(ref _failures);
            }
        }
        while (await WaitAsync(timer, stop));
    }

    private static async Task<bool> WaitAsync(PeriodicTimer timer, CancellationToken stop)
    {
        try
        {
            return await timer.WaitForNextTickAsync(stop);
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
