using System.Diagnostics;
using System.Threading.Channels;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Load;

/// <summary>
/// The open workload (docs/statistics.md, "Closed and open workloads"): a level is an arrival rate. Request i is due at
/// t0 + i / rate whatever the server does; it starts on a free connection from a pool that grows, one connection at a
/// time, up to <see cref="LevelPlan.Clients"/>; its response time is measured from its INTENDED start, so a stalled server
/// shows in the percentiles as the queue it would build in front of real users. This is the correction for coordinated
/// omission described by Gil Tene ("How NOT to Measure Latency", 2015) and implemented by wrk2 (its constant-throughput
/// mode measures from each request's scheduled time) and by HdrHistogram's <c>recordValueWithExpectedInterval</c>; here
/// every request has its own intended start, so no back-filled values are synthesised.
/// </summary>
/// <remarks>
/// A request due while every connection is busy opens a new one when the bound allows (the scheduler opens it, and the
/// client's open may probe the endpoint with a call, so during a stall the open waits too); one due while the pool is
/// at its bound waits for a free connection and starts late (counted when
/// later than <see cref="LevelPlan.LateStartThreshold"/>); one still waiting <see cref="LevelPlan.DropGrace"/> after the
/// schedule's last intended start is dropped (counted, no sample). The first <see cref="LevelPlan.WarmupPerClient"/>
/// requests of the schedule are warm-up (recorded, flagged, excluded from aggregates). Samples: start offset = intended
/// start − t0, latency = end − intended start (µs).
/// </remarks>
public static class OpenLoopEngine
{
    /// <summary>The default <see cref="LevelPlan.LateStartThreshold"/>: 10 ms.</summary>
    public static readonly TimeSpan DefaultLateStartThreshold = TimeSpan.FromMilliseconds(10);

    /// <summary>The default <see cref="LevelPlan.DropGrace"/>: 1 s.</summary>
    public static readonly TimeSpan DefaultDropGrace = TimeSpan.FromSeconds(1);

    /// <summary>Connections opened before the clock starts (fewer when the bound is lower); more are opened as the rate needs them.</summary>
    public const int InitialConnections = 2;

    private static readonly double MicrosecondsPerTick = 1_000_000.0 / Stopwatch.Frequency;

    /// <summary>Runs one open level (<paramref name="plan"/> with <see cref="LevelPlan.RateRps"/> and a duration) and returns its samples.</summary>
    /// <param name="factory">Creates the level's clients (connections); any in-process client technology's factory.</param>
    /// <param name="plan">The rate, the duration, the warm-up requests and the pool bound (<see cref="LevelPlan.Clients"/>).</param>
    /// <param name="cancellationToken">Stops the level; the samples already taken are returned with <see cref="LevelResult.Cancelled"/> set.</param>
    /// <param name="progress">Called about once a second with (measured requests so far, req/s over the last second); null: no reports.</param>
    /// <exception cref="LoadClientException">The first connections could not be opened (e.g. the host is down); nothing was measured.</exception>
    /// <exception cref="ArgumentException">The plan is invalid or not open.</exception>
    public static async Task<LevelResult> RunLevelAsync(ILoadClientFactory factory, LevelPlan plan, CancellationToken cancellationToken, Action<long, double>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(factory);
        ArgumentNullException.ThrowIfNull(plan);
        plan.Validate();
        if (plan.RateRps is null)
        {
            throw new ArgumentException("The open engine runs levels with a rate; this plan is closed.", nameof(plan));
        }

        var pool = new Pool(factory, plan.Clients);
        try
        {
            for (var i = 0; i < Math.Min(InitialConnections, plan.Clients); i++)
            {
                await pool.AddAsync(cancellationToken);
            }

            return await MeasureAsync(pool, plan, progress, cancellationToken);
        }
        finally
        {
            await pool.DisposeAsync();
        }
    }

