using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using System.Text.RegularExpressions;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary>The host supervises its JVM service: lists its endpoints, restarts it when it dies, never leaves it behind.</summary>
public sealed partial class JvmSupervisorTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Host_JvmStarted_ListsMetroAndIceWithWsdlReportsJvmResourcesAndTheVersionsItLoaded()
    {
        await using var host = await ServiceHostProcess.StartAsync(jvm: true);
        await host.WaitForEndpointAsync("IceTcp", Patience);

        var endpoints = await host.GetEndpointsAsync();
        using var http = host.CreateControlClient();
        var resources = await WaitForAsync<ResourceSnapshot>(async () =>
        {
            var r = await http.GetFromJsonAsync<ResourceSnapshot>(new Uri(host.ControlAddress, "resources"));
            return r?.JvmResidentMb is > 0 ? r : null;
        });

        var metro = endpoints.Single(e => e.Name == "MetroSoap11");
        Assert.Equal("metro", metro.Stack);
        Assert.Equal(metro.Address + "?wsdl", metro.Wsdl);
        Assert.Contains("<definitions", await http.GetStringAsync(new Uri(metro.Wsdl!)), StringComparison.Ordinal);
        Assert.Equal("ice", endpoints.Single(e => e.Name == "IceTcp").Stack);
        Assert.InRange(resources.JvmResidentMb!.Value, 20, 4096);
        Assert.InRange(resources.JvmCpuPercent ?? -1, 0, 100);

        // GET /versions: what the host and its JVM loaded, checked against the files themselves read another way here.
        var versions = await http.GetFromJsonAsync<Dictionary<string, Dictionary<string, string>>>(new Uri(host.ControlAddress, "versions"));
        var aspnet = versions!["aspnet"];
        var hostDirectory = Path.GetDirectoryName(ServiceHostProcess.ExecutablePath)!;
        Assert.Equal(FileVersionInfo.GetVersionInfo(Path.Combine(hostDirectory, "Grpc.AspNetCore.Server.dll")).ProductVersion!.Split('+')[0], aspnet["Grpc.AspNetCore"]);
        Assert.StartsWith("2.", aspnet["Grpc.AspNetCore"], StringComparison.Ordinal);
        Assert.StartsWith("10.", aspnet["Kestrel"], StringComparison.Ordinal);
        Assert.StartsWith("10.", aspnet["ASP.NET Core"], StringComparison.Ordinal);
        Assert.StartsWith(".NET 10.", aspnet[".NET"], StringComparison.Ordinal);
        var jvm = versions["jvm"];
        var jars = (await File.ReadAllTextAsync(Path.Combine(hostDirectory, "jvm", "classpath"))).Trim().Split(':');
        var iceJar = jars.Single(j => Path.GetFileName(j).StartsWith("ice-", StringComparison.Ordinal));
        Assert.Equal(Path.GetFileNameWithoutExtension(iceJar)["ice-".Length..], jvm["ZeroC Ice"]);
        Assert.Equal(ManifestVersion(jars.Single(j => j.EndsWith("/jaxws-rt.jar", StringComparison.Ordinal)), "Implementation-Version"), jvm["Metro (JAX-WS RI)"]);
        Assert.Equal(ManifestVersion(jars.Single(j => j.EndsWith("/gson.jar", StringComparison.Ordinal)), "Bundle-Version"), jvm["Gson"]);
        Assert.Matches(@"^OpenJDK .*\b\d+\.\d+\.\d+", jvm["Java"]);
        Assert.DoesNotContain(jvm.Values, v => v is "?" or "not on the class path");
    }

    private static string ManifestVersion(string jar, string attribute)
    {
        using var zip = System.IO.Compression.ZipFile.OpenRead(jar);
        using var reader = new StreamReader(zip.GetEntry("META-INF/MANIFEST.MF")!.Open());
        return reader.ReadToEnd().Split('\n').Select(l => l.TrimEnd('\r')).Single(l => l.StartsWith(attribute + ": ", StringComparison.Ordinal))[(attribute.Length + 2)..];
    }

    [Fact]
    public async Task Jvm_Killed_HostRestartsItAndListsItsEndpointsAgain()
    {
        await using var host = await ServiceHostProcess.StartAsync(jvm: true);
        var first = JvmOf(host.ProcessId) ?? throw new InvalidOperationException("no JVM child");

        ServiceHostProcess.Signal(first, 9);
        var second = await WaitForAsync<int>(() => Task.FromResult<object?>(JvmOf(host.ProcessId) is { } pid && pid != first ? pid : null));
        await host.WaitForEndpointAsync("MetroSoap11", Patience);

        Assert.NotEqual(first, second);
        using var http = new HttpClient();
        var health = await http.GetStringAsync(new Uri(host.ControlAddress, "healthz"));
        Assert.Contains("\"jvm\":\"up\"", health, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Jvm_ExitsAtOnceEveryTime_RestartDelaysGrowToTheCapAndTheLimitStopsTheLoop()
    {
        // A real process that exits at once with code 1 stands for a JVM that cannot start.
        await using var host = await ServiceHostProcess.StartJvmStartingAsync(
            "--Jvm:JavaPath=/bin/false", "--Jvm:RestartFirstDelaySeconds=0.25", "--Jvm:RestartMaxDelaySeconds=1",
            "--Jvm:MaxRestarts=5", "--Jvm:RestartWindowMinutes=10");
        // When each start shows in the host's output (polled every 20 ms on its own, so an HTTP call does not delay it).
        var starts = new List<DateTime>();
        using var stop = new CancellationTokenSource();
        var watcher = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                var seen = host.Output.Count(l => l.Contains("JVM service started (pid", StringComparison.Ordinal));
                lock (starts)
                {
                    while (starts.Count < seen)
                    {
                        starts.Add(DateTime.UtcNow);
                    }
                }

                await Task.Delay(20);
            }
        });
        using var http = new HttpClient();
        var health = await WaitForAsync<string>(async () =>
        {
            using var response = await http.GetAsync(new Uri(host.ControlAddress, "healthz")); // 503 while the JVM is "starting"
            var h = await response.Content.ReadAsStringAsync();
            return h.Contains("giving up", StringComparison.Ordinal) ? h : null;
        });
        await Task.Delay(TimeSpan.FromSeconds(2)); // a start after giving up would show by now
        await stop.CancelAsync();
        await watcher;

        var delays = host.Output.Select(l => RestartDelay().Match(l)).Where(m => m.Success)
            .Select(m => double.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture)).ToArray();
        Assert.Equal([0.25, 0.5, 1, 1, 1], delays);
        Assert.Equal(6, host.Output.Count(l => l.Contains("JVM service started (pid", StringComparison.Ordinal)));
        using var healthz = System.Text.Json.JsonDocument.Parse(health);
        Assert.Equal("down", healthz.RootElement.GetProperty("stacks").GetProperty("jvm").GetString());
        Assert.Equal("restarted 5 times in 10 min, giving up (last exit code 1)", healthz.RootElement.GetProperty("reasons").GetProperty("jvm").GetString());
        Assert.Contains(host.Output, l => l.Contains("JVM service exited with code 1; restarted 5 times in 10 min, giving up (last exit code 1)", StringComparison.Ordinal));
        // The waits really happened: first to last start took at least the delays' sum (3.75 s), less the polling's slack;
        // without them the six starts of /bin/false take well under a second.
        Assert.Equal(6, starts.Count);
        Assert.True((starts[5] - starts[0]).TotalSeconds >= delays.Sum() - 0.5, $"six starts within {(starts[5] - starts[0]).TotalSeconds:0.000} s");
    }

    [GeneratedRegex(@"JVM service exited with code 1; restart \d+ of at most 5 in 10 min, in ([0-9.]+) s")]
    private static partial Regex RestartDelay();

    [Theory]
    [InlineData(15)]
    [InlineData(2)]
    [InlineData(9)]
    public async Task Host_StoppedBySignal_LeavesNoJvmBehind(int signal)
    {
        var host = await ServiceHostProcess.StartAsync(jvm: true);
        var jvm = JvmOf(host.ProcessId) ?? throw new InvalidOperationException("no JVM child");

        ServiceHostProcess.Signal(host.ProcessId, signal);
        try
        {
            await host.Process.WaitForExitAsync().WaitAsync(Patience);
        }
        catch (TimeoutException)
        {
            // Say what the host was doing when it did not stop. Seen with SIGINT (2026-11-27 and 2026-11-28) when the test run
            // was a background job, SIGINT inherited ignored: tests/Shared/SignalDefaults.cs now gives the host a default one.
            throw new TimeoutException($"the host did not exit within {Patience.TotalSeconds:0} s of signal {signal}; its last lines: {string.Join(" | ", host.Output.TakeLast(12))}");
        }
        finally
        {
            await host.DisposeAsync();
        }

        // SIGTERM/SIGINT: the host closes the JVM's input and waits; SIGKILL: the JVM sees end of input by itself.
        await WaitForAsync<bool>(() => Task.FromResult<object?>(Directory.Exists($"/proc/{jvm}") && !IsZombie(jvm) ? null : true));
    }

    private static int? JvmOf(int hostPid)
    {
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            try
            {
                var stat = File.ReadAllText(Path.Combine(dir, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                if (int.Parse(fields[1], CultureInfo.InvariantCulture) == hostPid && stat.Contains("(java)", StringComparison.Ordinal) && fields[0] != "Z")
                {
                    return pid;
                }
            }
            catch (IOException)
            {
                // The process ended while we looked.
            }
        }

        return null;
    }

    private static bool IsZombie(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].StartsWith('Z');
        }
        catch (IOException)
        {
            return true;
        }
    }

    /// <summary>Polls <paramref name="probe"/> every 200 ms until it gives a value (boxed for value types), for up to <see cref="Patience"/>.</summary>
    private static async Task<T> WaitForAsync<T>(Func<Task<object?>> probe)
    {
        var deadline = DateTime.UtcNow + Patience;
        while (DateTime.UtcNow < deadline)
        {
            if (await probe() is T value)
            {
                return value;
            }

            await Task.Delay(200);
        }

        throw new TimeoutException("the condition did not hold within " + Patience);
    }
}
