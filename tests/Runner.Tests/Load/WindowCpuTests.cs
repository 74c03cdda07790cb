using Dashboard.Tests.RealProcesses;
using System.Diagnostics;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Tests.Load;

/// <summary>
/// <see cref="WindowCpu"/>: a driver child that burns a known CPU time is accounted within 5 %; a window's figures from
/// two readings (per request, shares, others' cores, steal, disturbed, a restarted host) on fixed counters.
/// </summary>
public sealed class WindowCpuTests
{
    private const string Boot = "boot-1";

    [Fact]
    public async Task ReadAsync_DriverChildBurns400Ms_GeneratorCpuOfTheWindowWithin5Percent()
    {
        var generator = new GeneratorProcesses();
        using var burner = await CpuBurner.StartAsync(0.4);
        generator.Add(burner.Process);
        var window = new WindowCpu(null, generator);
        var self = ProcCounters.Process(Environment.ProcessId)!.Value.CpuSeconds;
        var start = await window.ReadAsync(CancellationToken.None);
        await burner.BurnAsync();
        var end = await window.ReadAsync(CancellationToken.None);
        // This test process is part of the generator too (other tests run in it meanwhile): its own CPU is taken out.
        var selfDuring = ProcCounters.Process(Environment.ProcessId)!.Value.CpuSeconds - self;

        var figures = window.Between(start, end, requests: 1000, generatorCores: 2);

        var driver = figures.GeneratorCpuSeconds!.Value - selfDuring;
        Assert.InRange(driver, 0.4 * 0.95 - 0.01, 0.4 * 1.05 + 0.01);
        Assert.Equal(figures.GeneratorCpuSeconds!.Value * 1e6 / 1000, figures.GeneratorCpuMicrosPerRequest!.Value, 6);
    }

    [Fact]
    public void Between_QuietSameMachine_PerRequestSharesAndNotDisturbed()
    {
        var window = new WindowCpu(null, null);
        // 2 s on 2 cores: the server used 1.0 s, the generator 0.5 s, the machine was busy 1.52 s (0.02 s others: under the resolution).
        var start = Reading(0, server: 10, generator: 5, busy: 100, idle: 300, steal: 0);
        var end = Reading(2, server: 11, generator: 5.5, busy: 101.52, idle: 302.48, steal: 0);

        var figures = window.Between(start, end, requests: 20_000, generatorCores: 2);

        Assert.Equal(2, figures.Seconds, 3);
        Assert.Equal(50, figures.ServerCpuMicrosPerRequest!.Value, 6);
        Assert.Equal(25, figures.GeneratorCpuMicrosPerRequest!.Value, 6);
        Assert.Equal(25, figures.ServerCpuPercent!.Value, 1);
        Assert.Equal(12.5, figures.GeneratorCpuPercent!.Value, 1);
        Assert.Equal(38, figures.MachineBusyPercent!.Value, 6);
        Assert.Equal(0, figures.OthersCpuCores);
        Assert.Equal(0, figures.StealPercent);
        Assert.False(figures.Disturbed);
        Assert.Null(figures.ServerMissingReason);
    }

    [Fact]
    public void Between_OthersUseAFifthOfACore_Disturbed()
    {
        var window = new WindowCpu(null, null);
        // Others used 0.43 s of 2 s (0.215 core; 0.2 after the resolution of 3 counters, 0.03 s).
        var start = Reading(0, server: 10, generator: 5, busy: 100, idle: 300, steal: 0);
        var end = Reading(2, server: 11, generator: 5.5, busy: 101.93, idle: 302.07, steal: 0);

        var figures = window.Between(start, end, requests: 100, generatorCores: 2);

        Assert.Equal(0.2, figures.OthersCpuCores!.Value, 6);
        Assert.True(figures.Disturbed);
    }

    [Fact]
    public void Between_Steal3Percent_Disturbed()
    {
        var window = new WindowCpu(null, null);
        var start = Reading(0, server: 10, generator: 5, busy: 100, idle: 300, steal: 0);
        var end = Reading(2, server: 11, generator: 5.5, busy: 101.5, idle: 302.38, steal: 0.12);

        var figures = window.Between(start, end, requests: 100, generatorCores: 2);

        Assert.Equal(3, figures.StealPercent!.Value, 6);
        Assert.True(figures.Disturbed);
    }

    [Fact]
    public void Between_HostRestartedDuringTheWindow_ServerFiguresMissingWithTheReason()
    {
        var window = new WindowCpu(null, null);
        var start = Reading(0, server: 10, generator: 5, busy: 100, idle: 300, steal: 0);
        var end = Reading(2, server: 0.3, generator: 5.5, busy: 101, idle: 303, steal: 0, hostPid: 999, hostStart: 777);

        var figures = window.Between(start, end, requests: 100, generatorCores: 2);

        Assert.Null(figures.ServerCpuSeconds);
        Assert.Null(figures.ServerCpuMicrosPerRequest);
        Assert.Null(figures.ServerCpuPercent);
        Assert.Contains("restarted during the window", figures.ServerMissingReason, StringComparison.Ordinal);
        Assert.Contains("999", figures.ServerMissingReason, StringComparison.Ordinal);
        Assert.NotNull(figures.GeneratorCpuMicrosPerRequest);
    }

    [Fact]
    public void Between_HostOnAnotherMachine_OthersOfEachMachineLessItsOwnProcesses()
    {
        var window = new WindowCpu(null, null);
        // Server machine (another boot id): busy 1.8 s of which the server 1.0 s: others there 0.8 s − resolution over 2 s.
        var start = Reading(0, server: 10, generator: 5, busy: 100, idle: 300, steal: 0, serverBoot: "other", serverBusy: 50, serverIdle: 50);
        var end = Reading(2, server: 11, generator: 5.5, busy: 100.5, idle: 303.5, steal: 0, serverBoot: "other", serverBusy: 51.8, serverIdle: 52.2);

        var figures = window.Between(start, end, requests: 100, generatorCores: 2);

        Assert.Equal((0.8 - 0.03) / 2, figures.OthersCpuCores!.Value, 6);
        Assert.Equal(45, figures.MachineBusyPercent!.Value, 6);
        Assert.True(figures.Disturbed);
    }

    private static CpuReading Reading(double seconds, double server, double generator, double busy, double idle, double steal,
        int hostPid = 100, long hostStart = 5, string serverBoot = Boot, double? serverBusy = null, double? serverIdle = null)
    {
        var machine = new MachineCpuCounters(busy, idle, steal, 2);
        var serverMachine = serverBusy is { } b ? new MachineCpuCounters(b, serverIdle!.Value, 0, 2) : machine;
        var counters = new CpuCounters([new ProcessCpu("aspnet", hostPid, hostStart, server)], serverMachine, null, serverBoot);
        return new CpuReading((long)(seconds * Stopwatch.Frequency), counters, null, generator, machine, Boot);
    }
}
