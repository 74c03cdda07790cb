using System.Diagnostics;
using System.Net.Http.Json;
using System.Reflection;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Tests.Support;

/// <summary>
/// The real dashboard: the built <c>src/Web</c> executable started as a child process on a free port
/// (<c>--urls http://127.0.0.1:0</c>, the port read from its log), with its own data folder, no local service host,
/// the test hosts' control token as its local host's (<c>Dashboard:LocalHost:ControlToken</c>), and the fake runner. Stopping sends SIGINT (a clean shutdown); <see cref="Crash"/> kills it.
/// </summary>
public sealed partial class WebApp : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _log = new();

    private WebApp(Process process, string root, IReadOnlyList<string> arguments, IDictionary<string, string>? environment)
    {
        _process = process;
        Root = root;
        Arguments = arguments;
        Environment = environment ?? new Dictionary<string, string>();
    }

    /// <summary>The command line the dashboard was started with (the account commands take the same).</summary>
    public IReadOnlyList<string> Arguments { get; }

    /// <summary>The environment variables set for the dashboard beyond the test process's own.</summary>
    public IDictionary<string, string> Environment { get; }

    /// <summary>
    /// An Admin API token made at start by the real <c>token create --role Admin</c> command (see
    /// <see cref="CreateAdminTokenAsync"/>); <see cref="Http"/>
    /// sends it, and so do browser contexts made with <see cref="BrowserHeaders"/>.
    /// </summary>
    public string AdminToken { get; private set; } = "";

    /// <summary>The headers a browser context needs to act as <see cref="AdminToken"/> (Playwright's extraHTTPHeaders).</summary>
    public Dictionary<string, string> BrowserHeaders => new() { ["Authorization"] = $"Bearer {AdminToken}" };

    /// <summary>A client on <see cref="BaseAddress"/> without credentials.</summary>
    public HttpClient NewAnonymousClient() => new(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = BaseAddress, Timeout = TimeSpan.FromSeconds(60) };

    /// <summary>A client on <see cref="BaseAddress"/> that sends <paramref name="token"/> as a bearer token.</summary>
    public HttpClient NewClient(string token)
    {
        var client = NewAnonymousClient();
        client.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    /// <summary>
    /// Runs the dashboard executable's account command (<c>token create …</c>, <c>admin create …</c>) with the dashboard's
    /// own arguments and environment; returns the exit code, standard output and standard error.
    /// </summary>
    public async Task<(int ExitCode, string Output, string Error)> RunCommandAsync(params string[] command)
    {
        var start = new ProcessStartInfo(Executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Root,
        };
        foreach (var argument in command.Concat(Arguments))
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in Environment)
        {
            start.Environment[key] = value;
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await output, await error);
    }

    /// <summary>
    /// <c>token create --role Admin --name tests</c> with the dashboard's arguments, run in this process by the code the
    /// executable runs for it (<see cref="Dashboard.Web.Auth.AccountCommands.RunAsync"/>) when the dashboard has no
    /// environment of its own, else as the executable (<see cref="RunCommandAsync"/>): the executable, a second .NET process
    /// at every dashboard start, took 2.2–2.4 s of CPU each time. Returns the exit code, standard output (the token) and
    /// standard error.
    /// </summary>
    private async Task<(int ExitCode, string Output, string Error)> CreateAdminTokenAsync()
    {
        string[] command = ["token", "create", "--role", "Admin", "--name", "tests"];
        if (Environment.Count > 0)
        {
            return await RunCommandAsync(command);
        }

        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await Dashboard.Web.Auth.AccountCommands.RunAsync([.. command, .. Arguments], output, error);
        return (exitCode, output.ToString(), error.ToString());
    }

    private static string Executable =>
        typeof(WebApp).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == "WebExecutable").Value!;

    /// <summary>The test's folder: data, runner, presets.</summary>
    public string Root { get; }

    /// <summary>The data folder (results.db, hosts.json).</summary>
    public string DataFolder => Path.Combine(Root, "data");

    /// <summary>The results database.</summary>
    public string DatabasePath => Path.Combine(DataFolder, "results.db");

    /// <summary>The fake runner's folder.</summary>
    public string RunnerFolder => Path.Combine(Root, "runner");

    /// <summary>Where the dashboard listens.</summary>
    public Uri BaseAddress { get; private set; } = null!;

    /// <summary>A client on <see cref="BaseAddress"/>.</summary>
    public HttpClient Http { get; private set; } = null!;

    /// <summary>The dashboard's process id.</summary>
    public int ProcessId => _process.Id;

    /// <summary>Everything the dashboard logged so far.</summary>
    public string Log
    {
        get
        {
            lock (_log)
            {
                return _log.ToString();
            }
        }
    }

    /// <summary>A new test folder with the fake runner in it.</summary>
    public static string NewRoot()
    {
        var root = Path.Combine(Path.GetTempPath(), "dashboard-web-tests", Guid.NewGuid().ToString("N"));
        FakeRunner.Create(Path.Combine(root, "runner"));
        Directory.CreateDirectory(Path.Combine(root, "data"));
        Directory.CreateDirectory(Path.Combine(root, "presets"));
        return root;
    }

    /// <summary>Starts the dashboard on <paramref name="root"/> (a new folder when null) and waits until it listens.</summary>
    /// <param name="extraArguments">More <c>--Section:Key=value</c> arguments; they override the defaults above them.</param>
    public static async Task<WebApp> StartAsync(string? root = null, IDictionary<string, string>? environment = null, params string[] extraArguments)
    {
        root ??= NewRoot();
        var executable = Executable;
        if (!File.Exists(executable))
        {
            throw new InvalidOperationException($"{executable} is not built: build src/Web first (dotnet build Dashboard.sln)");
        }

        var start = new ProcessStartInfo(executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = root,
        };
        string[] defaults =
        [
            "--urls", "http://127.0.0.1:0",
            $"--Dashboard:DataFolder={Path.Combine(root, "data")}",
            "--Dashboard:StartLocalHost=false",
            $"--Dashboard:PresetsFolder={Path.Combine(root, "presets")}",
            $"--Dashboard:Runner:ExecutablePath={Path.Combine(root, "runner", "Dashboard.Runner")}",
            "--Dashboard:Runner:BusyRetryDelay=00:10:00",
            "--Dashboard:Runner:StopTimeout=00:00:10",
            "--Dashboard:LocalHost:Address=http://127.0.0.1:9",
            "--Logging:LogLevel:Default=Information",
            "--Logging:LogLevel:Microsoft.EntityFrameworkCore=Warning",
            // Stops with this test process however it ends (its standard input is a pipe this process keeps open).
            "--Dashboard:StopAtStdinEof=true",
        ];
        string[] arguments = [.. defaults, .. extraArguments];
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // The local host's control token (docs/security.md): the one every test host asks for (tests/Shared/ServiceHostProcess.cs).
        start.Environment["Dashboard__LocalHost__ControlToken"] = Dashboard.Tests.RealProcesses.ServiceHostProcess.TestControlToken;
        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }

        var process = Process.Start(start)!;
        Dashboard.Tests.RealProcesses.ProcessStarts.Record("dashboard");
        var app = new WebApp(process, root, arguments, environment);
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, e) => app.OnLine(e.Data, listening);
        process.ErrorDataReceived += (_, e) => app.OnLine(e.Data, listening);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var started = await Task.WhenAny(listening.Task, process.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(90)));
        if (started != listening.Task)
        {
            var log = app.Log;
            await app.DisposeAsync();
            throw new InvalidOperationException("The dashboard did not start listening:\n" + log);
        }

        app.BaseAddress = await listening.Task;
        // Every endpoint but health, sign-in and share links needs credentials: the tests act as an Admin token.
        var (exitCode, output, error) = await app.CreateAdminTokenAsync();
        if (exitCode != 0)
        {
            var log = app.Log;
            await app.DisposeAsync();
            throw new InvalidOperationException($"token create failed ({exitCode}): {error}\n{log}");
        }

        app.AdminToken = output.Trim();
        app.Http = new HttpClient { BaseAddress = app.BaseAddress, Timeout = TimeSpan.FromSeconds(60) };
        app.Http.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", app.AdminToken);
        return app;
    }

    /// <summary>Stops the dashboard the clean way (SIGINT) and waits for it to exit.</summary>
    public async Task StopAsync()
    {
        if (!_process.HasExited)
        {
            Signals.Interrupt(_process.Id);
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            await _process.WaitForExitAsync(timeout.Token);
        }
    }

    /// <summary>Closes the dashboard's standard input, as the end of this test process would (Dashboard:StopAtStdinEof); returns whether it exited within <paramref name="timeout"/>.</summary>
    public async Task<bool> CloseStandardInputAsync(TimeSpan timeout)
    {
        _process.StandardInput.Close();
        using var wait = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(wait.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Kills the dashboard without warning (SIGKILL), as a crash would; its child processes stay.</summary>
    public async Task CrashAsync()
    {
        _process.Kill(entireProcessTree: false);
        await _process.WaitForExitAsync();
    }

    /// <summary>POSTs a scenario document.</summary>
    public Task<HttpResponseMessage> PostScenarioAsync(string json) =>
        Http.PostAsync("/api/runs", new StringContent(json, Encoding.UTF8, "application/json"));

    /// <summary>Queues a valid scenario named <paramref name="name"/> and returns its run id.</summary>
    public async Task<int> QueueAsync(string name)
    {
        using var response = await PostScenarioAsync(Scenario(name));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, body);
        return JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt32();
    }

    /// <summary>The run's status as the API answers it.</summary>
    public async Task<string> StatusAsync(int runId)
    {
        var run = await Http.GetFromJsonAsync<JsonElement>($"/api/runs/{runId}");
        return run.GetProperty("status").GetString()!;
    }

    /// <summary>Waits until the run has status <paramref name="status"/>.</summary>
    public async Task WaitForStatusAsync(int runId, string status, TimeSpan? timeout = null)
    {
        var last = "";
        var reached = await Eventually.HoldsAsync(async () => (last = await StatusAsync(runId)) == status, timeout);
        Assert.True(reached, $"run {runId} is {last}, expected {status}\n{Log}");
    }

    /// <summary>A valid scenario document named <paramref name="name"/>.</summary>
    public static string Scenario(string name) => $$"""
        {"name": "{{name}}", "host": "http://127.0.0.1:9", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
         "payloads": ["Int"], "levels": [1, 2], "requestsPerClient": 5, "warmup": 1, "repetitions": 1}
        """;

    /// <summary>A context on the dashboard's database (the caller disposes it).</summary>
    public ResultsDbContext OpenDatabase() => ResultsDatabase.Open(DatabasePath);

    /// <summary>Reads a run straight from the database.</summary>
    public async Task<RunEntity?> FindRunAsync(int id)
    {
        await using var db = OpenDatabase();
        return await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id);
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync();
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
        }

        Http?.Dispose();
        _process.Dispose();
        SqliteConnection.ClearAllPools();
    }

    /// <summary>Deletes a test folder.</summary>
    public static void DeleteRoot(string root)
    {
        SqliteConnection.ClearAllPools();
        if (Directory.Exists(root))
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private void OnLine(string? line, TaskCompletionSource<Uri> listening)
    {
        if (line is null)
        {
            return;
        }

        lock (_log)
        {
            _log.AppendLine(line);
        }

        var match = ListeningRegex().Match(line);
        if (match.Success)
        {
            listening.TrySetResult(new Uri(match.Groups[1].Value));
        }
    }

    // The dashboard's own address (it listens on http://127.0.0.1:0): the local service host it starts logs its Kestrel
    // lines into the same output, a Unix socket variant's as "Now listening on: http://unix:/…" (CI of 4a2c1d4).
    [GeneratedRegex(@"Now listening on: (http://127\.0\.0\.1:\d+)")]
    private static partial Regex ListeningRegex();
}
