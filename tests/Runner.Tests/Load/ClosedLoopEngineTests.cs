using Dashboard.Data.Measurement;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Runner.Tests.Load;

public class ClosedLoopEngineTests
{
    [Fact]
    public async Task RunLevelAsync_RequestsPerClient_RecordsWarmupAndMeasuredSamplesPerClient()
    {
        await using var factory = new DelayClientFactory(TimeSpan.FromMilliseconds(1));
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(8, 3, 20, null), CancellationToken.None);

        Assert.False(result.Cancelled);
        Assert.Equal(8 * 23, result.Samples.Length);
        Assert.Equal(8 * 3, result.Samples.Count(s => s.IsWarmup));
        Assert.All(Enumerable.Range(0, 8), i => Assert.Equal(20, result.Samples.Count(s => s.ClientIndex == i && !s.IsWarmup)));
        Assert.Equal(8 * 20, result.Statistics.Requests);
        Assert.Equal(0, result.Statistics.Errors);
        Assert.Equal(8, factory.Opened);
        Assert.Equal(8, factory.Disposed);
    }

    [Fact]
    public async Task RunLevelAsync_WarmupSamples_ComeBeforeMeasuredOnesOfTheSameClient()
    {
        await using var factory = new DelayClientFactory(TimeSpan.Zero);
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 5, 5, null), CancellationToken.None);

        foreach (var client in result.Samples.GroupBy(s => s.ClientIndex))
        {
            var lastWarmup = client.Where(s => s.IsWarmup).Max(s => s.StartOffsetUs);
            var firstMeasured = client.Where(s => !s.IsWarmup).Min(s => s.StartOffsetUs);
            Assert.True(lastWarmup <= firstMeasured);
        }
    }

    [Fact]
    public async Task RunLevelAsync_ClientsRunConcurrently_NotOneAfterAnother()
    {
        await using var factory = new DelayClientFactory(TimeSpan.FromMilliseconds(20));
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(10, 0, 5, null), CancellationToken.None);

        // 10 clients × 5 calls × 20 ms would take ≥ 1 s one after another; concurrently about 100 ms.
        Assert.Equal(10, factory.MaxInFlight);
        Assert.InRange(result.Statistics.WindowUs, 90_000, 900_000);
        Assert.InRange(result.Statistics.MeanMs, 19, 200);
    }

    [Fact]
    public async Task RunLevelAsync_Duration_StopsAfterTheDuration()
    {
        await using var factory = new DelayClientFactory(TimeSpan.FromMilliseconds(5));
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(4, 1, null, TimeSpan.FromMilliseconds(300)), CancellationToken.None);

        Assert.InRange(result.EndedUtc - result.StartedUtc, TimeSpan.FromMilliseconds(290), TimeSpan.FromSeconds(5));
        foreach (var client in result.Samples.Where(s => !s.IsWarmup).GroupBy(s => s.ClientIndex))
        {
            // Each client measures for 300 ms after its warm-up: no request may start after that (≤: offsets are truncated to µs).
            var first = client.Min(s => s.StartOffsetUs);
            Assert.All(client, s => Assert.True(s.StartOffsetUs - first <= 300_000, $"request started {s.StartOffsetUs - first} µs in"));
            Assert.True(client.Max(s => s.EndOffsetUs) - first >= 290_000);
        }

        Assert.Equal(4, result.Samples.Where(s => !s.IsWarmup).Select(s => s.ClientIndex).Distinct().Count());
    }

    [Fact]
    public async Task RunLevelAsync_Cancelled_KeepsTheSamplesTakenSoFar()
    {
        await using var factory = new DelayClientFactory(TimeSpan.FromMilliseconds(5));
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(4, 0, 1_000_000, null), cancellation.Token);

        Assert.True(result.Cancelled);
        Assert.NotEmpty(result.Samples);
        Assert.True(result.Samples.Length < 4 * 1_000_000);
        Assert.Equal(4, factory.Disposed);
    }

    [Fact]
    public async Task RunLevelAsync_FailingCalls_AreCountedByKind()
    {
        await using var factory = new DelayClientFactory(TimeSpan.Zero, failEvery: 4);
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 0, 8, null), CancellationToken.None);

        Assert.Equal(4, result.Statistics.Errors);
        Assert.Equal(4, result.Statistics.ErrorsByKind[SampleOutcome.Timeout]);
        Assert.Equal(12, result.Statistics.Successes);
    }

    [Fact]
    public async Task RunLevelAsync_OpenFails_ThrowsAndDisposesEveryClient()
    {
        await using var factory = new DelayClientFactory(TimeSpan.Zero, openFails: true);
        var error = await Assert.ThrowsAsync<LoadClientException>(
            () => ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(3, 0, 1, null), CancellationToken.None));

        Assert.Contains("refused", error.Message, StringComparison.Ordinal);
        Assert.Equal(3, factory.Disposed);
    }

    [Theory]
    [InlineData(0, 0, 1)]
    [InlineData(1, -1, 1)]
    [InlineData(1, 0, 0)]
    public async Task RunLevelAsync_InvalidPlan_Throws(int clients, int warmup, int requests)
    {
        await using var factory = new DelayClientFactory(TimeSpan.Zero);
        await Assert.ThrowsAsync<ArgumentException>(
            () => ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(clients, warmup, requests, null), CancellationToken.None));
    }

    /// <summary>A client whose call takes a fixed time; counts opens, disposals and calls in flight.</summary>
    private sealed class DelayClientFactory(TimeSpan delay, int failEvery = 0, bool openFails = false) : ILoadClientFactory
    {
        private readonly TimeSpan _delay = delay;
        private readonly int _failEvery = failEvery;
        private readonly bool _openFails = openFails;
        private int _inFlight;
        private int _maxInFlight;
        private int _opened;
        private int _disposed;

        public int MaxInFlight => Volatile.Read(ref _maxInFlight);

        public int Opened => Volatile.Read(ref _opened);

        public int Disposed => Volatile.Read(ref _disposed);

        public ILoadClient CreateClient(int clientIndex) => new Client(this);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;

        private sealed class Client(DelayClientFactory owner) : ILoadClient
        {
            private int _calls;

            public ValueTask OpenAsync(CancellationToken cancellationToken)
            {
                if (owner._openFails)
                {
                    throw new LoadClientException("connection refused by test endpoint");
                }

                Interlocked.Increment(ref owner._opened);
                return ValueTask.CompletedTask;
            }

            public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
            {
                var now = Interlocked.Increment(ref owner._inFlight);
                InterlockedMax(ref owner._maxInFlight, now);
                try
                {
                    if (owner._delay > TimeSpan.Zero)
                    {
                        await Task.Delay(owner._delay, cancellationToken);
                    }

                    _calls++;
                    return owner._failEvery > 0 && _calls % owner._failEvery == 0 ? SampleOutcome.Timeout : SampleOutcome.Success;
                }
                finally
                {
                    Interlocked.Decrement(ref owner._inFlight);
                }
            }

            public ValueTask DisposeAsync()
            {
                Interlocked.Increment(ref owner._disposed);
                return ValueTask.CompletedTask;
            }

            private static void InterlockedMax(ref int target, int value)
            {
                int current;
                while ((current = Volatile.Read(ref target)) < value && Interlocked.CompareExchange(ref target, value, current) != current)
                {
                }
            }
        }
    }
}
