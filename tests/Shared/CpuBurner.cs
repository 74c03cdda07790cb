using System.Diagnostics;

namespace Dashboard.Tests.RealProcesses;

/// <summary>
/// A real child process (python3) that burns a known CPU time on request, in a thread that then ends: the known truth
/// of the CPU accounting tests (issue #32: "a child that burns a known CPU time is accounted within 5 %"). It says
/// "ready", waits for <see cref="BurnAsync"/>, spins until its own <c>process_time</c> (user + system) has grown by
/// <see cref="Seconds"/>, says "done", and ends when its input closes (<see cref="Dispose"/>).
/// </summary>
public sealed class CpuBurner : IDisposable
{
    private const string Script = """
        import sys, threading, time
        seconds = float(sys.argv[1])
        sys.stdout.write("ready\n"); sys.stdout.flush()
        sys.stdin.readline()
        def spin():
            start = time.process_time()
            while time.process_time() - start < seconds:
                pass
        t = threading.Thread(target=spin); t.start(); t.join()
        sys.stdout.write("done\n"); sys.stdout.flush()
        sys.stdin.read()
        """;

    private CpuBurner(Process process, double seconds)
    {
        Process = process;
        Seconds = seconds;
    }

    /// <summary>The child process.</summary>
    public Process Process { get; }

    /// <summary>The CPU time it burns per <see cref="BurnAsync"/>, s.</summary>
    public double Seconds { get; }

    /// <summary>Starts the child and waits for its "ready" line.</summary>
    /// <exception cref="InvalidOperationException">It did not say "ready".</exception>
    public static async Task<CpuBurner> StartAsync(double seconds = 0.4)
    {
        var process = Process.Start(new ProcessStartInfo("/usr/bin/python3", ["-c", Script, seconds.ToString(System.Globalization.CultureInfo.InvariantCulture)])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
        })!;
        var burner = new CpuBurner(process, seconds);
        var first = await process.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(60));
        if (first != "ready")
        {
            burner.Dispose();
            throw new InvalidOperationException($"the burner said '{first}' instead of 'ready'");
        }

        return burner;
    }

    /// <summary>Burns <see cref="Seconds"/> of CPU time and returns when the child says "done" (at most 60 s).</summary>
    /// <exception cref="InvalidOperationException">It did not say "done".</exception>
    public async Task BurnAsync()
    {
        await Process.StandardInput.WriteLineAsync("go");
        await Process.StandardInput.FlushAsync();
        var line = await Process.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(60));
        if (line != "done")
        {
            throw new InvalidOperationException($"the burner said '{line}' instead of 'done'");
        }
    }

    /// <summary>Closes its input (it ends) and kills it if it has not ended within 5 s.</summary>
    public void Dispose()
    {
        Process.StandardInput.Close();
        if (!Process.WaitForExit(5000))
        {
            Process.Kill();
        }

        Process.Dispose();
    }
}
