using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Tests.Contracts.Resources;

/// <summary><see cref="CpuClock"/>: the clock rate read from <c>/proc/cpuinfo</c>.</summary>
public sealed class CpuClockTests
{
    [Fact]
    public void Parse_CpuinfoWithTwoProcessors_MeanOfTheirRates()
    {
        var clock = CpuClock.Parse("processor\t: 0\ncpu MHz\t\t: 2596.134\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\ncpu MHz\t\t: 2603.866\n")!;

        Assert.Equal(2600, clock.MHz, 6);
        Assert.Contains("mean of 2 processor(s)", clock.Source, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_NoRate_Null() => Assert.Null(CpuClock.Parse("processor\t: 0\nmodel name\t: ARM\n"));

    [Fact]
    public void ReadProcCpuinfo_ThisLinuxMachine_APositiveRate()
    {
        // The machines this project runs on are Linux x86-64, whose /proc/cpuinfo lists "cpu MHz".
        Assert.True(CpuClock.ReadProcCpuinfo()!.MHz > 100);
    }
}
