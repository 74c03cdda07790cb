using System.Diagnostics;
using System.Globalization;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Tests.Contracts.Resources;

/// <summary><see cref="CpuAffinity"/>: the kernel's CPU list format, and a real process's affinity before and after a <c>taskset -p</c>.</summary>
public sealed class CpuAffinityTests
{
    [Theory]
    [InlineData("0", new[] { 0 })]
    [InlineData("0-1", new[] { 0, 1 })]
    [InlineData(" 0-1,3\n", new[] { 0, 1, 3 })]
    [InlineData("4,1-2", new[] { 1, 2, 4 })]
    public void Parse_KernelCpuList_CoresAscending(string list, int[] expected) => Assert.Equal(expected, CpuAffinity.Parse(list).Order());

    [Theory]
    [InlineData("a")]
    [InlineData("0-x")]
    [InlineData("-1")]
    public void Parse_NotACpuList_FormatException(string list) => Assert.Throws<FormatException>(() => CpuAffinity.Parse(list));

    [Fact]
    public void AllowedCores_NoSuchFileOrNoList_Null()
    {
        var file = Path.GetTempFileName();
        try
        {
            File.WriteAllText(file, "Name:\tx\nCpus_allowed:\t3\n");
            Assert.Null(CpuAffinity.AllowedCores(file));
            Assert.Null(CpuAffinity.AllowedCores(file + ".missing"));
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void AllowedCores_ProcessPinnedAfterItStarted_FollowsThePinning()
    {
        Assert.True(Environment.ProcessorCount >= 2, "needs two cores to pin a process to one of them");
        using var sleeper = Process.Start(new ProcessStartInfo("sleep", ["30"]))!;
        try
        {
            var status = $"/proc/{sleeper.Id.ToString(CultureInfo.InvariantCulture)}/status";
            Assert.Equal(Enumerable.Range(0, Environment.ProcessorCount), CpuAffinity.AllowedCores(status)!.Order());

            using var taskset = Process.Start(new ProcessStartInfo("taskset", ["-p", "-c", "1", sleeper.Id.ToString(CultureInfo.InvariantCulture)]) { RedirectStandardOutput = true })!;
            taskset.WaitForExit();
            Assert.Equal(0, taskset.ExitCode);

            Assert.Equal([1], CpuAffinity.AllowedCores(status)!.Order());
        }
        finally
        {
            sleeper.Kill();
            sleeper.WaitForExit();
        }
    }

    [Fact]
    public void CoreCount_ThisProcess_CountOfItsAllowedCores() =>
        Assert.Equal(CpuAffinity.AllowedCores()!.Count, CpuAffinity.CoreCount());
}
