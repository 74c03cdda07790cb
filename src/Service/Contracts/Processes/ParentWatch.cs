namespace Dashboard.Service.Contracts.Processes;

/// <summary>
/// Stops a child process with the process that started it: that process keeps the write end of the child's standard
/// input open and never writes to it. When it ends, however it ends (SIGKILL included), the kernel closes the pipe and a
/// read here returns end of input. The runner (<c>run</c> and <c>agent --stop-at-stdin-eof</c>) and the service host
/// (<c>ServiceHost:StopAtStdinEof</c>) both stop this way (docs/architecture.md, "A process tree that dies together").
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
    /// <summary>
    /// Reads standard input on a background thread (named <c>parent-watch</c>) until it ends, then calls
    /// <paramref name="parentGone"/> once on that thread. Whatever arrives on standard input is read and dropped.
    /// </summary>
    /// <param name="parentGone">What to do when the parent is gone: cancel the run, stop the host. An <see cref="ObjectDisposedException"/> it throws (the process was stopping anyway) is ignored.</param>
    public static void Start(Action parentGone)
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

            try
            {
                parentGone();
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

    /// <summary>
    /// <see cref="Start(Action)"/> for a command-line process: at end of input writes <paramref name="note"/> to stderr
    /// (<c>note: ...</c>) and cancels <paramref name="parentGone"/>.
    /// </summary>
    public static void Start(CancellationTokenSource parentGone, string note)
    {
        ArgumentNullException.ThrowIfNull(parentGone);
        Start(() =>
        {
            Console.Error.WriteLine($"note: {note}");
            parentGone.Cancel();
        });
    }
}
