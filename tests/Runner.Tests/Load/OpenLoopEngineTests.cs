using System.Diagnostics;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Tests.Execution;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Load;

/// <summary>
/// The open workload on a real service host with the dotnet client (<see cref="OpenLoopEngine"/>): the rate held, late
/// starts and drops when it cannot be, and a 1 s SIGSTOP of the host visible in the corrected p99. These tests time
/// requests against a schedule: they run alone (<see cref="QuietMachineGroup"/>).
/// </summary>
[Collection(QuietMachineGroup.Name)]
public sealed class OpenLoopEngineTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private const int SigStop = 19;
    private const int SigCont = 18;

    private static async Task<DotNetFactory> FactoryAsync(ServiceHostProcess host)
    {
        var endpoint = (await host.GetEndpointsAsync()).Single(e => e.Name == "AspNetHttpJson");
        PayloadCatalogue.TryGet("Int", out var payload);
        return new DotNetFactory(new DotNetDriver().CreateFactory(endpoint, payload!));
    }

    [Fact]
    public async Task RunLevelAsync_HostKeepsUp_HoldsTheRateWithinOnePercent()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        await using var factory = await FactoryAsync(host);
        var plan = new LevelPlan(16, 50, null, TimeSpan.FromSeconds(4)) { RateRps = 250 };

        var result = await OpenLoopEngine.RunLevelAsync(factory.Inner, plan, CancellationToken.None);

        var stats = result.Statistics;
        var figures = $"{stats.Requests} requests, {stats.Errors} errors, {stats.ThroughputRps:0.00} req/s, late {result.LateStarts}, dropped {result.DroppedRequests}, {result.Connections} connections, p99 {stats.P99Ms:0.00} ms";
        output.WriteLine(figures);
        Assert.False(result.Cancelled);
        Assert.Equal(0, result.DroppedRequests);
        Assert.Equal(1000, stats.Requests);
        Assert.Equal(0, stats.Errors);
        Assert.Equal(50, result.Samples.Count(s => s.IsWarmup));
        Assert.InRange(stats.ThroughputRps, 250 * 0.99, 250 * 1.01);
        // Intended starts are exactly the schedule: 4 ms apart from the first measured one.
        var starts = result.Samples.Where(s => !s.IsWarmup).Select(s => s.StartOffsetUs).Order().ToArray();
        Assert.InRange(starts[^1] - starts[0], 3_996_000 - 2, 3_996_000 + 2);
        Assert.InRange(result.Connections!.Value, 1, 16);
        Assert.NotNull(result.ServiceP99Ms);
        Assert.True(stats.P99Ms >= result.ServiceP99Ms!.Value - 0.001, figures);
    }

    [Fact]
    public async Task RunLevelAsync_RateFarAboveOneConnection_CountsLateStartsAndDrops()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        await using var factory = await FactoryAsync(host);
        // One connection answers one request at a time (a few thousand per second at best); 50,000 req/s cannot be kept.
        var plan = new LevelPlan(1, 0, null, TimeSpan.FromSeconds(1)) { RateRps = 50_000, DropGrace = TimeSpan.FromMilliseconds(500) };

        var result = await OpenLoopEngine.RunLevelAsync(factory.Inner, plan, CancellationToken.None);

        var stats = result.Statistics;
        output.WriteLine($"{stats.Requests} requests, {stats.ThroughputRps:0} req/s, late {result.LateStarts}, dropped {result.DroppedRequests}, p99 {stats.P99Ms:0.0} ms, service p99 {result.ServiceP99Ms:0.00} ms");
        Assert.Equal(1, result.Connections);
        Assert.True(result.LateStarts > 100, $"late starts {result.LateStarts}");
        Assert.True(result.DroppedRequests > 1000, $"dropped {result.DroppedRequests}");
        Assert.Equal(50_000, stats.Requests + result.DroppedRequests);
        Assert.True(stats.ThroughputRps < 50_000 * 0.5, $"{stats.ThroughputRps} req/s");
        // Corrected: the queue behind the one connection shows; the last started request waited most of the 1.5 s.
        Assert.True(stats.MaxMs > 1000, $"max {stats.MaxMs} ms");
        Assert.True(result.ServiceP99Ms < stats.P99Ms, $"service p99 {result.ServiceP99Ms} ms, corrected p99 {stats.P99Ms} ms");
    }

    [Fact]
    public async Task RunLevelAsync_HostStoppedOneSecond_PauseInTheCorrectedP99()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        await using var factory = await FactoryAsync(host);
        const int Rate = 200;
        var duration = TimeSpan.FromSeconds(4);
        var pause = TimeSpan.FromSeconds(1);
        var plan = new LevelPlan(64, 20, null, duration) { RateRps = Rate };

        var level = OpenLoopEngine.RunLevelAsync(factory.Inner, plan, CancellationToken.None);
        await Task.Delay(TimeSpan.FromSeconds(1.5));
        var stopped = Stopwatch.StartNew();
        ServiceHostProcess.Signal(host.ProcessId, SigStop);
        try
        {
            await Task.Delay(pause);
        }
        finally
        {
            ServiceHostProcess.Signal(host.ProcessId, SigCont);
        }

        var paused = stopped.Elapsed;
        var result = await level;

        // Requests due during the pause wait for its end: their response times spread evenly from ~pause down to ~0,
        // pause × rate of N measured requests. The p99 is then the pause less the top 1 % of N spread over that ramp:
        // pause × (1 − 0.01 N / (pause × rate)) (Tene; a closed loop would record one slow request per client instead).
        var stats = result.Statistics;
        var n = stats.Requests;
        var expected = paused.TotalMilliseconds * (1 - 0.01 * n / (paused.TotalSeconds * Rate));
        var figures = $"{n} requests, p99 {stats.P99Ms:0.0} ms, p99.9 {stats.P999Ms:0.0} ms, expected p99 {expected:0.0} ms (pause {paused.TotalMilliseconds:0} ms), late {result.LateStarts}, {result.Connections} connections";
        Assert.Equal(0, stats.Errors);
        Assert.Equal(800, n);
        Assert.InRange(stats.P99Ms, expected * 0.85, paused.TotalMilliseconds + 200);
        Assert.True(stats.P999Ms >= expected, figures);
        // The pool grew past its first connections (a new one is probed with a call, so it waits out the pause too), and the
        // requests due while every connection waited started late.
        output.WriteLine(figures);
        Assert.InRange(result.Connections!.Value, OpenLoopEngine.InitialConnections + 1, 64);
        Assert.True(result.LateStarts > 50, figures);
    }

    /// <summary>The dotnet factory, disposed with the test.</summary>
    private sealed class DotNetFactory(ILoadClientFactory inner) : IAsyncDisposable
    {
        public ILoadClientFactory Inner => inner;

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }
}
