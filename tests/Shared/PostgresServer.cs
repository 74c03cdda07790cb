using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Dashboard.Tests.RealProcesses;

/// <summary>
/// A real PostgreSQL 15 server (Debian's <c>postgresql</c> package, <c>/usr/lib/postgresql/15/bin</c>) of the test run's
/// own: a fresh cluster (<c>initdb</c>, trust authentication from any address it listens on, superuser <c>postgres</c>) in a temporary folder, on a free
/// TCP port and a Unix socket in that folder. It never touches the machine's own cluster (15/main). As root, the server
/// runs as the <c>postgres</c> OS user (<c>setpriv</c>), since PostgreSQL refuses to run as root.
/// </summary>
/// <remarks>
/// No process outlives the test run: the server runs under a small shell that holds this process's pipe as its
/// standard input and stops the server (fast shutdown) when that input ends, the project's rule for child processes
/// (docs/architecture.md, "A process tree that dies together"), so even a test host killed with SIGKILL takes the
/// server with it. <see cref="DisposeAsync"/> stops it and deletes the folder. Each test takes its own database
/// (<see cref="CreateDatabaseAsync"/>).
/// </remarks>
public sealed class PostgresServer : IAsyncDisposable
{
    /// <summary>Debian's PostgreSQL 15 programs.</summary>
    public const string BinDirectory = "/usr/lib/postgresql/15/bin";

    /// <summary>The superuser of the test cluster (trust authentication: no password).</summary>
    public const string User = "postgres";

    private readonly Process _process;
    private readonly StringBuilder _log;
    private int _databases;

    private PostgresServer(Process process, string directory, int port, string listenAddresses, StringBuilder log)
    {
        _process = process;
        Directory = directory;
        Port = port;
        ListenAddresses = listenAddresses;
        _log = log;
    }

    /// <summary>True when Debian's PostgreSQL 15 is installed (<c>scripts/setup.sh</c> installs it).</summary>
    public static bool IsInstalled => File.Exists(Path.Combine(BinDirectory, "postgres"));

    /// <summary>The cluster's folder: <c>data/</c> (the cluster) and the Unix socket.</summary>
    public string Directory { get; }

    /// <summary>The server's TCP port (the Unix socket has the same number).</summary>
    public int Port { get; }

    /// <summary>The server's <c>listen_addresses</c>, e.g. <c>127.0.0.1</c> or <c>127.0.0.1,10.77.0.1</c>.</summary>
    public string ListenAddresses { get; }

    /// <summary>The first listen address, the host that <see cref="ConnectionString"/> uses by default.</summary>
    public string Host => ListenAddresses.Split(',')[0].Trim() is "*" or "0.0.0.0" ? "127.0.0.1" : ListenAddresses.Split(',')[0].Trim();

    /// <summary>What the server wrote to its output so far (startup, errors).</summary>
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

