using System.Diagnostics;
using System.Net.Http.Json;
using System.Runtime.InteropServices;
using System.Text.Json;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Tests.RealProcesses;

/// <summary>
/// The real service host executable (src/Service/Host, built with the solution), started on free ports with its own
/// Unix socket folder and its own data folder (so its own security material, docs/security.md), for tests on real
/// sockets. Every test host asks for <see cref="TestControlToken"/> on its control API (docs/security.md) unless started with
/// <see cref="GeneratedTokenArgument"/>; <see cref="CreateControlClient"/> sends the right one. Disposing stops it with
/// SIGTERM (SIGKILL after 10 s) and removes the folders it made.
/// </summary>
public sealed partial class ServiceHostProcess : IAsyncDisposable
{
    /// <summary>The variants a test host serves, each on a port the OS chooses: the catalogue's network variants.</summary>
    public static readonly string[] VariantsWithPorts = [.. VariantCatalogue.All.Where(v => v.IsAvailable && v.DefaultPort is not null).Select(v => v.Name)];

    private readonly Process _process;
    private readonly string _socketDirectory;
    private readonly string? _ownedDataDirectory;
    private readonly List<string> _output;
    private Task _readers = Task.CompletedTask;

    /// <summary>The control token every test host is given (<c>ServiceHost:ControlToken</c>), and runners and dashboards in tests send.</summary>
    public const string TestControlToken = "test-control-token-7f3a9c1e5b";

    /// <summary>An extra argument that starts the host without a configured token: it makes its own into <c>security/control-token</c>.</summary>
    public const string GeneratedTokenArgument = "--ServiceHost:ControlToken=";

    private ServiceHostProcess(Process process, string socketDirectory, string dataDirectory, bool ownsDataDirectory, List<string> output, Uri controlAddress, bool generatedToken)
    {
        _generatedToken = generatedToken;
        _process = process;
        _socketDirectory = socketDirectory;
        _ownedDataDirectory = ownsDataDirectory ? dataDirectory : null;
        _output = output;
        DataDirectory = dataDirectory;
        ControlAddress = controlAddress;
    }

    /// <summary>The host's data folder (<c>ServiceHost:DataDirectory</c>): a temporary folder of its own unless the test gave one.</summary>
    public string DataDirectory { get; }

    /// <summary>The host's security folder, <c>&lt;DataDirectory&gt;/security</c>: CA, key stores, <c>credentials.json</c> (docs/security.md).</summary>
    public string SecurityDirectory => Path.Combine(DataDirectory, "security");

    /// <summary>Every line the host wrote to stdout and stderr so far (all of them once it is disposed).</summary>
    public IReadOnlyList<string> Output
    {
        get
        {
            lock (_output)
            {
                return [.. _output];
            }
        }
    }

    private readonly bool _generatedToken;

    /// <summary>The token the control API asks for: <see cref="TestControlToken"/>, or the one the host made in <see cref="SecurityDirectory"/>.</summary>
    public string ControlToken => _generatedToken
        ? HostControlToken.ReadFile(SecurityDirectory) ?? throw new InvalidOperationException($"no {HostControlToken.FileName} in {SecurityDirectory}")
        : TestControlToken;

    /// <summary>A new client that sends <see cref="ControlToken"/> on every request (the caller disposes it).</summary>
    public HttpClient CreateControlClient()
    {
        var http = new HttpClient();
        http.DefaultRequestHeaders.Authorization = HostControlToken.Header(ControlToken);
        return http;
    }

    /// <summary>The control API's base address, e.g. <c>http://127.0.0.1:41234/</c>.</summary>
    public Uri ControlAddress { get; }

    /// <summary>The host's process id.</summary>
    public int ProcessId => _process.Id;

    /// <summary>The host's process.</summary>
    public Process Process => _process;

