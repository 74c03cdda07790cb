namespace Dashboard.Runner.CommandLine;

/// <summary>
/// <c>--stop-at-stdin-eof</c>: the process that started the runner keeps the write end of the runner's standard input
/// open and never writes to it. When that process ends, however it ends (SIGKILL included), the kernel closes the pipe and
/// a read here returns end of input: the run is cancelled and ends Interrupted, and the drivers, whose standard input the
/// runner holds, end the same way (docs/architecture.md, "A process tree that dies together").
/// </summary>
/// <remarks>
/// Why not <c>prctl(PR_SET_PDEATHSIG)</c>: Linux sends that signal when the parent <em>thread</em> that forked the child
/// ends, and .NET starts processes from whatever thread-pool thread runs the call, which may retire at any moment, so a
/// child would be killed while its parent still runs; setting it also needs code between fork and exec, which .NET's
/// <c>Process.Start</c> does not offer. A pipe's end of input depends on the process only, and the JVM service already
/// stops that way.
/// </remarks>
public static class ParentWatch
{
    /// <summary>Reads standard input on a background thread until it ends, then cancels <paramref name="parentGone"/>.</summary>
    public static void Start(CancellationTokenSource parentGone)
    {
        ArgumentNullException.ThrowIfNull(parentGone);
        var thread = new Thread(() =>
        {
            using var input = Console.OpenStandardInput();
            var buffer = new byte[256];
            try
            {
                while (input.Read(buffer, 0, buffer.Length) > 0)
                {
                }
            }
            catch (IOException)
            {
            }

            Console.Error.WriteLine("note: standard input ended: the process that started the runner is gone; stopping the run");
            try
            {
                parentGone.Cancel();
            }
            catch (ObjectDisposedException)
            {
            }
        })
        {
            IsBackground = true,
            Name = "parent-watch",
        };
        thread.Start();
    }
}
