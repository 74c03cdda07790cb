using System.Globalization;
using Dashboard.Runner.Tests.Support;
using Dashboard.Runner.Topologies;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Topologies;

/// <summary>
/// The built runner on topology <c>emulated-lan</c> (docs/topologies.md): it makes <c>dbt-run-{its pid}</c> on
/// 10.231.31.0/24, starts the built host in it behind an htb-shaped veth pair, runs, and removes namespace, link and host
/// after a normal end, a cancel (SIGINT) and a SIGKILL (its watchdog, or the next runner's start).
/// </summary>
public sealed class EmulatedLanTests : IDisposable
{
    private const string Subnet = "10.231.31.0/24";
    private readonly string _work = Directory.CreateTempSubdirectory("emulated-lan-").FullName;

    /// <inheritdoc />
    public void Dispose() => Directory.Delete(_work, recursive: true);

    [RootFact]
    public async Task Run_Bytes256KOver100Mbit_ThroughputWithinTheShapedRateAndLanRemovedAfter()
    {
        var (runner, csv) = Start("""
            {"name":"lan rate","host":"http://localhost:5090","topology":"emulated-lan","linkRateMbps":100,
             "variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Bytes256K"],"levels":[8],"duration":"00:00:05","warmup":2}
            """);
        using (runner)
        {
            Assert.True(await NamespaceAppearsAsync(runner.ProcessId), "the runner's namespace never appeared: " + runner.Stderr);
            var exit = await runner.WaitForExitAsync(TimeSpan.FromMinutes(5));
            Assert.True(exit == 0, $"exit {exit}: {runner.Stderr}");
            AssertRemoved(runner.ProcessId);
        }

        var lines = File.ReadAllLines(csv);
        var header = lines[0].Split(',').ToList();
        var fields = lines[1].Split(',');
        string Field(string column) => fields[header.IndexOf(column)];
        var throughput = double.Parse(Field("throughput_rps"), CultureInfo.InvariantCulture);
        var responseBytes = double.Parse(Field("mean_response_bytes"), CultureInfo.InvariantCulture);
        var megabits = throughput * responseBytes * 8 / 1e6;
        // The replies alone (HTTP framing included, TCP/IP headers not) must fit the 100 Mbit/s link; the link, not the
        // machine, is what bounds 8 clients of 256 KB replies (loopback carries several Gbit/s here).
        Assert.InRange(megabits, 40, 100);
        Assert.Equal("emulated-lan", Field("topology"));
        Assert.Equal("100", Field("link_rate_mbps"));
        Assert.Equal("0", Field("errors"));
    }

    [RootFact]
    public async Task Run_CancelledWithSigint_LanRemovedAndExit130()
    {
        var (runner, _) = Start(LongScenario);
        using (runner)
        {
            Assert.True(await runner.WaitForLineAsync("\"run-started\"", timeout: TimeSpan.FromMinutes(4)), "no run-started: " + runner.Stderr);
            Assert.Contains(NamespaceOf(runner.ProcessId), TestNamespace.Namespaces());
            ServiceHostProcess.Signal(runner.ProcessId, 2);
            Assert.Equal(130, await runner.WaitForExitAsync(TimeSpan.FromMinutes(2)));
            AssertRemoved(runner.ProcessId);
        }
    }