    /// <summary>The host executable built beside the tests: <c>src/Service/Host/bin/{Configuration}/net10.0/Dashboard.Service.Host</c>.</summary>
    public static string ExecutablePath
    {
        get => Path.Combine(RepositoryPaths.Root, "src", "Service", "Host", "bin", RepositoryPaths.Configuration, "net10.0", "Dashboard.Service.Host");
    }

    /// <summary>Starts the host and waits until its control API answers and the aspnet variants listen.</summary>
    /// <param name="jvm">True to let the host start the JVM service (metro, ice); false for the aspnet stack only.</param>
    /// <param name="extraArguments">More <c>--Section:Key=value</c> arguments.</param>
    public static Task<ServiceHostProcess> StartAsync(bool jvm = false, params string[] extraArguments) =>
        StartAsync(Directory.CreateTempSubdirectory("host-data-").FullName, ownsDataDirectory: true, jvm, extraArguments);

    /// <summary>Starts the host on the data folder <paramref name="dataDirectory"/>, which the test owns (it is not removed): restarts on the same material.</summary>
    /// <param name="dataDirectory">The data folder (<c>ServiceHost:DataDirectory</c>).</param>
    /// <param name="jvm">True to let the host start the JVM service (metro, ice); false for the aspnet stack only.</param>
    /// <param name="extraArguments">More <c>--Section:Key=value</c> arguments.</param>
    public static Task<ServiceHostProcess> StartWithDataDirectoryAsync(string dataDirectory, bool jvm = false, params string[] extraArguments) =>
        StartAsync(dataDirectory, ownsDataDirectory: false, jvm, extraArguments);

    /// <summary>Starts a host with the JVM stacks and returns as soon as its control API answers, while the JVM still starts.</summary>
    /// <param name="extraArguments">More <c>--Section:Key=value</c> arguments (e.g. <c>--Jvm:JavaPath=/bin/false</c>).</param>
    public static Task<ServiceHostProcess> StartJvmStartingAsync(params string[] extraArguments) =>
        StartAsync(Directory.CreateTempSubdirectory("host-data-").FullName, ownsDataDirectory: true, jvm: true, extraArguments, waitForJvm: false);

    /// <summary>
    /// Starts a host (without the JVM) as the dashboard starts its local host: in the executable's own folder, whose
    /// <c>appsettings.json</c> (control address, log levels) is then the one in the working directory.
    /// </summary>
    public static Task<ServiceHostProcess> StartInItsFolderAsync(params string[] extraArguments) =>
        StartAsync(Directory.CreateTempSubdirectory("host-data-").FullName, ownsDataDirectory: true, jvm: false, extraArguments, workingDirectory: Path.GetDirectoryName(ExecutablePath));