    private static async Task<LevelResult> MeasureAsync(Pool pool, LevelPlan plan, Action<long, double>? progress, CancellationToken cancellationToken)
    {
        var rate = plan.RateRps!.Value;
        var warmup = plan.WarmupPerClient;
        var total = warmup + (long)Math.Round(rate * plan.Duration!.Value.TotalSeconds);
        var ticksPerRequest = (double)Stopwatch.Frequency / rate;
        var lateTicks = (long)(plan.LateStartThreshold.TotalSeconds * Stopwatch.Frequency);
        long measured = 0;

        using var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        var startedUtc = DateTime.UtcNow;
        var origin = Stopwatch.GetTimestamp();
        var scheduleEnd = origin + (long)((total - 1) * ticksPerRequest);
        var startDeadline = scheduleEnd + (long)(plan.DropGrace.TotalSeconds * Stopwatch.Frequency);

        using var stopTicker = new CancellationTokenSource();
        var ticker = progress is null ? Task.CompletedTask
            : LevelProgressTicker.RunAsync(() => Interlocked.Read(ref measured), progress, stopTicker.Token);
        long late = 0;
        long dropped = 0;
        var cancelled = false;
        try
        {
            for (long i = 0; i < total; i++)
            {
                var intended = origin + (long)(i * ticksPerRequest);
                var wait = intended - Stopwatch.GetTimestamp();
                if (wait > 0)
                {
                    // Timer granularity is about 1 ms: a request may start up to that late; its time still counts from `intended`.
                    await Task.Delay(TimeSpan.FromSeconds((double)wait / Stopwatch.Frequency), cancellationToken);
                }

                var client = await pool.TakeAsync(startDeadline, cancellationToken);
                if (client < 0)
                {
                    dropped = total - i;
                    break;
                }

                var start = Stopwatch.GetTimestamp();
                if (start - intended > lateTicks)
                {
                    late++;
                }

                var isWarmup = i < warmup;
                // The buffers are read here, on the scheduler (the only writer of the pool's lists), and handed to the call.
                var call = new Call(pool.Clients[client], pool.Samples[client], pool.ServiceTimes[client], client);
                _ = CallAsync(pool, call, origin, intended, start, isWarmup, () => Interlocked.Increment(ref measured), cancellationToken);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            cancelled = true;
        }

        // Every connection back in the pool: every started request has ended (a cancelled call ends at once).
        await pool.WaitAllIdleAsync();
        await stopTicker.CancelAsync();
        await ticker;

        var elapsed = Stopwatch.GetElapsedTime(origin);
        process.Refresh();
        var cpu = process.TotalProcessorTime - cpuBefore;
        var cpuPercent = elapsed > TimeSpan.Zero ? 100.0 * cpu / (elapsed * CpuAffinity.CoreCount()) : 0;
        var samples = pool.Samples.SelectMany(b => b).ToArray();
        return new LevelResult(plan, startedUtc, startedUtc + elapsed, samples, cancelled || cancellationToken.IsCancellationRequested, Math.Clamp(cpuPercent, 0, 100))
        {
            LateStarts = late,
            DroppedRequests = dropped,
            Connections = pool.Count,
            ServiceP99Ms = P99Ms(pool.ServiceTimes.SelectMany(t => t).ToArray()),
        };
    }

    private static async Task CallAsync(Pool pool, Call call, long origin, long intended, long start, bool isWarmup, Action counted, CancellationToken cancellationToken)
    {
        try
        {
            // Yield first: the scheduler goes on to the next request while this one waits for its reply.
            await Task.Yield();
            var result = await call.Client.CallAsync(cancellationToken);
            var end = Stopwatch.GetTimestamp();
            // The client's buffers are touched by one call at a time (the pool hands a client to one request until it is back).
            call.Samples.Add(new Sample(call.Index, ToMicroseconds(intended - origin), ToMicroseconds(end - intended), result.Outcome, isWarmup,
                result.RequestBytes, result.ResponseBytes));
            if (!isWarmup)
            {
                counted();
                if (result.Outcome == SampleOutcome.Success)
                {
                    call.ServiceTimes.Add(ToMicroseconds(end - start));
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The level was cancelled mid-call: no sample.
        }
        finally
        {
            pool.Return(call.Index);
        }
    }

    /// <summary>One request's connection and the buffers it appends to.</summary>
    private sealed record Call(ILoadClient Client, List<Sample> Samples, List<long> ServiceTimes, int Index);

    /// <summary>The 99th percentile (nearest rank) of <paramref name="micros"/> in ms; null when empty.</summary>
    internal static double? P99Ms(long[] micros)
    {
        if (micros.Length == 0)
        {
            return null;
        }

        Array.Sort(micros);
        var rank = (int)Math.Ceiling(0.99 * micros.Length);
        return micros[Math.Clamp(rank - 1, 0, micros.Length - 1)] / 1000.0;
    }

    private static long ToMicroseconds(long ticks) => (long)(ticks * MicrosecondsPerTick);

    /// <summary>
    /// The level's connections: the idle ones in a channel, more opened (one at a time, by the scheduler) while the bound
    /// allows; each with its own sample and service-time buffers.
    /// </summary>
    private sealed class Pool(ILoadClientFactory factory, int bound) : IAsyncDisposable
    {
        private readonly Channel<int> _idle = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true });

        public List<ILoadClient> Clients { get; } = [];

        public List<List<Sample>> Samples { get; } = [];

        public List<List<long>> ServiceTimes { get; } = [];

        public int Count => Clients.Count;

        /// <summary>Opens one more connection and puts it in the idle set.</summary>
        public async Task AddAsync(CancellationToken cancellationToken)
        {
            var index = Clients.Count;
            var client = factory.CreateClient(index);
            try
            {
                await client.OpenAsync(cancellationToken);
            }
            catch
            {
                await client.DisposeAsync();
                throw;
            }

            // Lists are grown before the index is handed out, so a call never sees a missing buffer.
            Samples.Add(new List<Sample>(1024));
            ServiceTimes.Add(new List<long>(1024));
            Clients.Add(client);
            _idle.Writer.TryWrite(index);
        }

        /// <summary>An idle connection's index; a new connection when none is idle and the bound allows; -1 when none was free by <paramref name="deadline"/>.</summary>
        public async Task<int> TakeAsync(long deadline, CancellationToken cancellationToken)
        {
            if (_idle.Reader.TryRead(out var index))
            {
                return index;
            }

            if (Clients.Count < bound)
            {
                try
                {
                    await AddAsync(cancellationToken);
                }
                catch (LoadClientException)
                {
                    // No more connections could be opened: the level goes on with those it has.
                    bound = Clients.Count;
                }

                if (_idle.Reader.TryRead(out index))
                {
                    return index;
                }
            }

            var left = deadline - Stopwatch.GetTimestamp();
            if (left <= 0)
            {
                return -1;
            }

            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(TimeSpan.FromSeconds((double)left / Stopwatch.Frequency));
            try
            {
                return await _idle.Reader.ReadAsync(timeout.Token);
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                return -1;
            }
        }

        public void Return(int index) => _idle.Writer.TryWrite(index);

        /// <summary>Waits until every connection is idle again (every started call has ended).</summary>
        public async Task WaitAllIdleAsync()
        {
            var back = new List<int>(Clients.Count);
            while (back.Count < Clients.Count)
            {
                back.Add(await _idle.Reader.ReadAsync());
            }

            foreach (var index in back)
            {
                _idle.Writer.TryWrite(index);
            }
        }

        public async ValueTask DisposeAsync()
        {
            foreach (var client in Clients)
            {
                await client.DisposeAsync();
            }
        }
    }
}
