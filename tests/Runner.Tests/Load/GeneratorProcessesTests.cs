using System.Diagnostics;
using Dashboard.Runner.Load;

namespace Dashboard.Runner.Tests.Load;

public sealed class GeneratorProcessesTests
{
    [Fact]
    public async Task TotalCpu_DriverBusyThenRemoved_KeepsTheDriversCpuInTheTotal()
    {
        var generator = new GeneratorProcesses();
        var before = generator.TotalCpu();
        using var busy = Process.Start(new ProcessStartInfo("bash", ["-c", "for i in $(seq 1 400000); do :; done; sleep 0.3"]))!;
        generator.Add(busy);
        var whileTracked = before;
        while (!busy.HasExited)
        {
            // As the resource poller does.
            whileTracked = generator.TotalCpu();
            await Task.Delay(50);
        }

        await busy.WaitForExitAsync();
        Assert.True(generator.TotalCpu() >= whileTracked, "an ended driver keeps its last reading");

        generator.Remove(busy);
        var after = generator.TotalCpu();

        Assert.True(whileTracked - before > TimeSpan.FromMilliseconds(200), $"tracked driver CPU {(whileTracked - before).TotalMilliseconds} ms");
        Assert.True(after >= whileTracked - TimeSpan.FromMilliseconds(50), $"{after} < {whileTracked}");
    }
}
