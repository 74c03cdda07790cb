using Dashboard.Tests.RealProcesses;
using System.Diagnostics;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Tests.Contracts.Resources;

/// <summary>
/// <see cref="ProcCounters"/>: a real child that burns a known CPU time in a thread that then ends is accounted within 5 %
/// (the process total keeps an ended thread's time); the parsers on fixed text.
/// </summary>
public sealed class ProcCountersTests
{
    [Fact]
    public async Task Process_ChildBurns400MsInAThreadThatEnds_AccountedWithin5Percent()
    {
        using var burner = await CpuBurner.StartAsync(0.4);
        var before = ProcCounters.Process(burner.Process.Id);
        await burner.BurnAsync();
        var after = ProcCounters.Process(burner.Process.Id);

        Assert.NotNull(before);
        Assert.NotNull(after);
        Assert.Equal(before.Value.StartTicks, after.Value.StartTicks);
        var burnt = after.Value.CpuSeconds - before.Value.CpuSeconds;
        Assert.InRange(burnt, 0.4 * 0.95, 0.4 * 1.05);
    }

    [Fact]
    public void ParseProcessStat_CommandWithSpacesAndParentheses_UtimePlusStimeAndStart()
    {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime prio nice threads itreal starttime ...
        var line = "42 (a (b) c) S 1 42 42 0 -1 4194560 10 0 0 0 250 50 7 8 20 0 3 0 123456 1000 100 18446744073709551615";

        var parsed = ProcCounters.ParseProcessStat(line);

        Assert.Equal((3.0, 123456L), parsed);
    }

    [Fact]
    public void ParseMachine_CpuLines_BusyIdleStealSecondsAndCores()
    {
        // user nice system idle iowait irq softirq steal guest guest_nice
        var text = "cpu  100 20 30 400 50 6 4 10 0 0\ncpu0 50 10 15 200 25 3 2 5 0 0\ncpu1 50 10 15 200 25 3 2 5 0 0\nintr 1 2 3\n";

        var machine = ProcCounters.ParseMachine(text);

        Assert.Equal(new MachineCpuCounters(1.6, 4.5, 0.1, 2), machine);
        Assert.Equal(6.2, machine!.TotalSeconds, 9);
    }

    [Fact]
    public void Machine_ThisMachine_MonotoneAndCoresAsListed()
    {
        var first = ProcCounters.Machine();
        Thread.Sleep(50);
        var second = ProcCounters.Machine();

        Assert.NotNull(first);
        Assert.NotNull(second);
        Assert.True(second.TotalSeconds >= first.TotalSeconds);
        Assert.True(second.BusySeconds >= first.BusySeconds);
        Assert.Equal(Environment.ProcessorCount, first.Cores);
        Assert.NotNull(ProcCounters.LoadAverage1());
        Assert.NotNull(ProcCounters.BootId());
    }
}
