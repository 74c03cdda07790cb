using Dashboard.Runner.Execution;

namespace Dashboard.Runner.Tests.Execution;

public sealed class RunEnvironmentTests
{
    [Fact]
    public void Capture_LoopbackHost_SameMachineWithCpuCoresKernelAndRuntimes()
    {
        var environment = RunEnvironment.Capture(new Uri("http://127.0.0.1:5090"));

        Assert.Equal("same-machine", environment.Topology);
        Assert.Equal(Environment.ProcessorCount, environment.GeneratorCores);
        Assert.True(environment.MachineCores >= environment.GeneratorCores);
        Assert.Equal(environment.MachineCores, environment.ServerCores);
        Assert.False(string.IsNullOrWhiteSpace(environment.CpuModel));
        Assert.Equal(File.ReadAllText("/proc/sys/kernel/osrelease").Trim(), environment.Kernel);
        Assert.True(environment.MachineMemoryMb > 0);
        Assert.StartsWith("v", environment.NodeVersion, StringComparison.Ordinal); // node is on the PATH here (the node driver needs it)
        Assert.Contains("Runner", environment.Versions.Keys);
    }

    [Fact]
    public void Capture_OtherHost_OtherMachineAndServerCoresUnknown()
    {
        var environment = RunEnvironment.Capture(new Uri("http://192.0.2.10:5090"));

        Assert.Equal("other-machine", environment.Topology);
        Assert.Null(environment.ServerCores);
    }
}
