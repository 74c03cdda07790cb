using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// <see cref="SteadyStateWarmup"/>: the windows it runs carry the level's own load (its clients, or its arrival rate and
/// connection bound for an open level), and the figure it watches is throughput (closed) or median response time (open).
/// </summary>
public sealed class SteadyStateWarmupTests
{
    private static readonly SteadyStateSettings ThreeWindows = new(3, 0.05, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(60));

    [Fact]
    public async Task RunAsync_OpenLevel_WindowsRunAtTheLevelsRateAndConnectionsWithoutWarmupRequests()
    {
        var session = new ScriptedSession(_ => Window(count: 100, latencyUs: 2_000, windowUs: 500_000));
        var level = new LevelPlan(8, 50, null, TimeSpan.FromSeconds(10)) { RateRps = 200 };

        var outcome = await SteadyStateWarmup.RunAsync(session, level, ThreeWindows, CancellationToken.None);

        Assert.True(outcome.Reached);
        Assert.Equal(3, outcome.Windows);
        Assert.All(session.Plans, p => Assert.Equal((200, 8, 0, TimeSpan.FromMilliseconds(500)), (p.RateRps, p.Clients, p.WarmupPerClient, p.Duration)));
    }

    [Fact]
    public async Task RunAsync_OpenLevelThroughputSteadyButResponseTimeFalling_WaitsUntilTheResponseTimeSettles()
    {
        // Every window completes its 100 requests (the rate is kept), while the median response time falls from 20 ms
        // as JIT and connections warm, then holds at 1 ms: steady state is the third window of 1 ms, not the first.
        long[] medianUs = [20_000, 10_000, 5_000, 2_000, 1_000, 1_000, 1_000, 1_000];
        var session = new ScriptedSession(i => Window(count: 100, latencyUs: medianUs[Math.Min(i, medianUs.Length - 1)], windowUs: 500_000));
        var level = new LevelPlan(8, 0, null, TimeSpan.FromSeconds(10)) { RateRps = 200 };

        var outcome = await SteadyStateWarmup.RunAsync(session, level, ThreeWindows, CancellationToken.None);

        Assert.True(outcome.Reached);
        Assert.Equal(7, outcome.Windows);
        Assert.Equal(0.0, outcome.CoefficientOfVariation!.Value);
    }

    [Fact]
    public async Task RunAsync_ClosedLevel_WindowsRunTheLevelsClientsAndWatchThroughput()
    {
        // A closed level's response time may stay put while its throughput still climbs: the throughput decides.
        int[] counts = [100, 200, 400, 800, 800, 800];
        var session = new ScriptedSession(i => Window(count: counts[Math.Min(i, counts.Length - 1)], latencyUs: 1_000, windowUs: 500_000));
        var level = new LevelPlan(20, 5, null, TimeSpan.FromSeconds(3));

        var outcome = await SteadyStateWarmup.RunAsync(session, level, ThreeWindows, CancellationToken.None);

        Assert.Equal(6, outcome.Windows);
        Assert.All(session.Plans, p => Assert.Equal((null, 20, 0), (p.RateRps, p.Clients, p.WarmupPerClient)));
    }

    [Fact]
    public void Figure_OpenWindowWithoutASuccess_Zero()
    {
        var plan = new LevelPlan(8, 0, null, TimeSpan.FromSeconds(1)) { RateRps = 100 };
        var failed = new LevelResult(plan, DateTime.UtcNow, DateTime.UtcNow, [new Sample(0, 0, 5_000, SampleOutcome.Timeout, false)], false, 0);

        Assert.Equal(0, SteadyStateWarmup.Figure(failed, plan));
    }

    /// <summary>One window's result: <paramref name="count"/> successes of <paramref name="latencyUs"/> spread over <paramref name="windowUs"/>.</summary>
    private static Func<LevelPlan, LevelResult> Window(int count, long latencyUs, long windowUs) => plan =>
    {
        var step = (windowUs - latencyUs) / count;
        var samples = Enumerable.Range(0, count).Select(i => new Sample(i % plan.Clients, i * step, latencyUs, SampleOutcome.Success, false)).ToArray();
        return new LevelResult(plan, DateTime.UtcNow, DateTime.UtcNow, samples, false, 0);
    };

    /// <summary>A cell session that answers window i with <c>script(i)</c> and records the plans it was given.</summary>
    private sealed class ScriptedSession(Func<int, Func<LevelPlan, LevelResult>> script) : ICellSession
    {
        public List<LevelPlan> Plans { get; } = [];

        public Task<LevelResult> RunLevelAsync(LevelPlan plan, CancellationToken cancellationToken)
        {
            Plans.Add(plan);
            return Task.FromResult(script(Plans.Count - 1)(plan));
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
