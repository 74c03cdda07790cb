using System.Diagnostics;
using Dashboard.Runner.Hosts;
using Dashboard.Runner.Tests.Support;

namespace Dashboard.Runner.Tests.Hosts;

public class ResourcePollerTests
{
    [Fact]
    public async Task StopAsync_HostAnswering_RecordsItsSnapshotsWithOffsets()
    {
        await using var host = new JsonHttpServer("""{"machineCpuPercent":42.5,"availableMemoryMb":1234,"processCpuPercent":7,"workingSetMb":88,"gcHeapMb":12,"threadCount":31}""");
        using var http = new HttpClient();

        var poller = new ResourcePoller(http, host.Address, runId: 7, Stopwatch.GetTimestamp(), TimeSpan.FromMilliseconds(50));
        var polling = Stopwatch.StartNew();
        await Eventually.HoldsAsync(() => host.Requests >= 4);
        var samples = await poller.StopAsync();
        await poller.DisposeAsync();

        // At least three polls were answered in full (the fourth may be cut short by the stop); one per 50 ms at most.
        Assert.InRange(samples.Count, 3, 1 + (int)(polling.Elapsed.TotalMilliseconds / 50) + 1);
        Assert.All(samples, s =>
        {
            Assert.Equal(7, s.RunId);
            Assert.Equal(42.5, s.MachineCpuPercent);
            Assert.Equal(1234, s.AvailableMemoryMb);
            Assert.Equal(31, s.ThreadCount);
            Assert.InRange(s.GeneratorCpuPercent!.Value, 0, 100);
        });
        Assert.Equal(samples.OrderBy(s => s.OffsetMs).Select(s => s.OffsetMs), samples.Select(s => s.OffsetMs));
        Assert.Equal(0, poller.Failures);
    }

    [Fact]
    public async Task StopAsync_HostDown_CountsFailuresWithoutThrowing()
    {
        using var http = new HttpClient();
        var poller = new ResourcePoller(http, new Uri($"http://127.0.0.1:{JsonHttpServer.FreePort()}"), 1, Stopwatch.GetTimestamp(), TimeSpan.FromMilliseconds(50));
        await Eventually.HoldsAsync(() => poller.Failures >= 2);

        var samples = await poller.StopAsync();
        await poller.DisposeAsync();

        Assert.Empty(samples);
        Assert.True(poller.Failures >= 2, $"{poller.Failures} failures");
    }
}
