using System.Diagnostics;
using System.Text;

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// The built runner's <c>agent</c> command as its own process (optionally inside a <see cref="TestNamespace"/>: another
/// machine), its standard input held open (<c>--stop-at-stdin-eof</c>: <see cref="CloseInput"/> stops it as a dying parent
/// would) and its stderr collected. Disposing kills it if it still runs.
/// </summary>
public sealed class AgentProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _stderr = new();
    private readonly Task _pump;

    private AgentProcess(Process process)
    {
        _process = process;
        _pump = Task.Run(async () =>
        {
            while (await process.StandardError.ReadLineAsync() is { } line)
            {
                lock (_stderr)
                {
                    _stderr.AppendLine(line);
                }
            }
        });
        _ = process.StandardOutput.ReadToEndAsync();
    }

    /// <summary>The agent's process id (of <c>ip netns exec</c>, which execs the runner, inside a namespace).</summary>
    public int ProcessId => _process.Id;

    /// <summary>Whether it exited.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Its stderr so far.</summary>
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

    /// <summary>Starts <c>agent --connection CONNECTION --stop-at-stdin-eof [--name NAME] [extra]</c>, inside <paramref name="inside"/> when given.</summary>
    /// <param name="connection">The connection string.</param>
    /// <param name="name">The agent's name, or null for the default.</param>
    /// <param name="tmp">Its TMPDIR.</param>
    /// <param name="inside">The namespace to run in, or null.</param>
    /// <param name="extra">More arguments.</param>
    /// <param name="cpus">A <c>taskset -c</c> CPU list to pin it to from its start (so its core count is that list's), or null.</param>
    public static AgentProcess Start(string connection, string? name, string tmp, TestNamespace? inside = null, IEnumerable<string>? extra = null, string? cpus = null)
    {
        var runner = Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner");
        var arguments = new List<string> { "agent", "--connection", connection, "--stop-at-stdin-eof" };
        if (name is not null)
        {
            arguments.AddRange(["--name", name]);
        }

        arguments.AddRange(extra ?? []);
        var start = new ProcessStartInfo(cpus is null ? inside is null ? runner : "ip" : "taskset");
        if (cpus is not null)
        {
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add(cpus);
            start.ArgumentList.Add(inside is null ? runner : "ip");
        }

        if (inside is not null)
        {
            foreach (var argument in new[] { "netns", "exec", inside.Name, runner })
            {
                start.ArgumentList.Add(argument);
            }
        }
        start.RedirectStandardInput = true;
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["TMPDIR"] = tmp;
        // The control token every test host asks for (tests/Shared/ServiceHostProcess.cs; docs/security.md).
        start.Environment[Dashboard.Service.Contracts.Security.HostControlToken.EnvironmentVariable] = Dashboard.Tests.RealProcesses.ServiceHostProcess.TestControlToken;
        return new AgentProcess(Process.Start(start)!);
    }

    /// <summary>Closes its standard input: the agent stops as when the process that started it dies.</summary>
    public void CloseInput() => _process.StandardInput.Close();

    /// <summary>Kills it at once (SIGKILL).</summary>
    public void Kill() => _process.Kill();

    /// <summary>Waits for it to exit (at most <paramref name="timeout"/>, default 60 s) and for its stderr; returns the exit code.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan? timeout = null)
    {
        using var limit = new CancellationTokenSource(timeout ?? TimeSpan.FromSeconds(60));
        await _process.WaitForExitAsync(limit.Token);
        await _pump;
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
