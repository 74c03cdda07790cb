using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.Json;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Topologies;

/// <summary>
/// The <c>emulated-lan</c> topology (docs/topologies.md): a network namespace <c>dbt-run-{runner pid}</c> holding the
/// service host, joined to the generator's namespace by a veth pair (<c>dbt{pid}g</c> here, <c>dbt{pid}h</c> there) on a
/// private /24 (default <c>10.231.0.0/24</c>: generator .1, host .2), the link shaped on both ends with one htb class to
/// the rate (Mbit/s); the host pinned to its cores with <c>taskset</c>, the runner (and the drivers it starts) to the
/// others. No delay is added: this kernel has no netem. Made for one run and removed by <see cref="DisposeAsync"/>
/// (normal end, failure, Ctrl+C); a watchdog process removes it if the runner is killed (SIGKILL), and every start
/// first removes what a dead runner left (<see cref="RemoveLeftovers"/>).
/// </summary>
public sealed class EmulatedLan : IAsyncDisposable
{
    /// <summary>Prefix of every namespace a runner makes; the part after it is the runner's process id.</summary>
    public const string NamespacePrefix = "dbt-run-";

    /// <summary>The default private /24 of the emulated link.</summary>
    public const string DefaultSubnet = "10.231.0.0/24";

    /// <summary>The control API's port inside the namespace (it has its own port space, so the defaults never collide).</summary>
    public const int ControlPort = 5090;

    private const int CapNetAdmin = 12;
    private readonly Action<string> _notice;
    private readonly List<string> _hostOutput = [];
    private Process? _host;
    private Process? _watchdog;
    private string? _restoreAffinity;
    private bool _disposed;

    private EmulatedLan(EmulatedLanSettings settings, string name, IPAddress generatorAddress, IPAddress hostAddress, IReadOnlyList<int> hostCores, IReadOnlyList<int> generatorCores, Action<string> notice)
    {
        Settings = settings;
        Namespace = name;
        GeneratorAddress = generatorAddress;
        HostAddress = hostAddress;
        HostCores = hostCores;
        GeneratorCores = generatorCores;
        _notice = notice;
    }

    /// <summary>What was asked for.</summary>
    public EmulatedLanSettings Settings { get; }

    /// <summary>The namespace's name, <c>dbt-run-{pid}</c>.</summary>
    public string Namespace { get; }

    /// <summary>The veth end in the generator's namespace.</summary>
    public string GeneratorLink { get; } = LinkName(Environment.ProcessId, 'g');

    /// <summary>The generator's address on the link.</summary>
    public IPAddress GeneratorAddress { get; }

    /// <summary>The host's address on the link.</summary>
    public IPAddress HostAddress { get; }

    /// <summary>The cores the host (and its JVM) runs on.</summary>
    public IReadOnlyList<int> HostCores { get; }

    /// <summary>The cores the runner and its drivers run on.</summary>
    public IReadOnlyList<int> GeneratorCores { get; }

    /// <summary>
    /// The control token of the host this LAN starts (docs/security.md): made at random for this run and handed to the
    /// host through its environment (<c>ServiceHost__ControlToken</c>), so the runner knows it whatever its data folder holds.
    /// </summary>
    public string ControlToken { get; } = Service.Contracts.Security.HostControlToken.Generate();

    /// <summary>The host's control API, e.g. <c>http://10.231.0.2:5090</c>.</summary>
    public Uri HostControlAddress => new($"http://{HostAddress}:{ControlPort}");

