using Dashboard.Runner.Execution;

namespace Dashboard.Runner.Tests.Execution;

public sealed class RunEnvironmentTests
{
    [Fact]
    public void Capture_LoopbackHost_ServerCoresCpuKernelAndRuntimes()
    {
        var environment = RunEnvironment.Capture(new Uri("http://127.0.0.1:5090"));

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
    public void Capture_OtherHost_ServerCoresUnknown()
    {
        var environment = RunEnvironment.Capture(new Uri("http://192.0.2.10:5090"));

        // The topology itself is the executor's to record (RunTopology, docs/topologies.md), not a guess from the address.
        Assert.Null(environment.Topology);
        Assert.Null(environment.ServerCores);
    }
}
