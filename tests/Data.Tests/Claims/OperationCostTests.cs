using Dashboard.Data.Claims;
using Dashboard.Data.Entities;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Claims;

public class OperationCostTests
{
    [Fact]
    public void Compute_HalfOfTwoCoresForTenSeconds_GivesCpuSecondsMicrosecondsAndMCycles()
    {
        // 50 % of 2 cores for 10 s = 10 CPU-seconds; 10,000 operations → 1,000 µs each; at 2,600 MHz 2.6 MCycles each.
        var cost = OperationCost.Compute(50, 2, TimeSpan.FromSeconds(10), 10_000, 2600)!;

        Assert.Equal(10, cost.CpuSeconds, 9);
        Assert.Equal(1000, cost.CpuUsPerOperation, 9);
        Assert.Equal(2.6, cost.MCyclesPerOperation, 9);
    }

    [Fact]
    public void Compute_BookChapterClock_MatchesItsUnits()
    {
        // Seed 004: a 3.4 GHz processor "equates to 3400 MCycles" per second: one CPU-second per operation is 3,400 MCycles.
        var cost = OperationCost.Compute(100, 1, TimeSpan.FromSeconds(1), 1, 3400)!;

        Assert.Equal(3400, cost.MCyclesPerOperation, 9);
        Assert.Equal(1_000_000, cost.CpuUsPerOperation, 9);
    }

    [Fact]
    public void Compute_NoOperation_Null() => Assert.Null(OperationCost.Compute(50, 2, TimeSpan.FromSeconds(1), 0, 2600));

    [Theory]
    [InlineData(120, 2, 2600)]
    [InlineData(-1, 2, 2600)]
    [InlineData(50, 0, 2600)]
    [InlineData(50, 2, 0)]
    public void Compute_OutOfRange_Throws(double cpu, int cores, double clock) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => OperationCost.Compute(cpu, cores, TimeSpan.FromSeconds(1), 10, clock));

    [Fact]
    public void LevelResourcesOf_MetroLevel_UsesTheJvmAndTheReadingsInsideItsWindow()
    {
        var start = TestData.Start;
        var level = new LevelEntity
        {
            RunId = 7, Variant = "MetroSoap11", Client = "java", Payload = "Int", Clients = 1,
            StartedUtc = start.AddSeconds(10), EndedUtc = start.AddSeconds(20), Requests = 5000, Errors = 0,
        };
        ResourceSampleEntity Reading(long ms, double jvm, double host) => new()
        {
            RunId = 7, OffsetMs = ms, JvmCpuPercent = jvm, ProcessCpuPercent = host, MachineCpuPercent = 80, AvailableMemoryMb = 1000,
        };
        IReadOnlyList<ResourceSampleEntity> readings = [Reading(5_000, 99, 99), Reading(12_000, 20, 5), Reading(18_000, 30, 5), Reading(25_000, 99, 99)];

        var resources = LevelResources.Of([level], id => id == 7 ? (readings, start) : null, cores: 2, clockMHz: 2000)!;

        // JVM 25 % of 2 cores for 10 s = 5 CPU-seconds over 5,000 operations: 1,000 µs and 2 MCycles each.
        Assert.Equal(25, resources.StackCpuPercent.Mean, 9);
        Assert.Equal(1000, resources.CpuUsPerOperation.Mean, 9);
        Assert.Equal(2, resources.MCyclesPerOperation.Mean, 9);
        Assert.Equal(2, resources.Readings);
    }

    [Fact]
    public void LevelResourcesOf_NoReadingInTheWindow_Null()
    {
        var level = new LevelEntity { RunId = 1, Variant = "AspNetHttpJson", Client = "dotnet", Payload = "Int", StartedUtc = TestData.Start, EndedUtc = TestData.Start.AddSeconds(1), Requests = 10 };
        IReadOnlyList<ResourceSampleEntity> readings = [new() { RunId = 1, OffsetMs = 60_000, ProcessCpuPercent = 50 }];

        Assert.Null(LevelResources.Of([level], _ => (readings, TestData.Start), 2, 2000));
    }

    [Fact]
    public void LevelResourcesOf_WindowFiguresAndNoReadings_TakesTheWindowsOwnCpu()
    {
        // A 300 ms level of the book's sequential calls: no once-a-second reading falls inside it, but its window's CPU
        // counters were read at both ends (issue #32) — the cost per operation comes from there.
        var level = new LevelEntity
        {
            RunId = 3, Variant = "WcfNetTcp", Client = "wcf", Payload = "Get256Bytes", Clients = 1,
            StartedUtc = TestData.Start, EndedUtc = TestData.Start.AddMilliseconds(300), Requests = 5000,
            ServerCpuPercent = 30, ServerCpuMicrosPerRequest = 120, MachineBusyPercent = 70,
        };

        var resources = LevelResources.Of([level], _ => null, cores: 2, clockMHz: 2000)!;

        Assert.Equal(30, resources.StackCpuPercent.Mean, 9);
        Assert.Equal(60, resources.StackCpuPercentOfOneCore.Mean, 9);
        Assert.Equal(120, resources.CpuUsPerOperation.Mean, 9);
        Assert.Equal([120.0], resources.CpuUsPerOperationValues);
        // 120 µs at 2,000 MHz = 240,000 cycles = 0.24 MCycles.
        Assert.Equal(0.24, resources.MCyclesPerOperation.Mean, 9);
        Assert.Equal(70, resources.MachineCpuPercent.Mean, 9);
        Assert.Equal(0, resources.Readings);
    }

    [Fact]
    public void LevelResourcesOf_WindowFiguresAndReadings_WindowWinsMemoryFromReadings()
    {
        var start = TestData.Start;
        var level = new LevelEntity
        {
            RunId = 7, Variant = "MetroSoap11", Client = "java", Payload = "Int", Clients = 1,
            StartedUtc = start.AddSeconds(10), EndedUtc = start.AddSeconds(20), Requests = 5000,
            ServerCpuPercent = 40, ServerCpuMicrosPerRequest = 1600,
        };
        IReadOnlyList<ResourceSampleEntity> readings =
            [new() { RunId = 7, OffsetMs = 12_000, JvmCpuPercent = 20, ProcessCpuPercent = 5, MachineCpuPercent = 80, AvailableMemoryMb = 1000 }];

        var resources = LevelResources.Of([level], _ => (readings, start), cores: 2, clockMHz: null)!;

        // The neighbouring reading said 20 % (1,000 µs per operation by its arithmetic); the window's counters say 40 % and 1,600 µs.
        Assert.Equal(40, resources.StackCpuPercent.Mean, 9);
        Assert.Equal(1600, resources.CpuUsPerOperation.Mean, 9);
        Assert.Equal(80, resources.MachineCpuPercent.Mean, 9);
        Assert.Equal(1000, resources.AvailableMemoryMb.Mean, 9);
        Assert.Equal(0, resources.MCyclesPerOperation.N);
    }
}