    /// <summary>
    /// Makes the namespace and link, starts the host in it and pins host and runner, then waits until every stack of the
    /// host is up (at most <see cref="EmulatedLanSettings.StartTimeout"/>).
    /// </summary>
    /// <exception cref="TopologyRefusedException">The topology cannot be made here: no CAP_NET_ADMIN, <c>ip</c>/<c>tc</c>/<c>taskset</c> missing, too few cores, a bad subnet.</exception>
    /// <exception cref="TopologyFailedException">A step failed (its command and error named) or the host did not come up; everything made is removed.</exception>
    public static async Task<EmulatedLan> StartAsync(EmulatedLanSettings settings, Action<string> notice, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentNullException.ThrowIfNull(notice);
        Refuse(settings, out var generatorAddress, out var hostAddress, out var hostCores, out var generatorCores);
        foreach (var removed in RemoveLeftovers())
        {
            notice($"removed the emulated LAN {removed} left by a runner that no longer runs");
        }

        var pid = Environment.ProcessId;
        var lan = new EmulatedLan(settings, NamespacePrefix + pid.ToString(CultureInfo.InvariantCulture), generatorAddress, hostAddress, hostCores, generatorCores, notice);
        try
        {
            lan.StartWatchdog();
            await lan.MakeLinkAsync(cancellationToken);
            lan.StartHost();
            await lan.PinRunnerAsync(cancellationToken);
            await lan.WaitForHostAsync(cancellationToken);
            notice($"emulated LAN {lan.Namespace}: host at {lan.HostAddress} on cores {string.Join(",", hostCores)}, generator at {lan.GeneratorAddress} on cores {string.Join(",", generatorCores)}, link {settings.LinkRateMbps} Mbit/s each way (htb, no added delay)");
            return lan;
        }
        catch
        {
            await lan.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// Removes the namespaces (and their links and processes) of runners that no longer run: names
    /// <c>dbt-run-{pid}</c> whose pid is gone. Returns the names removed. Needs CAP_NET_ADMIN; without it, nothing.
    /// </summary>
    public static IReadOnlyList<string> RemoveLeftovers()
    {
        if (!HasCapability(CapNetAdmin) || !ToolExists("ip"))
        {
            return [];
        }

        var removed = new List<string>();
        foreach (var name in ListNamespaces().Where(n => n.StartsWith(NamespacePrefix, StringComparison.Ordinal)))
        {
            if (int.TryParse(name.AsSpan(NamespacePrefix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && !IsAlive(pid))
            {
                Remove(name, LinkName(pid, 'g'));
                removed.Add(name);
            }
        }

        return removed;
    }

    /// <summary>Names of the network namespaces that exist now (<c>ip netns list</c>).</summary>
    public static IReadOnlyList<string> ListNamespaces()
    {
        var (code, output, _) = Run("ip", ["netns", "list"]);
        return code != 0 ? [] : [.. output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(l => l.Split(' ')[0])];
    }

    /// <summary>True when a network link of that name exists in this namespace.</summary>
    public static bool LinkExists(string name) => Run("ip", ["link", "show", name]).Code == 0;

    /// <summary>Stops the host (SIGTERM, then SIGKILL after 15 s), kills what is left in the namespace, removes namespace and link, unpins the runner, ends the watchdog. Idempotent.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (_host is { HasExited: false } host)
        {
            Signal(host.Id, 15);
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(15));
            try
            {
                await host.WaitForExitAsync(grace.Token);
            }
            catch (OperationCanceledException)
            {
                host.Kill(entireProcessTree: true);
            }
        }

        _host?.Dispose();
        Remove(Namespace, GeneratorLink);
        if (_restoreAffinity is { } all)
        {
            Run("taskset", ["-a", "-cp", all, Environment.ProcessId.ToString(CultureInfo.InvariantCulture)]);
        }

        if (_watchdog is { HasExited: false } watchdog)
        {
            watchdog.Kill(entireProcessTree: true);
        }

        _watchdog?.Dispose();
    }

    private static void Refuse(EmulatedLanSettings settings, out IPAddress generator, out IPAddress host, out IReadOnlyList<int> hostCores, out IReadOnlyList<int> generatorCores)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new TopologyRefusedException("topology 'emulated-lan' needs Linux network namespaces");
        }

        if (!HasCapability(CapNetAdmin))
        {
            throw new TopologyRefusedException("topology 'emulated-lan' needs CAP_NET_ADMIN (run the runner as root or give it the capability): without it no network namespace, veth link or htb class can be made");
        }

        foreach (var tool in new[] { "ip", "tc", "taskset" })
        {
            if (!ToolExists(tool))
            {
                throw new TopologyRefusedException($"topology 'emulated-lan' needs '{tool}' (Debian packages iproute2 and util-linux)");
            }
        }

        var parts = settings.Subnet.Split('/');
        if (parts.Length != 2 || parts[1] != "24" || !IPAddress.TryParse(parts[0], out var network) || network.AddressFamily != System.Net.Sockets.AddressFamily.InterNetwork
            || network.GetAddressBytes()[3] != 0 || !IsPrivate(network))
        {
            throw new TopologyRefusedException($"--lan-subnet '{settings.Subnet}' is not a private IPv4 /24 such as {DefaultSubnet} (10/8, 172.16/12 or 192.168/16; the address ends in .0)");
        }

        var bytes = network.GetAddressBytes();
        bytes[3] = 1;
        generator = new IPAddress(bytes);
        bytes[3] = 2;
        host = new IPAddress(bytes);

        var allowed = AllowedCores();
        var hostCount = settings.HostCores ?? Math.Max(1, allowed.Count / 2);
        if (hostCount >= allowed.Count)
        {
            throw new TopologyRefusedException(
                $"hostCores: {hostCount} core(s) for the host leaves none for the generator; this runner may use {allowed.Count} core(s) ({string.Join(",", allowed)}): topology 'emulated-lan' needs at least 2");
        }

        hostCores = [.. allowed.Skip(allowed.Count - hostCount)];
        generatorCores = [.. allowed.Take(allowed.Count - hostCount)];
    }