    private static async Task<ServiceHostProcess> StartAsync(string dataDirectory, bool ownsDataDirectory, bool jvm, string[] extraArguments, bool waitForJvm = true, string? workingDirectory = null)
    {
        if (!File.Exists(ExecutablePath))
        {
            throw new FileNotFoundException($"the service host is not built: {ExecutablePath}");
        }

        var socketDirectory = Directory.CreateTempSubdirectory("host-sockets-").FullName;
        var start = new ProcessStartInfo(ExecutablePath) { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true };
        if (workingDirectory is not null)
        {
            start.WorkingDirectory = workingDirectory;
        }

        start.ArgumentList.Add("--urls=http://127.0.0.1:0");
        start.ArgumentList.Add($"--ServiceHost:SocketDirectory={socketDirectory}");
        start.ArgumentList.Add($"--ServiceHost:DataDirectory={dataDirectory}");
        start.ArgumentList.Add($"--Jvm:Enabled={jvm}");
        start.ArgumentList.Add($"--ServiceHost:ControlToken={TestControlToken}");
        // Stops with this test process however it ends (standard input is a pipe this process keeps open; ParentWatch).
        start.ArgumentList.Add("--ServiceHost:StopAtStdinEof=true");
        foreach (var variant in VariantsWithPorts)
        {
            start.ArgumentList.Add($"--ServiceHost:Ports:{variant}=0");
        }

        foreach (var argument in extraArguments)
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        ProcessStarts.Record("service-host");
        var ready = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var output = new List<string>();
        var stdout = Task.Run(async () =>
        {
            while (await process.StandardOutput.ReadLineAsync() is { } line)
            {
                lock (output)
                {
                    output.Add(line);
                }

                var match = ReadyLine().Match(line);
                if (match.Success)
                {
                    ready.TrySetResult(new Uri(match.Groups[1].Value + "/"));
                }
            }

            ready.TrySetException(new InvalidOperationException($"the service host exited before it was ready: {string.Join(" | ", output)}"));
        });
        var stderr = Task.Run(async () =>
        {
            while (await process.StandardError.ReadLineAsync() is { } line)
            {
                lock (output)
                {
                    output.Add(line);
                }
            }
        });

        Uri address;
        try
        {
            address = await ready.Task.WaitAsync(TimeSpan.FromSeconds(60));
        }
        catch (Exception) when (!process.HasExited)
        {
            process.Kill(entireProcessTree: true); // a host that never became ready must not outlive the test
            throw;
        }

        var host = new ServiceHostProcess(process, socketDirectory, dataDirectory, ownsDataDirectory, output, address, extraArguments.Contains(GeneratedTokenArgument))
        {
            _readers = Task.WhenAll(stdout, stderr),
        };
        if (jvm && waitForJvm)
        {
            try
            {
                await host.WaitForEndpointAsync("MetroSoap11", TimeSpan.FromSeconds(180)); // the JVM's own start limit (JvmOptions)
            }
            catch (TimeoutException)
            {
                await host.DisposeAsync(); // stops the host and its JVM: a failed fixture would leave them running
                throw;
            }
        }

        return host;
    }

    /// <summary>The host's <c>GET /endpoints</c>.</summary>
    public async Task<HostEndpoint[]> GetEndpointsAsync()
    {
        using var http = CreateControlClient();
        return (await http.GetFromJsonAsync<HostEndpoint[]>(new Uri(ControlAddress, "endpoints"), JsonSerializerOptions.Web))!;
    }

    /// <summary>Waits until <c>GET /endpoints</c> lists <paramref name="variant"/>.</summary>
    public async Task WaitForEndpointAsync(string variant, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if ((await GetEndpointsAsync()).Any(e => e.Name == variant))
            {
                return;
            }

            await Task.Delay(200);
        }

        var jvmLines = Output.Where(l => l.Contains("JVM", StringComparison.Ordinal)).TakeLast(4);
        throw new TimeoutException($"the host did not list {variant} within {timeout}; its last JVM lines: {string.Join(" | ", jvmLines)}");
    }

    /// <summary>Sends <paramref name="signal"/> (15 = SIGTERM, 2 = SIGINT, 9 = SIGKILL) to process <paramref name="pid"/>.</summary>
    public static void Signal(int pid, int signal)
    {
        if (Kill(pid, signal) != 0)
        {
            throw new InvalidOperationException($"kill({pid}, {signal}) failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            Signal(_process.Id, 15);
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            try
            {
                await _process.WaitForExitAsync(grace.Token);
            }
            catch (OperationCanceledException)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        // Every line the host wrote is in Output once it is disposed (the readers end at the pipes' end).
        try
        {
            await _readers.WaitAsync(TimeSpan.FromSeconds(10));
        }
        catch (TimeoutException)
        {
        }

        _process.Dispose();
        if (Directory.Exists(_socketDirectory))
        {
            Directory.Delete(_socketDirectory, recursive: true);
        }

        if (_ownedDataDirectory is not null && Directory.Exists(_ownedDataDirectory))
        {
            Directory.Delete(_ownedDataDirectory, recursive: true);
        }
    }

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);

    [System.Text.RegularExpressions.GeneratedRegex(@"Service host ready: control API on (http://[^\s,]+)")]
    private static partial System.Text.RegularExpressions.Regex ReadyLine();
}
