using System.Diagnostics;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Tests.Support;

namespace Dashboard.Runner.Tests.CommandLine;

/// <summary>Runs the real runner executable as a user would, and checks exit codes and the one-line errors.</summary>
public sealed class RunCommandTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("runner-cli-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task Run_MalformedScenario_ExitsTwoWithOneLineAndStoresNothing()
    {
        var (exit, _, stderr) = await RunAsync(WriteScenario("{ \"name\": \"broken\", "));

        Assert.Equal(2, exit);
        Assert.Single(Lines(stderr));
        Assert.StartsWith("error: invalid scenario", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Theory]
    [InlineData("\"variants\": [\"NamedPipeNoSec\"]", "variants[0]: unknown endpoint variant 'NamedPipeNoSec'")]
    [InlineData("\"payloads\": [\"Integer\"]", "payloads[0]: unknown payload id 'Integer'")]
    public async Task Run_UnknownId_ExitsTwoNamingTheField(string replacement, string expected)
    {
        var field = replacement[..replacement.IndexOf(':', StringComparison.Ordinal)];
        var json = Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}").Replace(
            field == "\"variants\"" ? "\"variants\": [\"AspNetHttpJson\"]" : "\"payloads\": [\"Int\"]", replacement, StringComparison.Ordinal);

        var (exit, _, stderr) = await RunAsync(WriteScenario(json));

        Assert.Equal(2, exit);
        Assert.Single(Lines(stderr));
        Assert.Contains(expected, stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task Run_AgentsInSqliteMode_ExitsTwoNamingAgentsAndPostgreSql()
    {
        var json = Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}").Replace("\"levels\": [1],", "\"levels\": [1], \"agents\": 2,", StringComparison.Ordinal)
            .Replace("\"requestsPerClient\": 5", "\"duration\": \"00:00:01\"", StringComparison.Ordinal);

        var (exit, _, stderr) = await RunAsync(WriteScenario(json));

        Assert.Equal(2, exit);
        Assert.Single(Lines(stderr));
        Assert.Contains("agents: load agents need the PostgreSQL storage", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task Run_HostNotRunning_ExitsThreeNamingTheHost()
    {
        var port = JsonHttpServer.FreePort();
        var (exit, _, stderr) = await RunAsync(WriteScenario(Scenario($"http://127.0.0.1:{port}")));

        Assert.Equal(3, exit);
        Assert.Single(Lines(stderr));
        Assert.Contains($"host http://127.0.0.1:{port}/ is not reachable", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task Run_HostListsAnEndpointThatRefusesConnections_ExitsOneWithTheReasonAndStoresTheRun()
    {
        await using var host = new JsonHttpServer(
            $$"""[{"name":"AspNetHttpJson","stack":"aspnet","address":"http://127.0.0.1:{{JsonHttpServer.FreePort()}}/","transport":"HTTP/1.1","encoding":"JSON","securityMode":"None","credentialType":"None"}]""");

        var (exit, _, stderr) = await RunAsync(WriteScenario(Scenario($"http://127.0.0.1:{host.Port}")));

        Assert.Equal(1, exit);
        Assert.Contains("error: 1 of 1 cells failed (0 of 1 levels done): AspNetHttpJson × dotnet × Int failed", stderr, StringComparison.Ordinal);
        Assert.Contains("cannot connect to AspNetHttpJson at http://127.0.0.1:", stderr, StringComparison.Ordinal);
        Assert.True(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task Run_AnotherBenchmarkHoldsTheMachine_ExitsFourAndStoresNothing()
    {
        await using var host = new JsonHttpServer(
            $$"""[{"name":"AspNetHttpJson","stack":"aspnet","address":"http://127.0.0.1:{{JsonHttpServer.FreePort()}}/","transport":"HTTP/1.1","encoding":"JSON","securityMode":"None","credentialType":"None"}]""");
        // The runners these tests start get this test's own TMPDIR (see Isolate), so their machine lock is this file.
        using var machine = MachineBenchmarkLock.Acquire(Path.Combine(_directory, "dashboard-benchmark.lock"));

        var (exit, _, stderr) = await RunAsync(WriteScenario(Scenario($"http://127.0.0.1:{host.Port}")));

        Assert.Equal(4, exit);
        Assert.Contains($"another benchmark is running on this machine (process {Environment.ProcessId})", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Theory]
    [InlineData(15)]
    [InlineData(2)]
    public async Task Run_SignalledDuringALevel_ExitsCancelledAndKeepsTheSamples(int signal)
    {
        await using var host = await Dashboard.Tests.RealProcesses.ServiceHostProcess.StartAsync();
        var scenario = WriteScenario(Scenario(host.ControlAddress.ToString().TrimEnd('/'))
            .Replace("\"levels\": [1]", "\"levels\": [1, 2]", StringComparison.Ordinal)
            .Replace("\"requestsPerClient\": 5", "\"duration\": \"00:00:30\"", StringComparison.Ordinal));
        var start = Isolate(new ProcessStartInfo(Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner")) { RedirectStandardOutput = true, RedirectStandardError = true });
        foreach (var argument in new[] { "run", "--scenario", scenario, "--db", DatabasePath, "--progress", "json" })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        // The first level's 30 s are under way once the run has started; signal 2 s into it.
        while (await process.StandardOutput.ReadLineAsync() is { } line && !line.Contains("run-started", StringComparison.Ordinal))
        {
        }

        await Task.Delay(2000);
        Dashboard.Tests.RealProcesses.ServiceHostProcess.Signal(process.Id, signal);
        _ = process.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await process.WaitForExitAsync(timeout.Token);

        Assert.Equal(130, process.ExitCode);
        Assert.Contains("cancelled after 0 of 2 levels", await stderr, StringComparison.Ordinal);
        using var db = Dashboard.Data.ResultsDatabase.Open(DatabasePath);
        var run = db.Runs.Single();
        Assert.Equal(Dashboard.Data.Entities.RunStatus.Cancelled, run.Status);
        var level = db.Levels.Single();
        Assert.True(level.Requests > 10, $"{level.Requests} requests kept");
        Assert.Equal(level.Requests, db.Samples.Count(s => !s.IsWarmup));
    }

    [Fact]
    public async Task Run_ProfileNotInCredentials_ExitsTwoNamingCredentialProfile()
    {
        var security = Directory.CreateDirectory(Path.Combine(_directory, "security")).FullName;
        await File.WriteAllTextAsync(Path.Combine(security, "ca.crt"), "not read before the host answers");
        await File.WriteAllTextAsync(Path.Combine(security, "credentials.json"), """{"profiles":{"bench":{"userName":"bench","password":"p4ss-w0rd-of-bench"}}}""");
        var json = Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}")
            .Replace("\"AspNetHttpJson\"", "\"AspNetHttpsJsonBasic\"", StringComparison.Ordinal)
            .Replace("\"requestsPerClient\"", "\"credentialProfile\": \"nobody\", \"requestsPerClient\"", StringComparison.Ordinal);

        var (exit, _, stderr) = await RunAsync(WriteScenario(json), "--security-dir", security);

        Assert.Equal(2, exit);
        Assert.Single(Lines(stderr));
        Assert.Contains("credentialProfile: profile 'nobody' is not in", stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("p4ss-w0rd-of-bench", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    [Fact]
    public async Task Run_SecureVariantWithoutSecurityFolder_ExitsTwoNamingTheFolder()
    {
        var missing = Path.Combine(_directory, "no-such-folder");
        var json = Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}").Replace("\"AspNetHttpJson\"", "\"AspNetHttpsJson\"", StringComparison.Ordinal);

        var (exit, _, stderr) = await RunAsync(WriteScenario(json), "--security-dir", missing);

        Assert.Equal(2, exit);
        Assert.Single(Lines(stderr));
        Assert.Contains($"credentialProfile: ca.crt is missing from the security folder {missing}", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_SecureVariantsOfARealHost_CompletesWithoutErrorsAndStoresNoPassword()
    {
        await using var host = await Dashboard.Tests.RealProcesses.ServiceHostProcess.StartAsync();
        var json = Scenario(host.ControlAddress.ToString().TrimEnd('/'))
            .Replace("\"variants\": [\"AspNetHttpJson\"]", "\"variants\": [\"AspNetHttpsJson\", \"AspNetHttpsJsonBasic\", \"AspNetH2TlsBinXmlCert\", \"AspNetUdsBinXmlPeer\"]", StringComparison.Ordinal);

        var (exit, stdout, stderr) = await RunAsync(WriteScenario(json), "--security-dir", host.SecurityDirectory);

        Assert.True(exit == 0, $"exit {exit}: {stderr}");
        using var db = Data.ResultsDatabase.Open(DatabasePath);
        var levels = db.Levels.ToList();
        Assert.Equal(4, levels.Count);
        Assert.All(levels, l => Assert.Equal((0, 5), (l.Errors, l.Requests)));
        var run = db.Runs.Single();
        Assert.Contains("\"credentialProfile\": \"bench\"", run.ScenarioJson, StringComparison.Ordinal);
        // The dotnet client under test keeps .NET's default completions; tiered PGO is off in the runner's runtimeconfig.
        Assert.Equal((false, false), GeneratorRuntimeOf(run.EnvironmentJson));
        var database = (await File.ReadAllBytesAsync(DatabasePath))
            .Concat(File.Exists(DatabasePath + "-wal") ? await File.ReadAllBytesAsync(DatabasePath + "-wal") : []).ToArray();
        foreach (var secret in Secrets(host.SecurityDirectory))
        {
            Assert.DoesNotContain(secret, stdout + stderr + run.ScenarioJson + run.EnvironmentJson + run.Error, StringComparison.Ordinal);
            Assert.Equal(-1, database.AsSpan().IndexOf(System.Text.Encoding.UTF8.GetBytes(secret)));
        }
    }

    [Fact]
    public async Task Run_LeanOnlyScenarioOfARealHost_InlineSocketCompletionsAndEveryReplyChecked()
    {
        // Inline completions run every socket continuation on the event thread: a synchronous wait there for other I/O
        // (a pipe, an HTTP call to the host) would hang the run. This runs the whole command that way, TLS and HTTP/2 included.
        await using var host = await Dashboard.Tests.RealProcesses.ServiceHostProcess.StartAsync();
        var json = Scenario(host.ControlAddress.ToString().TrimEnd('/'))
            .Replace("\"clients\": [\"dotnet\"]", "\"clients\": [\"lean\"]", StringComparison.Ordinal)
            .Replace("\"variants\": [\"AspNetHttpJson\"]", "\"variants\": [\"AspNetHttpJson\", \"AspNetHttpsJson\", \"AspNetGrpc\", \"AspNetH2BinXml\"]", StringComparison.Ordinal)
            .Replace("\"levels\": [1],", "\"levels\": [1, 3],", StringComparison.Ordinal);

        var (exit, _, stderr) = await RunAsync(WriteScenario(json), "--security-dir", host.SecurityDirectory);

        Assert.True(exit == 0, $"exit {exit}: {stderr}");
        using var db = Data.ResultsDatabase.Open(DatabasePath);
        var levels = db.Levels.ToList();
        Assert.Equal(8, levels.Count);
        Assert.All(levels, l => Assert.Equal(0, l.Errors));
        Assert.Equal((true, false), GeneratorRuntimeOf(db.Runs.Single().EnvironmentJson));
    }

    [Fact]
    public async Task Run_OpenScenarioOfARealHost_OneLevelPerRateStoredAndInTheLevelsCsv()
    {
        await using var host = await Dashboard.Tests.RealProcesses.ServiceHostProcess.StartAsync();
        var json = Scenario(host.ControlAddress.ToString().TrimEnd('/'))
            .Replace("\"levels\": [1],", "\"workload\": \"open\", \"rates\": [50, 100], \"p99TargetMs\": 100, \"maxConnections\": 4,", StringComparison.Ordinal)
            .Replace("\"requestsPerClient\": 5", "\"duration\": \"00:00:01\", \"warmup\": 5", StringComparison.Ordinal);
        var csv = Path.Combine(Path.GetDirectoryName(DatabasePath)!, "levels.csv");

        var (exit, _, stderr) = await RunAsync(WriteScenario(json), "--levels-csv", csv);

        Assert.True(exit == 0, $"exit {exit}: {stderr}");
        using var db = Data.ResultsDatabase.Open(DatabasePath);
        var levels = db.Levels.OrderBy(l => l.Clients).ToList();
        Assert.Equal([(50, 50L), (100, 100L)], levels.Select(l => (l.TargetRateRps ?? 0, l.Requests)));
        var lines = await File.ReadAllLinesAsync(csv);
        var header = lines[0].Split(',');
        var rate = Array.IndexOf(header, "target_rate_rps");
        Assert.True(rate > 0, lines[0]);
        Assert.Equal(["100", "50"], lines.Skip(1).Select(l => l.Split(',')[rate]).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task Run_OpenScenarioWithTheNodeClient_ExitsTwoNamingTheClient()
    {
        var json = Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}")
            .Replace("\"clients\": [\"dotnet\"]", "\"clients\": [\"node\"]", StringComparison.Ordinal)
            .Replace("\"levels\": [1],", "\"workload\": \"open\", \"rates\": [50],", StringComparison.Ordinal)
            .Replace("\"requestsPerClient\": 5", "\"duration\": \"00:00:01\"", StringComparison.Ordinal);

        var (exit, _, stderr) = await RunAsync(WriteScenario(json));

        Assert.Equal(2, exit);
        Assert.Contains("clients[0]: the node client runs closed loops", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    private static (bool Inline, bool TieredPgo) GeneratorRuntimeOf(string? environmentJson)
    {
        using var document = System.Text.Json.JsonDocument.Parse(environmentJson ?? "{}");
        var runtime = document.RootElement.GetProperty("generatorRuntime");
        return (runtime.GetProperty("inlineSocketCompletions").GetBoolean(), runtime.GetProperty("tieredPgo").GetBoolean());
    }

    private static IEnumerable<string> Secrets(string folder) =>
        Service.Contracts.Security.CredentialsDocument.Read(Path.Combine(folder, "credentials.json")).Profiles.Values.Select(p => p.Password)
            .Append(File.ReadAllText(Path.Combine(folder, "keystore.password")).Trim());

    [Fact]
    public async Task Help_ListsEveryOption()
    {
        var (exit, stdout, _) = await RunAsync(null, "run", "--help");

        Assert.Equal(0, exit);
        foreach (var option in new[] { "--scenario", "--db", "--storage", "--results-connection", "--levels-csv", "--progress", "--request-timeout", "--security-dir" })
        {
            Assert.Contains(option, stdout, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Run_PostgreSqlWithoutConnectionString_RefusesNamingTheOptionAndTheVariable()
    {
        var scenario = WriteScenario(Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}"));

        var (exit, _, stderr) = await RunAsync(null, "run", "--scenario", scenario, "--storage", "postgresql");

        Assert.NotEqual(0, exit);
        Assert.Contains("--results-connection: give the PostgreSQL connection string (or set ConnectionStrings__Results)", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_NoDatabaseFile_RefusesNamingDb()
    {
        var scenario = WriteScenario(Scenario($"http://127.0.0.1:{JsonHttpServer.FreePort()}"));

        var (exit, _, stderr) = await RunAsync(null, "run", "--scenario", scenario);

        Assert.NotEqual(0, exit);
        Assert.Contains("--db: give the results database file (or --storage postgresql)", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(DatabasePath));
    }

    private static string Scenario(string host) => $$"""
        {
          "name": "cli test",
          "host": "{{host}}",
          "variants": ["AspNetHttpJson"],
          "clients": ["dotnet"],
          "payloads": ["Int"],
          "levels": [1],
          "requestsPerClient": 5
        }
        """;

    private string WriteScenario(string json)
    {
        var path = Path.Combine(_directory, "scenario.json");
        File.WriteAllText(path, json);
        return path;
    }

    private async Task<(int Exit, string Stdout, string Stderr)> RunAsync(string? scenarioPath, params string[] arguments)
    {
        var runner = Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner.dll");
        var start = Isolate(new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true });
        start.ArgumentList.Add(runner);
        if (scenarioPath is null)
        {
            foreach (var argument in arguments)
            {
                start.ArgumentList.Add(argument);
            }
        }
        else
        {
            foreach (var argument in new[] { "run", "--scenario", scenarioPath, "--db", DatabasePath }.Concat(arguments))
            {
                start.ArgumentList.Add(argument);
            }
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        // Generous: a runner that starts, JITs and opens TLS connections on a machine shared with parallel builds.
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(240));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await stdout, await stderr);
    }

    /// <summary>
    /// Gives a runner this test's folder as TMPDIR: its machine-wide benchmark lock then cannot collide with the real
    /// runners other test assemblies start at the same time (the lock itself is tested above, in that folder); and the
    /// test hosts' control token (tests/Shared/ServiceHostProcess.cs).
    /// </summary>
    private ProcessStartInfo Isolate(ProcessStartInfo start)
    {
        start.Environment["TMPDIR"] = _directory;
        start.Environment.Remove(Data.ResultsStore.ConnectionVariable);
        start.Environment[Service.Contracts.Security.HostControlToken.EnvironmentVariable] = Dashboard.Tests.RealProcesses.ServiceHostProcess.TestControlToken;
        return start;
    }

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries);
}
