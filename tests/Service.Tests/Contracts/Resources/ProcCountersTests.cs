using System.Diagnostics;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Tests.Contracts.Resources;

/// <summary>
/// <see cref="ProcCounters"/>: a real child that burns a known CPU time in a thread that then ends is accounted within 5 %
/// (the process total keeps an ended thread's time); the parsers on fixed text.
/// </summary>
public sealed class ProcCountersTests
{
    // Waits for a line, burns 0.4 s of its own CPU time (process_time: user + system) in a thread that then ends, says
    // "done", and waits for the end of its input.
    private const string Burner = """
        import sys, threading, time
        sys.stdout.write("ready\n"); sys.stdout.flush()
        sys.stdin.readline()
        def spin():
            start = time.process_time()
            while time.process_time() - start < 0.4:
                pass
        t = threading.Thread(target=spin); t.start(); t.join()
        sys.stdout.write("done\n"); sys.stdout.flush()
        sys.stdin.read()
        """;

    [Fact]
    public async Task Process_ChildBurns400MsInAThreadThatEnds_AccountedWithin5Percent()
    {
        using var child = Process.Start(new ProcessStartInfo("/usr/bin/python3", ["-c", Burner])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
        })!;
        try
        {
            Assert.Equal("ready", await child.StandardOutput.ReadLineAsync());
            var before = ProcCounters.Process(child.Id);
            await child.StandardInput.WriteLineAsync("go");
            await child.StandardInput.FlushAsync();
            Assert.Equal("done", await child.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(60)));
            var after = ProcCounters.Process(child.Id);

            Assert.NotNull(before);
            Assert.NotNull(after);
            Assert.Equal(before.Value.StartTicks, after.Value.StartTicks);
            var burnt = after.Value.CpuSeconds - before.Value.CpuSeconds;
            Assert.InRange(burnt, 0.4 * 0.95, 0.4 * 1.05);
        }
        finally
        {
            child.StandardInput.Close();
            if (!child.WaitForExit(5000))
            {
                child.Kill();
            }
        }
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
