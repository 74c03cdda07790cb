using System.Diagnostics;

namespace Dashboard.Runner.Clients.External;

/// <summary>How to start one out-of-process client driver (docs/driver-protocol.md), or why it cannot be started.</summary>
/// <param name="ClientId">The client technology id, <c>java</c> or <c>node</c>.</param>
/// <param name="FileName">The executable (<c>java</c>, <c>node</c>).</param>
/// <param name="Arguments">Its arguments.</param>
/// <param name="MissingReason">Null when the driver is built; else one line saying what is missing and how to build it.</param>
public sealed record DriverCommand(string ClientId, string FileName, IReadOnlyList<string> Arguments, string? MissingReason = null)
{
    /// <summary>The Java driver built by <c>src/Runner/Drivers/java/build.sh</c> into <c>drivers/java</c> beside the runner.</summary>
    public static DriverCommand Java(string? directory = null)
    {
        directory ??= Path.Combine(AppContext.BaseDirectory, "drivers", "java");
        var classPathFile = Path.Combine(directory, "classpath");
        if (!File.Exists(classPathFile))
        {
            return new DriverCommand("java", "java", [], $"the java driver is not built ({classPathFile} is missing; run scripts/setup.sh, then dotnet build)");
        }

        var classPath = File.ReadAllText(classPathFile).Trim();
        // Heap: a quarter of the machine's memory (6 GB on 24 GiB). Each client holds its request while it is in flight,
        // and WS-Security X.509 keeps several DOM copies of it: 50 clients × 1000-element arrays filled a 1 GB heap and
        // the driver spent its time in full collections (measured 2026-11-22: 349 full GCs in 11 minutes, 0 progress).
        return new DriverCommand("java", "java", ["-Xms128m", "-XX:MaxRAMPercentage=25", "-cp", classPath, "dashboard.driver.DriverMain"]);
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
