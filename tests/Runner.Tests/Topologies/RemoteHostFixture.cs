using System.Diagnostics;
using System.Text.Json;
using Dashboard.Runner.Tests.Support;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Topologies;

/// <summary>
/// One service host in a network namespace of the tests' own at 10.231.21.2 (another machine, as far as the network
/// goes), bound to 0.0.0.0 and asking for <see cref="ServiceHostProcess.TestControlToken"/>; started once for the
/// <see cref="RemoteHostTests"/> (a host with its JVM takes 30 s to several minutes to start on a busy 2-core machine).
/// </summary>
public sealed class RemoteHostFixture : IAsyncLifetime
{
    /// <summary>How long the host may take until every stack says <c>up</c> (JVM start and key generation included).</summary>
    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(5);

    private readonly List<string> _hostOutput = [];
    private Process? _host;

    /// <summary>The fixture's own folder: the host's data and sockets, and whatever the tests write.</summary>
    public string Work { get; } = Directory.CreateTempSubdirectory("remote-host-").FullName;

    /// <summary>The namespace the host runs in; null when the tests do not run as root.</summary>
    public TestNamespace? Namespace { get; private set; }

    /// <summary>The host's control API as the root namespace reaches it.</summary>
    public Uri Control => new($"http://{Namespace!.Address}:5090/");

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        if (!RootFactAttribute.IsRoot)
        {
            return;
        }

        try
        {
            await StartAsync();
        }
        catch
        {
            // xUnit does not dispose a fixture whose start failed: leave no namespace or process behind.
            await DisposeAsync();
            throw;
        }
    }

    /// <inheritdoc />
    public Task DisposeAsync()
    {
        if (_host is { HasExited: false })
        {
            _host.Kill(entireProcessTree: true);
            _host.WaitForExit();
        }

        _host?.Dispose();
        _host = null;
        Namespace?.Dispose();
        Namespace = null;
        if (Directory.Exists(Work))
        {
            Directory.Delete(Work, recursive: true);
        }

        return Task.CompletedTask;
    }

    private async Task StartAsync()
    {
        Namespace = TestNamespace.Create("rh", 21);
        _host = Namespace.Start(ServiceHostProcess.ExecutablePath,
        [
            "--urls=http://0.0.0.0:5090", "--ServiceHost:BindAddress=0.0.0.0", $"--ServiceHost:DataDirectory={Path.Combine(Work, "host-data")}",
            $"--ServiceHost:SocketDirectory={Path.Combine(Work, "sockets")}", "--Jvm:Enabled=true",
            $"--ServiceHost:ControlToken={ServiceHostProcess.TestControlToken}",
        ]);
        _host.OutputDataReceived += (_, e) => Keep(e.Data);
        _host.ErrorDataReceived += (_, e) => Keep(e.Data);
        _host.BeginOutputReadLine();
        _host.BeginErrorReadLine();

        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        var started = Stopwatch.StartNew();
        var lastAnswer = "no answer yet";
        while (started.Elapsed < StartTimeout && !_host.HasExited)
        {
            try
            {
                using var answer = await http.GetAsync(new Uri(Control, "healthz"));
                lastAnswer = $"{(int)answer.StatusCode} {await answer.Content.ReadAsStringAsync()}";
                using var health = JsonDocument.Parse(await answer.Content.ReadAsStringAsync());
                if (health.RootElement.GetProperty("stacks").EnumerateObject().All(s => s.Value.GetString() is "up"))
                {
                    return;
                }
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException or JsonException)
            {
                lastAnswer = $"{e.GetType().Name}: {e.Message}";
            }

            await Task.Delay(250);
        }

        throw new InvalidOperationException(
            $"the host in the namespace did not come up within {started.Elapsed.TotalSeconds:F0} s (exited: {_host.HasExited}); "
            + $"last /healthz: {lastAnswer}; host output: {string.Join(" | ", HostLines().TakeLast(8))}");
    }

    /// <summary>The host's output lines so far (standard output and error).</summary>
    public string[] HostLines()
    {
        lock (_hostOutput)
        {
            return [.. _hostOutput];
        }
    }

    private void Keep(string? line)
    {
        if (line is not null)
        {
            lock (_hostOutput)
            {
                _hostOutput.Add(line);
            }
        }
    }
}