    [RootFact]
    public async Task Run_RunnerKilledWithSigkill_WatchdogRemovesTheLan()
    {
        var (runner, _) = Start(LongScenario);
        using (runner)
        {
            Assert.True(await runner.WaitForLineAsync("\"run-started\"", timeout: TimeSpan.FromMinutes(4)), "no run-started: " + runner.Stderr);
            var hostPids = TestNamespace.Run("ip", "netns", "pids", NamespaceOf(runner.ProcessId)).Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            Assert.NotEmpty(hostPids);
            ServiceHostProcess.Signal(runner.ProcessId, 9);
            await runner.WaitForExitAsync(TimeSpan.FromMinutes(1));

            Assert.True(await Eventually.HoldsAsync(() => !TestNamespace.Namespaces().Contains(NamespaceOf(runner.ProcessId)), TimeSpan.FromSeconds(20)),
                "the namespace outlived the killed runner by 20 s");
            AssertRemoved(runner.ProcessId);
            // Killed (a zombie until its new parent reaps it) or gone.
            Assert.True(await Eventually.HoldsAsync(() => hostPids.All(pid => !IsRunning(pid.Trim())), TimeSpan.FromSeconds(10)),
                $"a host process ({string.Join(", ", hostPids)}) outlived the runner");
        }
    }

    [RootFact]
    public async Task Run_LeftoverOfADeadRunner_RemovedByTheNextStart()
    {
        // A leftover as a SIGKILLed runner whose watchdog was killed too would leave it: pid 4194303 is above any pid here
        // (pid_max is at most 4194304) and so is not running.
        const int DeadPid = 4_194_303;
        var name = EmulatedLan.NamespacePrefix + DeadPid.ToString(CultureInfo.InvariantCulture);
        var link = $"dbt{DeadPid}g";
        TestNamespace.Ip("netns", "add", name);
        try
        {
            TestNamespace.Ip("link", "add", link, "type", "veth", "peer", "name", $"dbt{DeadPid}h");
            TestNamespace.Ip("link", "set", $"dbt{DeadPid}h", "netns", name);
            var path = Path.Combine(_work, "unreachable.json");
            await File.WriteAllTextAsync(path, """
                {"name":"leftovers","host":"http://127.0.0.1:1","variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Int"],"levels":[1],"requestsPerClient":1}
                """);
            using var runner = RunnerProcess.Start(path, Path.Combine(_work, "leftovers.db"), _work);

            Assert.Equal(3, await runner.WaitForExitAsync()); // the host does not answer; the leftovers were removed first
            Assert.Contains($"removed the emulated LAN {name}", runner.Stderr, StringComparison.Ordinal);
            Assert.DoesNotContain(name, TestNamespace.Namespaces());
            Assert.False(TestNamespace.LinkExists(link));
        }
        finally
        {
            TestNamespace.Run("ip", "netns", "del", name);
            TestNamespace.Run("ip", "link", "del", link);
        }
    }

    private const string LongScenario = """
        {"name":"lan long","host":"http://localhost:5090","topology":"emulated-lan",
         "variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Int"],"levels":[2],"duration":"00:05:00","warmup":1}
        """;

    private (RunnerProcess Runner, string Csv) Start(string scenario)
    {
        var path = Path.Combine(_work, $"scenario-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, scenario);
        var csv = Path.Combine(_work, $"levels-{Guid.NewGuid():N}.csv");
        // The host's own data folder: its certificates name the namespace's address, without touching the machine's.
        var security = Path.Combine(_work, "host-data", "security");
        return (RunnerProcess.Start(path, Path.Combine(_work, "results.db"), _work,
            extraArguments: ["--lan-subnet", Subnet, "--security-dir", security, "--levels-csv", csv, "--host-executable", ServiceHostProcess.ExecutablePath]), csv);
    }

    private static bool IsRunning(string pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..][0] != 'Z';
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static string NamespaceOf(int pid) => EmulatedLan.NamespacePrefix + pid.ToString(CultureInfo.InvariantCulture);

    private static Task<bool> NamespaceAppearsAsync(int pid) =>
        Eventually.HoldsAsync(() => TestNamespace.Namespaces().Contains(NamespaceOf(pid)), TimeSpan.FromMinutes(1));

    private static void AssertRemoved(int pid)
    {
        Assert.DoesNotContain(NamespaceOf(pid), TestNamespace.Namespaces());
        Assert.False(TestNamespace.LinkExists($"dbt{pid.ToString(CultureInfo.InvariantCulture)}g"), "the generator's veth end outlived the run");
    }
}
