using System.Diagnostics;
using Dashboard.Runner.Execution;

namespace Dashboard.Runner.Tests.Execution;

public sealed class MachineBenchmarkLockTests : IDisposable
{
    private readonly string _path = Path.Combine(Path.GetTempPath(), $"lock-test-{Guid.NewGuid():N}.lock");

    public void Dispose()
    {
        File.Delete(_path);
        File.Delete(_path + ".pid");
    }

    [Fact]
    public void Acquire_WhileHeld_IsRefusedNamingTheHolder()
    {
        using var first = MachineBenchmarkLock.Acquire(_path);

        var error = Assert.Throws<BenchmarkBusyException>(() => MachineBenchmarkLock.Acquire(_path));

        Assert.Contains($"process {Environment.ProcessId}", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Acquire_AfterRelease_Succeeds()
    {
        MachineBenchmarkLock.Acquire(_path).Dispose();

        using var again = MachineBenchmarkLock.Acquire(_path);

        Assert.Equal(Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture), File.ReadAllText(_path + ".pid"));
    }

    [Fact]
    public void Acquire_HeldByAnotherProcess_IsRefused()
    {
        // flock(1) holds an exclusive lock on the file, as a second runner process would.
        using var holder = Process.Start(new ProcessStartInfo("flock", ["-x", _path, "sleep", "5"]))!;
        try
        {
            var deadline = Stopwatch.StartNew();
            BenchmarkBusyException? refused = null;
            while (refused is null && deadline.Elapsed < TimeSpan.FromSeconds(4))
            {
                try
                {
                    MachineBenchmarkLock.Acquire(_path).Dispose();
                    Thread.Sleep(50);
                }
                catch (BenchmarkBusyException e)
                {
                    refused = e;
                }
            }

            Assert.NotNull(refused);
        }
        finally
        {
            holder.Kill();
            holder.WaitForExit();
        }
    }
}
