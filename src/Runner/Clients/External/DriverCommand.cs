using System.Diagnostics;

namespace Dashboard.Runner.Clients.External;

/// <summary>How to start one out-of-process client driver (docs/driver-protocol.md), or why it cannot be started.</summary>
/// <param name="ClientId">The client technology id, <c>java</c> or <c>node</c>.</param>
/// <param name="FileName">The executable (<c>java</c>, <c>node</c>).</param>
/// <param name="Arguments">Its arguments.</param>
/// <param name="MissingReason">Null when the driver is built; else one line saying what is missing and how to build it.</param>
public sealed record DriverCommand(string ClientId, string FileName, IReadOnlyList<string> Arguments, string? MissingReason = null)
{
    /// <summary>
    /// The environment variable that picks the java driver's HTTP transport for the SOAP variants (docs/driver-protocol.md,
    /// "The java client's HTTP transport"): <c>counting</c> (default) or <c>jdk</c>.
    /// </summary>
    public const string JavaTransportVariable = "DASHBOARD_JAVA_TRANSPORT";

    /// <summary>The java driver's SOAP transports: our per-client counting connection (the default), the JDK's own.</summary>
    public static readonly IReadOnlyList<string> JavaTransports = ["counting", "jdk"];

    /// <summary>The Java driver built by <c>src/Runner/Drivers/java/build.sh</c> into <c>drivers/java</c> beside the runner.</summary>
    /// <param name="directory">The driver's build folder; default <c>drivers/java</c> beside the runner.</param>
    /// <param name="transport">
    /// The SOAP clients' HTTP transport, one of <see cref="JavaTransports"/>, passed as <c>--transport</c>; default
    /// <see cref="JavaTransportVariable"/>, else <c>counting</c>. Another value gives a command with a <see cref="MissingReason"/>.
    /// </param>
    public static DriverCommand Java(string? directory = null, string? transport = null)
    {
        directory ??= Path.Combine(AppContext.BaseDirectory, "drivers", "java");
        transport ??= Environment.GetEnvironmentVariable(JavaTransportVariable) is { Length: > 0 } chosen ? chosen : JavaTransports[0];
        if (!JavaTransports.Contains(transport))
        {
            return new DriverCommand("java", "java", [], $"the java driver's transport must be {string.Join(" or ", JavaTransports)} (from {JavaTransportVariable}), got '{transport}'");
        }

        var classPathFile = Path.Combine(directory, "classpath");
        if (!File.Exists(classPathFile))
        {
            return new DriverCommand("java", "java", [], $"the java driver is not built ({classPathFile} is missing; run scripts/setup.sh, then dotnet build)");
        }

        var classPath = File.ReadAllText(classPathFile).Trim();
        // Heap: a quarter of the machine's memory (6 GB on 24 GiB). Each client holds its request while it is in flight,
        // and WS-Security X.509 keeps several DOM copies of it: 50 clients × 1000-element arrays filled a 1 GB heap and
        // the driver spent its time in full collections (measured 2026-11-22: 349 full GCs in 11 minutes, 0 progress).
        // The JVM's own log: warnings to stderr (its default, stdout, is the protocol's), the rest off. The class-data
        // sharing archive build.sh trains (start-up CPU halved; a JVM that cannot map it warns and starts without it).
        var archive = Path.Combine(directory, "dashboard-driver.jsa");
        string[] sharing = File.Exists(archive) ? [$"-XX:SharedArchiveFile={archive}"] : [];
        return new DriverCommand("java", "java", ["-Xms128m", "-XX:MaxRAMPercentage=25", "-Xlog:disable", "-Xlog:all=warning:stderr", .. sharing, "-cp", classPath, "dashboard.driver.DriverMain", "--transport", transport]);
    }

    /// <summary>The Node driver <c>src/Runner/Drivers/node/driver.js</c> with its npm packages installed (<c>npm ci</c>).</summary>
    public static DriverCommand Node(string? directory = null)
    {
        directory ??= Environment.GetEnvironmentVariable("DASHBOARD_NODE_DRIVER") ?? BuildInfo.NodeDriverDirectory;
        var script = Path.Combine(directory, "driver.js");
        if (!File.Exists(script) || !Directory.Exists(Path.Combine(directory, "node_modules")))
        {
            return new DriverCommand("node", "node", [], $"the node driver is not installed ({script} or its node_modules is missing; run scripts/setup.sh)");
        }

        return new DriverCommand("node", "node", [script]);
    }

    /// <summary>A start description with every stream redirected (the protocol runs over stdin and stdout).</summary>
    public ProcessStartInfo CreateStartInfo()
    {
        var start = new ProcessStartInfo(FileName)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in Arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return start;
    }
}
