using System.Diagnostics;
using System.Text;

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// The built runner executable started as a user would (<c>run --scenario FILE --db FILE --progress json</c>), with its
/// stdout lines (progress events) and stderr collected as they come. Given its own TMPDIR, so its machine-wide
/// benchmark lock cannot collide with runners other test assemblies start. Disposing kills it if it still runs.
/// </summary>
public sealed class RunnerProcess : IDisposable
{
    private readonly Process _process;
    private readonly List<string> _stdout = [];
    private readonly StringBuilder _stderr = new();
    private readonly Task _pumps;

    private RunnerProcess(Process process)
    {
        _process = process;
        _pumps = Task.WhenAll(
            Task.Run(async () =>
            {
                while (await process.StandardOutput.ReadLineAsync() is { } line)
                {
                    lock (_stdout)
                    {
                        _stdout.Add(line);
                    }
                }
            }),
            Task.Run(async () =>
            {
                while (await process.StandardError.ReadLineAsync() is { } line)
                {
                    lock (_stderr)
                    {
                        _stderr.AppendLine(line);
                    }
                }
            }));
    }

    /// <summary>The runner's process id.</summary>
    public int ProcessId => _process.Id;

    /// <summary>True once the runner has exited.</summary>
    public bool HasExited() => _process.HasExited;

    /// <summary>The runner's exit code, once it exited.</summary>
    public int ExitCode => _process.ExitCode;

    /// <summary>Everything the runner wrote on stderr so far.</summary>
    public string Stderr
    {
        get
        {
            lock (_stderr)
            {
                return _stderr.ToString();
            }
        }
    }

    /// <summary>The stdout lines so far.</summary>
    public string[] Lines
    {
        get
        {
            lock (_stdout)
            {
                return [.. _stdout];
            }
        }
    }

    /// <summary>Starts the runner on <paramref name="scenarioPath"/> and <paramref name="databasePath"/>, with <paramref name="tmp"/> as TMPDIR.</summary>
    /// <param name="scenarioPath">The scenario file.</param>
    /// <param name="databasePath">The results database.</param>
    /// <param name="tmp">TMPDIR of the runner.</param>
    /// <param name="environment">More environment variables (<c>DASHBOARD_HOST_TOKEN</c> is the test hosts' token unless given here).</param>
    /// <param name="extraArguments">More <c>run</c> arguments (<c>--security-dir DIR</c>, <c>--levels-csv FILE</c>, ...).</param>
    /// <param name="runnerDirectory">Where the runner executable is; default beside the tests (no java driver there: use the runner's own build output for java).</param>
    public static RunnerProcess Start(string scenarioPath, string databasePath, string tmp, IDictionary<string, string>? environment = null, IEnumerable<string>? extraArguments = null, string? runnerDirectory = null)
    {
        var start = new ProcessStartInfo(Path.Combine(runnerDirectory ?? AppContext.BaseDirectory, "Dashboard.Runner"))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "run", "--scenario", scenarioPath, "--db", databasePath, "--progress", "json" }.Concat(extraArguments ?? []))
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["TMPDIR"] = tmp;
        // The control token every test host asks for (tests/Shared/ServiceHostProcess.cs; docs/security.md); a test may
        // override it through environment ("" leaves the runner without one).
        start.Environment[Dashboard.Service.Contracts.Security.HostControlToken.EnvironmentVariable] = Dashboard.Tests.RealProcesses.ServiceHostProcess.TestControlToken;
        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }

        return new RunnerProcess(Process.Start(start)!);
    }

    /// <summary>Waits until a stdout line contains <paramref name="text"/> <paramref name="count"/> times; false on timeout or exit.</summary>
    public Task<bool> WaitForLineAsync(string text, int count = 1, TimeSpan? timeout = null) =>
        Eventually.HoldsAsync(() => Lines.Count(l => l.Contains(text, StringComparison.Ordinal)) >= count || _process.HasExited, timeout ?? TimeSpan.FromSeconds(90))
            .ContinueWith(_ => Lines.Count(l => l.Contains(text, StringComparison.Ordinal)) >= count, TaskScheduler.Default);

    /// <summary>Waits for the runner to exit (at most <paramref name="timeout"/>, default 3 minutes) and for its output to be read.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan? timeout = null)
    {
        using var limit = new CancellationTokenSource(timeout ?? TimeSpan.FromMinutes(3));
        await _process.WaitForExitAsync(limit.Token);
        await _pumps;
        return _process.ExitCode;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
    }
}