    /// <summary>
    /// Creates a cluster and starts the server; returns once it accepts connections.
    /// </summary>
    /// <param name="listenAddresses">PostgreSQL's <c>listen_addresses</c>: comma-separated addresses (a veth address inside a test network namespace, say) or <c>*</c>.</param>
    /// <param name="port">The TCP port; 0 (default): a free one.</param>
    /// <param name="settings">More server settings, <c>name=value</c>, after the defaults (which favour speed over durability:
    /// <c>fsync=off</c>, <c>synchronous_commit=off</c>, <c>full_page_writes=off</c>), so they can turn those back on.</param>
    /// <exception cref="InvalidOperationException">PostgreSQL 15 is not installed, <c>initdb</c> failed, or the server did not accept connections within 30 s (its log is in the message).</exception>
    public static async Task<PostgresServer> StartAsync(string listenAddresses = "127.0.0.1", int port = 0, params string[] settings)
    {
        if (!IsInstalled)
        {
            throw new InvalidOperationException($"PostgreSQL 15 is not installed ({BinDirectory}/postgres): run scripts/setup.sh (Debian package postgresql)");
        }

        port = port == 0 ? FreePort() : port;
        var directory = System.IO.Directory.CreateTempSubdirectory("pg-test-").FullName;
        var data = Path.Combine(directory, "data");
        try
        {
            // The server's user must own the folder (temp folders are 0700, the cluster's folder must be).
            await ChownAsync(directory);
            var initdb = await RunAsync(Path.Combine(BinDirectory, "initdb"),
                ["-D", data, "-U", User, "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"]);
            if (initdb.ExitCode != 0)
            {
                throw new InvalidOperationException($"initdb failed (exit {initdb.ExitCode}): {initdb.Output}");
            }

            // initdb lets TCP clients in from 127.0.0.1 and ::1 only; agents in test network namespaces connect from
            // their own addresses. The server listens on listenAddresses only, and this cluster is the test's alone.
            await File.AppendAllTextAsync(Path.Combine(data, "pg_hba.conf"), "\nhost all all all trust\n");
        }
        catch
        {
            System.IO.Directory.Delete(directory, recursive: true);
            throw;
        }

        // The shell holds our pipe as its standard input: when it ends (Dispose, or this process dies however),
        // the server gets SIGINT (fast shutdown) and the shell waits for it.
        var postgres = string.Join(' ', new[]
        {
            Quote(Path.Combine(BinDirectory, "postgres")), "-D", Quote(data), "-p", port.ToString(CultureInfo.InvariantCulture),
            "-c", Quote($"listen_addresses={listenAddresses}"), "-c", Quote($"unix_socket_directories={directory}"),
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
            "-c", "shared_buffers=64MB", "-c", "log_min_messages=warning",
        }.Concat(settings.SelectMany(setting => new[] { "-c", Quote(setting) })));
        var script = $"{postgres} <&- & pid=$!; trap 'kill -INT $pid 2>/dev/null' TERM; cat >/dev/null; kill -INT $pid 2>/dev/null; wait $pid";
        var start = AsPostgres("/bin/sh", ["-c", script]);
        start.RedirectStandardInput = true;
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        var log = new StringBuilder();
        var process = Process.Start(start)!;
        process.OutputDataReceived += (_, e) => Append(log, e.Data);
        process.ErrorDataReceived += (_, e) => Append(log, e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var server = new PostgresServer(process, directory, port, listenAddresses, log);
        try
        {
            await server.WaitUntilReadyAsync(TimeSpan.FromSeconds(30));
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }

        return server;
    }

    /// <summary>An Npgsql connection string to <paramref name="database"/> as <see cref="User"/> over TCP on <paramref name="host"/> (default <see cref="Host"/>).</summary>
    public string ConnectionString(string database, string? host = null) =>
        $"Host={host ?? Host};Port={Port.ToString(CultureInfo.InvariantCulture)};Username={User};Database={database};Pooling=true;Timeout=15";

    /// <summary>Creates a fresh, empty database for one test (a unique name) and returns its connection string.</summary>
    /// <param name="prefix">The start of the database name (letters, digits, underscores).</param>
    /// <exception cref="InvalidOperationException"><c>createdb</c> failed.</exception>
    public async Task<string> CreateDatabaseAsync(string prefix = "test")
    {
        var name = $"{prefix}_{Interlocked.Increment(ref _databases)}_{Guid.NewGuid().ToString("N")[..8]}".ToLowerInvariant();
        var result = await RunAsync(Path.Combine(BinDirectory, "createdb"), ["-h", Directory, "-p", Port.ToString(CultureInfo.InvariantCulture), "-U", User, name]);
        if (result.ExitCode != 0)
        {
            throw new InvalidOperationException($"createdb {name} failed (exit {result.ExitCode}): {result.Output}");
        }

        return ConnectionString(name);
    }

    /// <summary>Runs one of PostgreSQL's programs as the server's user and returns its exit code and output.</summary>
    private static async Task<(int ExitCode, string Output)> RunAsync(string program, IEnumerable<string> arguments)
    {
        var start = AsPostgres(program, arguments);
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(60));
        return (process.ExitCode, (await stdout) + (await stderr));
    }

    /// <summary>Stops the server (fast shutdown; SIGKILL of its process group after 10 s) and deletes its folder.</summary>
    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.StandardInput.Close(); // end of input: the shell stops the server and waits for it
            try
            {
                await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10));
            }
            catch (TimeoutException)
            {
                _process.Kill(entireProcessTree: true);
                await _process.WaitForExitAsync();
            }
        }

        // The postmaster's children exit with it; wait until its pid file is gone before removing the folder.
        var pidFile = Path.Combine(Directory, "data", "postmaster.pid");
        for (var i = 0; i < 50 && File.Exists(pidFile); i++)
        {
            await Task.Delay(100);
        }

        _process.Dispose();
        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
            // A server still shutting down may write a last file; the temp folder is then left, not the process.
        }
    }

    private async Task WaitUntilReadyAsync(TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"PostgreSQL exited (code {_process.ExitCode}) before it accepted connections: {Log}");
            }

            var ready = await RunAsync(Path.Combine(BinDirectory, "pg_isready"), ["-h", Directory, "-p", Port.ToString(CultureInfo.InvariantCulture), "-U", User, "-t", "1"]);
            if (ready.ExitCode == 0)
            {
                return;
            }

            await Task.Delay(100);
        }

        throw new InvalidOperationException($"PostgreSQL did not accept connections within {timeout.TotalSeconds} s on port {Port}: {Log}");
    }

    // As root, run as the postgres OS user (PostgreSQL refuses root); otherwise as ourselves.
    private static ProcessStartInfo AsPostgres(string program, IEnumerable<string> arguments)
    {
        ProcessStartInfo start;
        if (Environment.UserName == "root")
        {
            start = new ProcessStartInfo("/usr/bin/setpriv");
            foreach (var argument in new[] { "--reuid=postgres", "--regid=postgres", "--init-groups", "--", program })
            {
                start.ArgumentList.Add(argument);
            }
        }
        else
        {
            start = new ProcessStartInfo(program);
        }

        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.UseShellExecute = false;
        start.WorkingDirectory = "/";
        return start;
    }

    private static async Task ChownAsync(string directory)
    {
        if (Environment.UserName != "root")
        {
            return;
        }

        using var chown = Process.Start("/bin/chown", ["postgres:postgres", directory])!;
        await chown.WaitForExitAsync();
        if (chown.ExitCode != 0)
        {
            throw new InvalidOperationException($"chown postgres {directory} failed (exit {chown.ExitCode})");
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static string Quote(string value) => "'" + value.Replace("'", "'\\''", StringComparison.Ordinal) + "'";

    private static void Append(StringBuilder log, string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (log)
        {
            if (log.Length < 16_000)
            {
                log.AppendLine(line);
            }
        }
    }
}
