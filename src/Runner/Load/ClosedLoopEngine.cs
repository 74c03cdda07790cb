using System.Diagnostics;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Load;

/// <summary>
/// The closed workload (docs/statistics.md): a level runs N independent clients, each sending its next request as
/// soon as the previous reply arrived (no think time). Clients are opened first, then released together;
/// each records its own samples with <see cref="Stopwatch"/> timestamps, without any shared lock.
/// </summary>
public static class ClosedLoopEngine
{
    private static readonly double MicrosecondsPerTick = 1_000_000.0 / Stopwatch.Frequency;

    /// <summary>Runs one level and returns its samples.</summary>
    /// <param name="factory">Creates the level's clients.</param>
    /// <param name="plan">How many clients, and how many requests or how long.</param>
    /// <param name="cancellationToken">Stops the level; the samples already taken are returned with <see cref="LevelResult.Cancelled"/> set.</param>
    /// <param name="progress">Called about once a second while the level runs with (measured requests so far, req/s over the last second); null: no reports.</param>
    /// <exception cref="LoadClientException">A client could not be opened (e.g. the host is down); nothing was measured.</exception>
    /// <exception cref="ArgumentException">The plan is invalid.</exception>
    public static async Task<LevelResult> RunLevelAsync(ILoadClientFactory factory, LevelPlan plan, CancellationToken cancellationToken, Action<long, double>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(factory);
        ArgumentNullException.ThrowIfNull(plan);
        plan.Validate();

        var clients = new ILoadClient[plan.Clients];
        try
        {
            for (var i = 0; i < clients.Length; i++)
            {
                clients[i] = factory.CreateClient(i);
            }

            await Task.WhenAll(clients.Select(c => c.OpenAsync(cancellationToken).AsTask()));
            return await MeasureAsync(clients, plan, progress, cancellationToken);
        }
        finally
        {
            foreach (var client in clients.Where(c => c is not null))
            {
                await client.DisposeAsync();
            }
        }
    }

    private static async Task<LevelResult> MeasureAsync(ILoadClient[] clients, LevelPlan plan, Action<long, double>? progress, CancellationToken cancellationToken)
    {
        var release = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        var buffers = new List<Sample>[clients.Length];
        var workers = new Task[clients.Length];
        for (var i = 0; i < clients.Length; i++)
        {
            var index = i;
            buffers[i] = new List<Sample>(plan.WarmupPerClient + (plan.RequestsPerClient ?? 1024));
            workers[i] = Task.Run(() => WorkerAsync(index, clients[index], plan, release.Task, buffers[index], cancellationToken), CancellationToken.None);
        }

        using var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        var startedUtc = DateTime.UtcNow;
        var origin = Stopwatch.GetTimestamp();
        release.SetResult(origin);

        // Progress reads each client's sample count (its own list, appended by its worker only): no lock on the hot path.
        using var stopTicker = new CancellationTokenSource();
        var ticker = progress is null ? Task.CompletedTask
            : LevelProgressTicker.RunAsync(() => buffers.Sum(b => (long)Math.Max(0, b.Count - plan.WarmupPerClient)), progress, stopTicker.Token);
        var cancelled = false;
        try
        {
            await Task.WhenAll(workers);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            cancelled = true;
        }

        await stopTicker.CancelAsync();
        await ticker;

        var elapsed = Stopwatch.GetElapsedTime(origin);
        process.Refresh();
        var cpu = process.TotalProcessorTime - cpuBefore;
        var cpuPercent = elapsed > TimeSpan.Zero ? 100.0 * cpu / (elapsed * CpuAffinity.CoreCount()) : 0;
        var samples = buffers.SelectMany(b => b).ToArray();
        return new LevelResult(plan, startedUtc, startedUtc + elapsed, samples, cancelled || cancellationToken.IsCancellationRequested, Math.Clamp(cpuPercent, 0, 100));
    }

    private static async Task WorkerAsync(int index, ILoadClient client, LevelPlan plan, Task<long> release, List<Sample> samples, CancellationToken cancellationToken)
    {
        // The level's time origin (a Stopwatch timestamp), set when all clients are released together.
        var origin = await release;
        for (var w = 0; w < plan.WarmupPerClient; w++)
        {
            await CallOnceAsync(index, client, origin, isWarmup: true, samples, cancellationToken);
        }

        if (plan.RequestsPerClient is { } count)
        {
            for (var r = 0; r < count; r++)
            {
                await CallOnceAsync(index, client, origin, isWarmup: false, samples, cancellationToken);
            }

            return;
        }

        // The timestamp that passes the deadline test is the request's recorded start: no request starts after the duration.
        var deadline = Stopwatch.GetTimestamp() + (long)(plan.Duration!.Value.TotalSeconds * Stopwatch.Frequency);
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var start = Stopwatch.GetTimestamp();
            if (start >= deadline)
            {
                return;
            }

            await CallAsync(index, client, origin, start, isWarmup: false, samples, cancellationToken);
        }
    }

    private static ValueTask CallOnceAsync(int index, ILoadClient client, long origin, bool isWarmup, List<Sample> samples, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return CallAsync(index, client, origin, Stopwatch.GetTimestamp(), isWarmup, samples, cancellationToken);
    }

    private static async ValueTask CallAsync(int index, ILoadClient client, long origin, long start, bool isWarmup, List<Sample> samples, CancellationToken cancellationToken)
    {
        var result = await client.CallAsync(cancellationToken);
        var end = Stopwatch.GetTimestamp();
        samples.Add(new Sample(index, ToMicroseconds(start - origin), ToMicroseconds(end - start), result.Outcome, isWarmup, result.RequestBytes, result.ResponseBytes));
    }

    private static long ToMicroseconds(long ticks) => (long)(ticks * MicrosecondsPerTick);
}