    private static bool IsPrivate(IPAddress address)
    {
        var b = address.GetAddressBytes();
        return b[0] == 10 || (b[0] == 172 && b[1] is >= 16 and <= 31) || (b[0] == 192 && b[1] == 168);
    }

    private void StartWatchdog()
    {
        // Outlives a SIGKILLed runner by at most half a second: waits while the runner (same pid and start time, not a
        // zombie) lives, then removes what the runner made. Its own session, so Ctrl+C in a terminal does not reach it.
        var pid = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        var script = $$"""
            start=$(cut -d' ' -f22 /proc/{{pid}}/stat)
            while s=$(cut -d' ' -f3,22 /proc/{{pid}}/stat 2>/dev/null) && [ "$s" = "${s%% *} $start" ] && [ "${s%% *}" != Z ]; do sleep 0.5; done
            for p in $(ip netns pids {{Namespace}} 2>/dev/null); do kill -9 $p 2>/dev/null; done
            ip netns del {{Namespace}} 2>/dev/null
            ip link del {{GeneratorLink}} 2>/dev/null
            exit 0
            """;
        var start = new ProcessStartInfo("setsid") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "sh", "-c", script })
        {
            start.ArgumentList.Add(argument);
        }

        _watchdog = Process.Start(start) ?? throw new TopologyFailedException("cannot start the emulated LAN's watchdog (setsid sh)");
    }

    private async Task MakeLinkAsync(CancellationToken cancellationToken)
    {
        var hostLink = LinkName(Environment.ProcessId, 'h');
        var rate = $"{Settings.LinkRateMbps}mbit";
        string[][] steps =
        [
            ["ip", "netns", "add", Namespace],
            ["ip", "link", "add", GeneratorLink, "type", "veth", "peer", "name", hostLink],
            ["ip", "link", "set", hostLink, "netns", Namespace],
            ["ip", "addr", "add", $"{GeneratorAddress}/24", "dev", GeneratorLink],
            ["ip", "link", "set", GeneratorLink, "up"],
            ["ip", "-n", Namespace, "addr", "add", $"{HostAddress}/24", "dev", hostLink],
            ["ip", "-n", Namespace, "link", "set", hostLink, "up"],
            ["ip", "-n", Namespace, "link", "set", "lo", "up"],
            // One htb class on each end: generator → host on this end, host → generator (the replies) on the other.
            ["tc", "qdisc", "add", "dev", GeneratorLink, "root", "handle", "1:", "htb", "default", "10"],
            ["tc", "class", "add", "dev", GeneratorLink, "parent", "1:", "classid", "1:10", "htb", "rate", rate, "ceil", rate],
            ["tc", "-n", Namespace, "qdisc", "add", "dev", hostLink, "root", "handle", "1:", "htb", "default", "10"],
            ["tc", "-n", Namespace, "class", "add", "dev", hostLink, "parent", "1:", "classid", "1:10", "htb", "rate", rate, "ceil", rate],
        ];
        foreach (var step in steps)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var (code, _, error) = Run(step[0], step[1..]);
            if (code != 0)
            {
                throw new TopologyFailedException($"emulated LAN: '{string.Join(' ', step)}' failed (exit {code}): {error.Trim()}");
            }
        }

        await Task.CompletedTask;
    }

    private void StartHost()
    {
        if (!File.Exists(Settings.HostExecutable))
        {
            throw new TopologyRefusedException($"--host-executable: the service host is not built: {Settings.HostExecutable}");
        }

        var start = new ProcessStartInfo("ip") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true };
        string[] arguments =
        [
            "netns", "exec", Namespace, "taskset", "-c", string.Join(",", HostCores), Settings.HostExecutable,
            $"--urls=http://{HostAddress}:{ControlPort}",
            $"--ServiceHost:BindAddress={HostAddress}",
            $"--ServiceHost:DataDirectory={Settings.HostDataDirectory}",
            .. Settings.HostArguments,
        ];
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Its control token goes through the environment (never the command line, which every user of the machine reads);
        // ip netns exec and taskset keep the environment.
        start.Environment["ServiceHost__ControlToken"] = ControlToken;
        // The server keeps .NET's default socket completions whatever the generator runs with (SocketCompletions).
        start.Environment.Remove(SocketCompletions.Variable);
        // ip netns exec and taskset exec the host: this process is the host itself.
        _host = Process.Start(start) ?? throw new TopologyFailedException("cannot start the service host in the namespace");
        _host.OutputDataReceived += (_, e) => Keep(e.Data);
        _host.ErrorDataReceived += (_, e) => Keep(e.Data);
        _host.BeginOutputReadLine();
        _host.BeginErrorReadLine();
    }

    private void Keep(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_hostOutput)
        {
            _hostOutput.Add(line);
            if (_hostOutput.Count > 40)
            {
                _hostOutput.RemoveAt(0);
            }
        }
    }

    private async Task PinRunnerAsync(CancellationToken cancellationToken)
    {
        _restoreAffinity = string.Join(",", AllowedCores());
        // -a: every thread of the runner; the drivers it starts later inherit the mask.
        var (code, _, error) = Run("taskset", ["-a", "-cp", string.Join(",", GeneratorCores), Environment.ProcessId.ToString(CultureInfo.InvariantCulture)]);
        if (code != 0)
        {
            throw new TopologyFailedException($"cannot pin the runner to cores {string.Join(",", GeneratorCores)}: {error.Trim()}");
        }

        await Task.CompletedTask;
        cancellationToken.ThrowIfCancellationRequested();
    }

    private async Task WaitForHostAsync(CancellationToken cancellationToken)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        var deadline = DateTime.UtcNow + Settings.StartTimeout;
        var last = "no answer yet";
        while (DateTime.UtcNow < deadline)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_host is { HasExited: true } host)
            {
                throw new TopologyFailedException($"the service host in {Namespace} exited (code {host.ExitCode}) before it was ready: {string.Join(" | ", HostOutput().TakeLast(6))}");
            }

            try
            {
                using var health = JsonDocument.Parse(await http.GetStringAsync(new Uri(HostControlAddress, "healthz"), cancellationToken));
                var stacks = health.RootElement.GetProperty("stacks").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString());
                last = string.Join(", ", stacks.Select(s => $"{s.Key} {s.Value}"));
                if (stacks.Count > 0 && stacks.Values.All(s => s is "up" or "disabled"))
                {
                    return;
                }
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException or JsonException or KeyNotFoundException or InvalidOperationException && !cancellationToken.IsCancellationRequested)
            {
                last = e.Message;
            }

            await Task.Delay(250, cancellationToken);
        }

        throw new TopologyFailedException($"the service host in {Namespace} was not up within {Settings.StartTimeout.TotalSeconds:0} s ({last}); its last lines: {string.Join(" | ", HostOutput().TakeLast(6))}");
    }

    private string[] HostOutput()
    {
        lock (_hostOutput)
        {
            return [.. _hostOutput];
        }
    }

    private static void Remove(string name, string generatorLink)
    {
        var (code, output, _) = Run("ip", ["netns", "pids", name]);
        if (code == 0)
        {
            foreach (var pid in output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                if (int.TryParse(pid, NumberStyles.None, CultureInfo.InvariantCulture, out var p))
                {
                    Signal(p, 9);
                }
            }
        }

        Run("ip", ["netns", "del", name]);
        if (LinkExists(generatorLink))
        {
            Run("ip", ["link", "del", generatorLink]); // deleting the namespace removes both ends; this catches a half-made pair
        }
    }

    private static string LinkName(int pid, char side) => $"dbt{pid.ToString(CultureInfo.InvariantCulture)}{side}";

    private static bool IsAlive(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var state = stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[0];
            return state != "Z";
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>The cores this process may run on now, ascending (<see cref="CpuAffinity"/>; every core where it cannot be read).</summary>
    internal static IReadOnlyList<int> AllowedCores() =>
        CpuAffinity.AllowedCores() is { Count: > 0 } cores ? [.. cores] : [.. Enumerable.Range(0, Environment.ProcessorCount)];

    private static bool HasCapability(int capability)
    {
        try
        {
            var line = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("CapEff:", StringComparison.Ordinal));
            return line is not null && (ulong.Parse(line["CapEff:".Length..].Trim(), NumberStyles.HexNumber, CultureInfo.InvariantCulture) & (1UL << capability)) != 0;
        }
        catch (Exception e) when (e is IOException or FormatException)
        {
            return false;
        }
    }

    private static bool ToolExists(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "/usr/sbin:/usr/bin:/sbin:/bin").Split(':').Append("/usr/sbin").Append("/sbin")
            .Any(dir => File.Exists(Path.Combine(dir, tool)));

    private static void Signal(int pid, int signal)
    {
        try
        {
            using var kill = Process.Start(new ProcessStartInfo("kill") { ArgumentList = { $"-{signal}", pid.ToString(CultureInfo.InvariantCulture) }, RedirectStandardError = true });
            kill?.WaitForExit();
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // kill(1) missing: nothing more to do here; the namespace removal below still runs
        }
    }

    private static (int Code, string Output, string Error) Run(string file, IEnumerable<string> arguments) => Execution.ShortCommand.Run(file, arguments);
}

