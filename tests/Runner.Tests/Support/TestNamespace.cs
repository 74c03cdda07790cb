using System.Diagnostics;
using System.Globalization;

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// A network namespace of the test's own (<c>dbt-test-{pid}-{tag}</c>), joined to the root namespace by a veth pair on
/// <c>10.231.{octet}.0/24</c> (root side .1, namespace side .2): "another machine" at its own address. Disposing kills
/// every process in it and removes it (and the pair). Needs root (<see cref="RootFactAttribute"/>).
/// </summary>
public sealed class TestNamespace : IDisposable
{
    private TestNamespace(string name, string rootLink, int octet, string network)
    {
        Name = name;
        RootLink = rootLink;
        Address = $"{network}.{octet}.2";
        RootAddress = $"{network}.{octet}.1";
    }

    /// <summary>The namespace's name.</summary>
    public string Name { get; }

    /// <summary>The veth end in the root namespace.</summary>
    public string RootLink { get; }

    /// <summary>The namespace's address, <c>10.231.{octet}.2</c>.</summary>
    public string Address { get; }

    /// <summary>The root namespace's end of the link, <c>10.231.{octet}.1</c>: how processes in the namespace reach the root's servers.</summary>
    public string RootAddress { get; }

    /// <summary>Makes the namespace and link on <c>{network}.{octet}.0/24</c> (default network 10.231).</summary>
    public static TestNamespace Create(string tag, int octet, string network = "10.231")
    {
        var pid = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        var name = $"dbt-test-{pid}-{tag}";
        var rootLink = $"dbt{pid}{tag}r";
        var inner = $"dbt{pid}{tag}n";
        var made = new TestNamespace(name, rootLink, octet, network);
        try
        {
            Ip("netns", "add", name);
            Ip("link", "add", rootLink, "type", "veth", "peer", "name", inner);
            Ip("link", "set", inner, "netns", name);
            Ip("addr", "add", $"{network}.{octet}.1/24", "dev", rootLink);
            Ip("link", "set", rootLink, "up");
            Ip("-n", name, "addr", "add", $"{network}.{octet}.2/24", "dev", inner);
            Ip("-n", name, "link", "set", inner, "up");
            Ip("-n", name, "link", "set", "lo", "up");
            return made;
        }
        catch
        {
            made.Dispose();
            throw;
        }
    }

    /// <summary>Starts <paramref name="file"/> inside the namespace with its streams redirected.</summary>
    public Process Start(string file, IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo("ip") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "netns", "exec", Name, file }.Concat(arguments))
        {
            start.ArgumentList.Add(argument);
        }

        return Process.Start(start)!;
    }

    /// <summary>Runs <c>ip ARGS</c>; throws with its stderr when it fails.</summary>
    public static string Ip(params string[] arguments)
    {
        var (code, output, error) = Run("ip", arguments);
        return code == 0 ? output : throw new InvalidOperationException($"ip {string.Join(' ', arguments)}: exit {code}: {error}");
    }

    /// <summary>Runs a command and returns its exit code and output.</summary>
    public static (int Code, string Output, string Error) Run(string file, params string[] arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output.Result, error);
    }

    /// <summary>The network namespaces that exist now.</summary>
    public static IReadOnlyList<string> Namespaces() =>
        [.. Run("ip", "netns", "list").Output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(l => l.Split(' ')[0])];

    /// <summary>True when a link of that name exists in the root namespace.</summary>
    public static bool LinkExists(string name) => Run("ip", "link", "show", name).Code == 0;

    /// <inheritdoc />
    public void Dispose()
    {
        var (code, pids, _) = Run("ip", "netns", "pids", Name);
        if (code == 0)
        {
            foreach (var pid in pids.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                Run("kill", "-9", pid);
            }
        }

        Run("ip", "netns", "del", Name);
        if (LinkExists(RootLink))
        {
            Run("ip", "link", "del", RootLink);
        }
    }
}

/// <summary>A fact that needs root (network namespaces, veth, htb, taskset of other processes): skipped with that reason otherwise.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RootFactAttribute : FactAttribute
{
    /// <summary>Skips the test unless the effective user is root.</summary>
    public RootFactAttribute()
    {
        if (!IsRoot)
        {
            Skip = "needs root (CAP_NET_ADMIN for network namespaces, veth links and htb): run the tests as root, as CI here does";
        }
    }

    /// <summary>True when the effective uid is 0 (from <c>/proc/self/status</c>).</summary>
    public static bool IsRoot =>
        File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal))?.Split('\t', StringSplitOptions.RemoveEmptyEntries) is { Length: > 2 } uid && uid[2] == "0";
}
