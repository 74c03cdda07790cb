using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.RealProcesses;

/// <summary>The test assemblies give the processes they start a default SIGINT (tests/Shared/SignalDefaults.cs).</summary>
public class SignalDefaultsTests
{
    [Theory]
    [InlineData("Name:\tdotnet\nSigIgn:\t0000000000000006\nSigCgt:\t0000000000000000\n", true)] // a background job's: SIGINT and SIGQUIT
    [InlineData("Name:\tdotnet\nSigIgn:\t0000000000001004\n", false)] // SIGQUIT and SIGPIPE only
    [InlineData("Name:\tdotnet\nSigIgn:\t0000000000000002\n", true)]
    [InlineData("Name:\tdotnet\n", false)]
    public void SigintIgnored_StatusText_ReadsSigintsBit(string status, bool expected) =>
        Assert.Equal(expected, SignalDefaults.SigintIgnored(status));

    [Fact]
    public void ThisProcess_AfterTheModuleInitializer_DoesNotIgnoreSigint()
    {
        // Run under `trap "" INT` (as a background job is), this holds only because the initializer set SIGINT back.
        Assert.False(SignalDefaults.SigintIgnored(File.ReadAllText("/proc/self/status")));
    }
}