/// <summary>What an <see cref="EmulatedLan"/> is made with.</summary>
/// <param name="LinkRateMbps">The link's rate, Mbit/s, each direction.</param>
/// <param name="HostCores">Cores for the host; null: half of the runner's allowed cores (at least 1).</param>
/// <param name="Subnet">The private /24 of the link, e.g. <c>10.231.0.0/24</c> (generator .1, host .2).</param>
/// <param name="HostExecutable">The service host executable.</param>
/// <param name="HostDataDirectory">The host's data folder (its <c>security/</c> is the runner's <c>--security-dir</c>).</param>
/// <param name="HostArguments">More host arguments (<c>--Section:Key=value</c>).</param>
/// <param name="StartTimeout">How long the host (and its JVM) may take to be up.</param>
public sealed record EmulatedLanSettings(int LinkRateMbps, int? HostCores, string Subnet, string HostExecutable, string HostDataDirectory, IReadOnlyList<string> HostArguments, TimeSpan StartTimeout);

/// <summary>The topology cannot be used here; the message says why (no CAP_NET_ADMIN, a tool missing, too few cores). Exit 2.</summary>
public sealed class TopologyRefusedException(string message) : Exception(message);

/// <summary>Making the topology failed; the message names the step. Everything made is removed. Exit 3.</summary>
public sealed class TopologyFailedException(string message) : Exception(message);
