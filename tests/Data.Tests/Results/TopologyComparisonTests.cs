using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Data.Tests.Support;
using Dashboard.Data.Queries;

namespace Dashboard.Data.Tests.Results;

/// <summary>Results grouped by topology: on-machine vs cross-machine side by side and the best scenario per metric (Tables 9.1 and 9.3 shape).</summary>
public sealed class TopologyComparisonTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    private static RunEntity Run(string topology, int? rate)
    {
        var run = TestData.Run(topology);
        run.Topology = topology;
        run.LinkRateMbps = rate;
        run.StartedUtc = TestData.Start;
        return run;
    }

    private static ResourceSampleEntity Reading(RunEntity run, long offsetMs, double cpu, double memory) =>
        new() { Run = run, OffsetMs = offsetMs, MachineCpuPercent = cpu, AvailableMemoryMb = memory };

    [Fact]
    public async Task ForRunsAsync_OnMachineAndEmulatedLanRuns_GroupsByTopologyWithServerCpuAndMemory()
    {
        int[] ids;
        using (var db = _database.Open())
        {
            var local = Run("same-machine", null);
            var lan = Run("emulated-lan", 100);
            var localLevels = new[]
            {
                Levels.Stored("AspNetUdsBinXml", "dotnet", "Int", 20, 1, 9000, 2.0),
                Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 1, 8000, 2.5),
                Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 2, 6000, 3.5),
            };
            var lanLevels = new[] { Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 1, 5000, 4.0) };
            foreach (var l in localLevels)
            {
                l.Run = local;
            }

            lanLevels[0].Run = lan;
            db.Levels.AddRange(localLevels);
            db.Levels.AddRange(lanLevels);
            // Inside the levels' 10 s: counted; the reading at 60 s is outside every level.
            db.ResourceSamples.AddRange(Reading(local, 1000, 90, 1000), Reading(local, 9000, 70, 1200), Reading(local, 60_000, 5, 9999),
                Reading(lan, 5000, 40, 3000));
            await db.SaveChangesAsync();
            ids = [local.Id, lan.Id];
        }

        using var read = _database.Open();
        var result = await ResultsQueries.TopologyComparisonAsync(read, ids, 20, CancellationToken.None);

        Assert.Equal(["on-machine", "cross-machine (emulated LAN, 100 Mbit/s)"], result.Topologies);
        var h2 = result.Rows().Single(r => r.Variant == "AspNetH2BinXml");
        Assert.Equal(7000, h2.ByTopology[0]!.ThroughputRps);
        Assert.Equal(2, h2.ByTopology[0]!.Repetitions);
        Assert.Equal(80, h2.ByTopology[0]!.ServerCpuPercent);
        Assert.Equal(1100, h2.ByTopology[0]!.AvailableMemoryMb);
        Assert.Equal(5000, h2.ByTopology[1]!.ThroughputRps);
        Assert.Equal(40, h2.ByTopology[1]!.ServerCpuPercent);
        var uds = result.Rows().Single(r => r.Variant == "AspNetUdsBinXml");
        Assert.Null(uds.ByTopology[1]); // Unix sockets: on-machine only
    }

    [Fact]
    public void Build_UnsecureScenariosInBothTopologies_BestPerMetricLikeTable91()
    {
        var local = Run("same-machine", null);
        var lan = Run("emulated-lan", 100);
        LevelEntity[] localLevels = [Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 1, 8000, 2.5), Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 1, 1, 99_999, 0.01)];
        LevelEntity[] lanLevels = [Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 20, 1, 5000, 2.0)];
        var result = TopologyComparison.Build(
        [
            new RunResults(local, localLevels, [Reading(local, 5000, 80, 1000)]),
            new RunResults(lan, lanLevels, [Reading(lan, 5000, 30, 3000)]),
        ]);

        var best = result.Best.Where(b => !b.Secure && b.Scope == "Small").ToDictionary(b => b.Metric);
        Assert.Equal("on-machine, AspNetH2BinXml × dotnet", best[TopologyMetric.Throughput].Scenario);
        Assert.Equal(8000, best[TopologyMetric.Throughput].Value); // the 1-client level does not count (from 20 on)
        Assert.Equal("cross-machine (emulated LAN, 100 Mbit/s), AspNetH2BinXml × dotnet", best[TopologyMetric.ResponseTime].Scenario);
        Assert.Equal("cross-machine (emulated LAN, 100 Mbit/s), AspNetH2BinXml × dotnet", best[TopologyMetric.ServerCpu].Scenario);
        Assert.Equal("cross-machine (emulated LAN, 100 Mbit/s), AspNetH2BinXml × dotnet", best[TopologyMetric.AvailableMemory].Scenario);
        Assert.Equal(2, best[TopologyMetric.Throughput].Compared);
        Assert.DoesNotContain(result.Best, b => b.Secure);
    }
}
