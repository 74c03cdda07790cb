namespace Dashboard.Runner.Execution;

/// <summary>
/// "One benchmark at a time per machine" (docs/architecture.md): an exclusive lock on a well-known file, held for the
/// whole run, so a headless run and a dashboard run (or two runners) cannot measure each other. The operating
/// system releases it when the process ends, crashed or not.
/// </summary>
public sealed class MachineBenchmarkLock : IDisposable
{
    private readonly FileStream _file;

    private MachineBenchmarkLock(FileStream file)
    {
        _file = file;
    }

    /// <summary>The lock file every runner on this machine uses: <c>dashboard-benchmark.lock</c> in the temp directory.</summary>
    public static string DefaultPath { get; } = Path.Combine(Path.GetTempPath(), "dashboard-benchmark.lock");

    /// <summary>Takes the lock at <paramref name="path"/> (an exclusive <c>flock</c>), and writes this process's id beside it, in <c>PATH.pid</c>.</summary>
    /// <exception cref="BenchmarkBusyException">Another process holds it; the message names that process's id when known.</exception>
    public static MachineBenchmarkLock Acquire(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        FileStream file;
        try
        {
            file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        catch (IOException e)
        {
            var holder = ReadHolder(path);
            throw new BenchmarkBusyException(
                $"another benchmark is running on this machine{(holder is null ? "" : $" (process {holder})")}; runs on one machine measure each other, so wait for it to end",
                e);
        }

        File.WriteAllText(path + ".pid", Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return new MachineBenchmarkLock(file);
    }

    /// <summary>Releases the lock.</summary>
    public void Dispose() => _file.Dispose();

    private static string? ReadHolder(string path)
    {
        try
        {
            var content = File.ReadAllText(path + ".pid").Trim();
            return content.Length == 0 ? null : content;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}

/// <summary>Another benchmark holds the machine; the message is one line.</summary>
public sealed class BenchmarkBusyException : Exception
{
    /// <summary>Creates the error with its one-line <paramref name="message"/>.</summary>
    public BenchmarkBusyException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
