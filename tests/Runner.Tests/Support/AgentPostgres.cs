using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// A PostgreSQL server of the test's own: Debian's PostgreSQL binaries (<c>/usr/lib/postgresql/*/bin</c>), a fresh cluster
/// (<c>initdb</c>, trust authentication, fsync off) in a temporary folder, started on a free port and listening on
/// <paramref name="listenAddresses"/>, run as the <c>postgres</c> user when the tests run as root. Disposing stops it
/// (<c>pg_ctl stop -m immediate</c>) and deletes the cluster.
/// </summary>
public sealed class AgentPostgres : IDisposable
{
    private readonly string _folder;
    private readonly string _bin;
    private bool _stopped;

    private AgentPostgres(string folder, string bin, int port, string host)
    {
        _folder = folder;
        _bin = bin;
        Port = port;
        Host = host;
    }

    /// <summary>The port it listens on.</summary>
    public int Port { get; }

    /// <summary>The address clients connect to.</summary>
    public string Host { get; }

    /// <summary>The connection string of database <c>dashboard</c> on <see cref="Host"/>.</summary>
    public string ConnectionString => ConnectionStringFor(Host);

    /// <summary>The connection string of database <c>dashboard</c> at <paramref name="host"/>.</summary>
    public string ConnectionStringFor(string host) => $"Host={host};Port={Port.ToString(CultureInfo.InvariantCulture)};Database=dashboard;Username=postgres;Pooling=false";

    /// <summary>Whether Debian's PostgreSQL server binaries are installed.</summary>
    public static bool Installed => FindBin() is not null;

    /// <summary>Creates and starts a cluster listening on <paramref name="listenAddresses"/> (comma-separated; default 127.0.0.1).</summary>
    public static AgentPostgres Start(string listenAddresses = "127.0.0.1")
    {
        var bin = FindBin() ?? throw new InvalidOperationException("PostgreSQL is not installed (apt-get install postgresql; scripts/setup.sh)");
        var folder = Directory.CreateTempSubdirectory("agents-pg-").FullName;
        using (var chmod = Process.Start("chmod", ["755", folder])!) // the postgres user enters it
        {
            chmod.WaitForExit();
        }

        var data = Path.Combine(folder, "data");
        Directory.CreateDirectory(data);
        Own(data);
        var port = FreePort();
        var made = new AgentPostgres(folder, bin, port, listenAddresses.Split(',')[0].Trim());
        try
        {
            made.AsPostgres(Path.Combine(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync");
            made.AsPostgres(Path.Combine(bin, "pg_ctl"), "-D", data, "-w", "-t", "60", "-l", Path.Combine(data, "log"), "-o",
                $"-p {port.ToString(CultureInfo.InvariantCulture)} -k {data} -c listen_addresses='{listenAddresses}' -c fsync=off -c max_connections=200", "start");
            made.AsPostgres(Path.Combine(bin, "psql"), "-h", data, "-p", port.ToString(CultureInfo.InvariantCulture), "-U", "postgres", "-c", "CREATE DATABASE dashboard");
            return made;
        }
        catch
        {
            made.Dispose();
            throw;
        }
    }

    /// <summary>Stops the server at once (<c>pg_ctl stop -m immediate</c>): the database goes away under its clients.</summary>
    public void Stop()
    {
        if (!_stopped)
        {
            _stopped = true;
            AsPostgres(Path.Combine(_bin, "pg_ctl"), "-D", Path.Combine(_folder, "data"), "-m", "immediate", "-w", "stop");
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        try
        {
            Stop();
        }
        catch (InvalidOperationException)
        {
        }

        Directory.Delete(_folder, recursive: true);
    }

    private void AsPostgres(string file, params string[] arguments)
    {
        var root = RootFactAttribute.IsRoot;
        var start = new ProcessStartInfo(root ? "runuser" : file) { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = _folder };
        foreach (var argument in (root ? new[] { "-u", "postgres", "--", file } : []).Concat(arguments))
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(90_000))
        {
            process.Kill(entireProcessTree: true);
            throw new InvalidOperationException($"{Path.GetFileName(file)} did not finish in 90 s");
        }

        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{Path.GetFileName(file)} {string.Join(' ', arguments)}: exit {process.ExitCode}: {error.Result}{output.Result}");
        }
    }

    private static void Own(string path)
    {
        if (RootFactAttribute.IsRoot)
        {
            using var chown = Process.Start("chown", ["postgres", path])!;
            chown.WaitForExit();
        }
    }

    private static string? FindBin() =>
        Directory.Exists("/usr/lib/postgresql")
            ? Directory.GetDirectories("/usr/lib/postgresql").Select(v => Path.Combine(v, "bin")).Where(b => File.Exists(Path.Combine(b, "initdb"))).Order(StringComparer.Ordinal).LastOrDefault()
            : null;

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
