using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Net.Sockets;
using System.Text.Json;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Security;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.Hosting;

/// <summary>
/// <c>Dashboard.Service.Host supervise …</c> (<c>HostSupervisor</c>), the real executable: a host on another machine
/// started this way answers <c>POST /restart</c> with a fresh process on the same address (issue #32 item 3), and
/// nothing it started outlives it, whether it is stopped with SIGTERM or killed.
/// </summary>
public sealed class HostSupervisorTests
{
    private const string Token = "supervisor-test-token-4d2e8b";
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task Restart_AFreshHostProcessOnTheSameAddress_ThenSigtermStopsBothWithCode0()
    {
        await using var supervised = Supervised.Start();
        using var http = Supervised.ControlClient();
        var first = await supervised.WaitForHostAsync(previous: null);

        using var restart = await http.PostAsync(new Uri(supervised.Address, "restart"), content: null);
        Assert.Equal(HttpStatusCode.Accepted, restart.StatusCode);
        Assert.Equal(first, (await restart.Content.ReadFromJsonAsync<HostRestartAccepted>(JsonSerializerOptions.Web))!.ProcessId);
        var second = await supervised.WaitForHostAsync(previous: first);

        Assert.NotEqual(first, second);
        Assert.False(IsRunning(first), $"the first host (pid {first}) still runs");
        ServiceHostProcess.Signal(supervised.Process.Id, 15);
        await supervised.Process.WaitForExitAsync(new CancellationTokenSource(Limit).Token);
        Assert.Equal(0, supervised.Process.ExitCode);
        Assert.False(IsRunning(second), $"the second host (pid {second}) outlived its supervisor");
        var output = supervised.Output;
        Assert.Contains(output, l => l.Contains($"service host pid {second} started (a fresh process for a run's next launch: pid {first} ended on POST /restart)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task SupervisorKilled_TheHostStopsToo()
    {
        await using var supervised = Supervised.Start();
        var host = await supervised.WaitForHostAsync(previous: null);

        ServiceHostProcess.Signal(supervised.Process.Id, 9);

        var watch = Stopwatch.StartNew();
        while (IsRunning(host) && watch.Elapsed < Limit)
        {
            await Task.Delay(200);
        }

        Assert.False(IsRunning(host), $"the host (pid {host}) outlived its killed supervisor by {watch.Elapsed}");
    }

    [Fact]
    public async Task HostEndsOtherwise_TheSupervisorEndsWithItsExitCode()
    {
        // A control token the host refuses at start: it exits with an error, and is not started again.
        await using var supervised = Supervised.Start("--ServiceHost:ControlToken=short");

        await supervised.Process.WaitForExitAsync(new CancellationTokenSource(Limit).Token);

        Assert.NotEqual(0, supervised.Process.ExitCode);
        Assert.Single(supervised.Output, l => l.Contains("supervisor: service host pid", StringComparison.Ordinal) && l.Contains(" started", StringComparison.Ordinal));
        Assert.Contains(supervised.Output, l => l.Contains("not restarted", StringComparison.Ordinal));
    }

    private static bool IsRunning(int pid) => File.Exists($"/proc/{pid}/stat") && !File.ReadAllText($"/proc/{pid}/stat").Split(") ")[1].StartsWith('Z');

    /// <summary>
    /// A free port below the ephemeral range (32768–60999 here): the control address must stay free while the host is
    /// between two processes, and ports the OS hands out (other tests' port-0 servers, outgoing connections) never land there.
    /// </summary>
    private static int FreePort()
    {
        while (true)
        {
            var port = Random.Shared.Next(20_000, 32_000);
            using var listener = new TcpListener(IPAddress.Loopback, port);
            try
            {
                listener.Start();
                return port;
            }
            catch (SocketException)
            {
                // taken: try another
            }
        }
    }

    private sealed class Supervised : IAsyncDisposable
    {
        private readonly string _folder;
        private readonly List<string> _output = [];

        private Supervised(Process process, Uri address, string folder)
        {
            Process = process;
            Address = address;
            _folder = folder;
        }

        public Process Process { get; }

        public Uri Address { get; }

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

        public static Supervised Start(params string[] extra)
        {
            var folder = Directory.CreateTempSubdirectory("supervised-host-").FullName;
            var port = FreePort();
            var start = new ProcessStartInfo(ServiceHostProcess.ExecutablePath) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var argument in (string[])
                [HostSupervisor, "--urls", $"http://127.0.0.1:{port}", $"--ServiceHost:DataDirectory={folder}/data",
                 $"--ServiceHost:SocketDirectory={folder}/sockets", "--Jvm:Enabled=false", $"--ServiceHost:ControlToken={Token}", .. extra])
            {
                start.ArgumentList.Add(argument);
            }

            foreach (var variant in ServiceHostProcess.VariantsWithPorts)
            {
                start.ArgumentList.Add($"--ServiceHost:Ports:{variant}=0");
            }

            var supervised = new Supervised(Process.Start(start)!, new Uri($"http://127.0.0.1:{port}/"), folder);
            ProcessStarts.Record("service-host");
            supervised.Process.OutputDataReceived += (_, e) => supervised.Add(e.Data);
            supervised.Process.ErrorDataReceived += (_, e) => supervised.Add(e.Data);
            supervised.Process.BeginOutputReadLine();
            supervised.Process.BeginErrorReadLine();
            return supervised;
        }

        public static HttpClient ControlClient()
        {
            var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
            http.DefaultRequestHeaders.Authorization = HostControlToken.Header(Token);
            return http;
        }

        /// <summary>Waits until the host answers <c>GET /cpu</c> with an aspnet process other than <paramref name="previous"/>; returns its pid.</summary>
        public async Task<int> WaitForHostAsync(int? previous)
        {
            using var http = ControlClient();
            var watch = Stopwatch.StartNew();
            while (watch.Elapsed < Limit)
            {
                Assert.False(Process.HasExited, $"the supervisor exited: {string.Join(" | ", Output)}");
                try
                {
                    var counters = await http.GetFromJsonAsync<JsonElement>(new Uri(Address, "cpu"));
                    var pid = counters.GetProperty("processes").EnumerateArray().First(p => p.GetProperty("stack").GetString() == "aspnet").GetProperty("processId").GetInt32();
                    if (pid != previous)
                    {
                        return pid;
                    }
                }
                catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
                {
                    // not listening yet, or between two hosts
                }

                await Task.Delay(200);
            }

            throw new TimeoutException($"no host other than {previous} answered within {Limit}: {string.Join(" | ", Output)}");
        }

        public async ValueTask DisposeAsync()
        {
            if (!Process.HasExited)
            {
                Process.Kill(entireProcessTree: true);
                await Process.WaitForExitAsync();
            }

            Process.Dispose();
            Directory.Delete(_folder, recursive: true);
        }

        private void Add(string? line)
        {
            if (line is not null)
            {
                lock (_output)
                {
                    _output.Add(line);
                }
            }
        }

        /// <summary>The first argument of the supervised mode (<c>HostSupervisor.Command</c>; the tests do not reference the host's assembly).</summary>
        private const string HostSupervisor = "supervise";
    }
}
