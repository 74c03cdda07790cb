using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.Json.Serialization;
using Dashboard.Data.Runs;
using Dashboard.Runner.Clients;
using Dashboard.Service.Contracts.Resources;
using Dashboard.Service.Contracts.Versions;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Where a run was measured (docs/statistics.md, "Environment"; BenchmarkDotNet prints the same in every report):
/// machine, CPU model, cores on each side, memory, OS and kernel, runtimes (.NET, Java, Node), the versions of the
/// assemblies and client libraries on the measured path, the commit and the topology. Stored with the run as JSON,
/// served at <c>GET /api/runs/{id}/environment</c>. <see cref="RunnerProcess"/> names the runner process, so a run it
/// leaves <c>Running</c> when killed is found and marked (<see cref="AbandonedRuns"/>).
/// </summary>
/// <param name="MachineName">The generator machine's name.</param>
/// <param name="OsDescription">OS name and version.</param>
/// <param name="OsArchitecture">e.g. <c>X64</c>.</param>
/// <param name="Runtime">The runner's .NET runtime, e.g. <c>.NET 10.0.0</c>.</param>
/// <param name="ProcessorCount">Cores the generator may use (CPU affinity honoured, e.g. under <c>taskset</c>).</param>
/// <param name="TotalMemoryMb">Memory available to the runner, MB.</param>
/// <param name="ServerGc">Whether the runner runs the server GC.</param>
/// <param name="Versions">Assembly name → version of the runner's own and measured-path assemblies.</param>
public sealed record RunEnvironment(
    string MachineName,
    string OsDescription,
    string OsArchitecture,
    string Runtime,
    int ProcessorCount,
    long TotalMemoryMb,
    bool ServerGc,
    IReadOnlyDictionary<string, string> Versions)
{
    /// <summary>The runner process that records this run (JSON <c>runnerProcess</c>, read by <see cref="AbandonedRuns.RunnerOf"/>); null where <c>/proc</c> cannot be read.</summary>
    [JsonPropertyName(AbandonedRuns.RunnerProcessProperty)]
    public ProcessIdentity? RunnerProcess { get; init; }

    /// <summary>
    /// The clock rate of this machine's processors in MHz, from <c>/proc/cpuinfo</c> (JSON <c>cpuClockMHz</c>), with which
    /// the claims compute seed 004's MCycles per operation (docs/claims.md); null where it lists none.
    /// </summary>
    [JsonPropertyName(Service.Contracts.Resources.CpuClock.EnvironmentProperty)]
    public double? CpuClockMHz { get; init; }
    /// <summary>
    /// The load agents that generated every level (scenario field <c>agents</c>, docs/agents.md), as they registered: JSON
    /// <c>loadAgents</c>; null when the runner generated the load itself (then the generator figures here are the runner's).
    /// </summary>
    public IReadOnlyList<Agents.LoadAgentEnvironment>? LoadAgents { get; init; }

    /// <summary>
    /// How busy the machine was as the run started (JSON <c>machineAtStart</c>, <see cref="Data.Statistics.QuietMachine"/>):
    /// the 1-minute load average and others' CPU over a second before the first level; the run page warns when it was busy.
    /// </summary>
    [JsonPropertyName(Data.Statistics.QuietMachine.EnvironmentProperty)]
    public Data.Statistics.MachineAtStart? MachineAtStart { get; init; }

    /// <summary>
    /// How the runner's own runtime ran the load (JSON <c>generatorRuntime</c>; <see cref="Load.SocketCompletions"/>): whether
    /// socket completions ran inline on the event thread (<c>lean</c>-only runs), tiered PGO, and the tiering call-counting
    /// delay in ms (null: the runtime's default of 100). Null in runs recorded before it.
    /// </summary>
    public Load.GeneratorRuntime? GeneratorRuntime { get; init; }

    /// <summary>Where the host ran relative to the generator (docs/topologies.md): JSON <c>topology</c>; null in runs recorded before topologies.</summary>
    public Topologies.RunTopology? Topology { get; init; }


    /// <summary>CPU model from <c>/proc/cpuinfo</c> (<c>model name</c>), or null where it cannot be read.</summary>
    public string? CpuModel { get; init; }

    /// <summary>Logical cores of the generator machine (all of them, whatever the affinity).</summary>
    public int MachineCores { get; init; }

    /// <summary>Cores the load generator may use (= <see cref="ProcessorCount"/>: the runner's CPU affinity; drivers inherit it).</summary>
    public int GeneratorCores { get; init; }

    /// <summary>Cores of the server machine as far as the runner knows: the machine's cores when the host is on this machine (its own affinity is not reported), else null.</summary>
    public int? ServerCores { get; init; }

    /// <summary>Total memory of the machine in MB (<c>/proc/meminfo</c> MemTotal), or null.</summary>
    public long? MachineMemoryMb { get; init; }

    /// <summary>Kernel release (<c>/proc/sys/kernel/osrelease</c>), or null.</summary>
    public string? Kernel { get; init; }

    /// <summary>First line of <c>java -version</c>, or null when no java is on the PATH.</summary>
    public string? JavaVersion { get; init; }

    /// <summary><c>node --version</c>, or null when no node is on the PATH.</summary>
    public string? NodeVersion { get; init; }

    /// <summary>
    /// Client libraries by client technology (JSON <c>clientLibraries</c>), read from what is installed: <c>node</c>, the
    /// driver's packages (name → version from their package.json: soap, undici, @grpc/grpc-js, lossless-json, ...);
    /// <c>java</c>, the driver's jars (file name → manifest or file-name version, "?" when the jar names none);
    /// <c>dotnet</c> and <c>wcf</c>, the assemblies beside the runner (System.ServiceModel.*, Grpc.Net.Client, Google.Protobuf).
    /// </summary>
    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> ClientLibraries { get; init; } = new Dictionary<string, IReadOnlyDictionary<string, string>>();

    /// <summary>The runner's source commit (from its informational version's <c>+sha</c>), or null.</summary>
    public string? Commit { get; init; }


    /// <summary>
    /// The server's stack versions (JSON <c>serverStacks</c>) as the host reported them at <c>GET /versions</c>: process
    /// group (<c>aspnet</c>: .NET, ASP.NET Core, Kestrel, Grpc.AspNetCore, Google.Protobuf; <c>jvm</c>: Java, Metro,
    /// JAXB, FastInfoset, WSS4J, ZeroC Ice, Gson) → component → version; null when the host did not report them.
    /// </summary>
    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>? ServerStacks { get; init; }

    /// <summary>The environment of the current (load generator) process, with the topology towards <paramref name="host"/> (the scenario's host address) when given.</summary>
    public static RunEnvironment Capture(Uri? host)
    {
        var basic = Capture();
        var sameMachine = host is not null && (host.IsLoopback || string.Equals(host.Host, Environment.MachineName, StringComparison.OrdinalIgnoreCase));
        var informational = basic.Versions.GetValueOrDefault("Runner");
        var plus = informational?.IndexOf('+', StringComparison.Ordinal) ?? -1;
        return basic with
        {
            CpuModel = ProcField("/proc/cpuinfo", "model name"),
            MachineCores = CountProcLines("/proc/cpuinfo", "processor") is > 0 and var n ? n : Environment.ProcessorCount,
            GeneratorCores = CpuAffinity.CoreCount(),
            ServerCores = sameMachine ? (CountProcLines("/proc/cpuinfo", "processor") is > 0 and var m ? m : Environment.ProcessorCount) : null,
            MachineMemoryMb = ProcField("/proc/meminfo", "MemTotal") is { } mem && long.TryParse(mem.Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], out var kb) ? kb / 1024 : null,
            Kernel = ReadTrimmed("/proc/sys/kernel/osrelease"),
            JavaVersion = ToolVersion.FirstLineOf("java", "-version"),
            NodeVersion = ToolVersion.FirstLineOf("node", "--version"),
            ClientLibraries = ClientLibrariesOfDrivers(),
            Commit = plus >= 0 ? informational![(plus + 1)..] : null,
        };
    }

    /// <summary>The environment of the current (load generator) process, without the topology and external tools (fast).</summary>
    public static RunEnvironment Capture()
    {
        var versions = AppDomain.CurrentDomain.GetAssemblies()
            .Select(a => a.GetName())
            .Where(n => n.Name is { } name && (name.StartsWith("Dashboard.", StringComparison.Ordinal)
                || name.StartsWith("System.ServiceModel", StringComparison.Ordinal)
                || name.StartsWith("CoreWCF", StringComparison.Ordinal)
                || name == "Microsoft.Data.Sqlite"))
            .GroupBy(n => n.Name!)
            .ToDictionary(g => g.Key, g => g.First().Version?.ToString() ?? "?", StringComparer.Ordinal);
        versions["Runner"] = Assembly.GetExecutingAssembly().GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "?";
        return new RunEnvironment(
            Environment.MachineName,
            RuntimeInformation.OSDescription,
            RuntimeInformation.OSArchitecture.ToString(),
            RuntimeInformation.FrameworkDescription,
            Environment.ProcessorCount,
            GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024 * 1024),
            System.Runtime.GCSettings.IsServerGC,
            versions)
        {
            RunnerProcess = ProcessIdentity.Current(),
            GeneratorRuntime = Load.GeneratorRuntime.Current(),
            CpuClockMHz = Service.Contracts.Resources.CpuClock.ReadProcCpuinfo()?.MHz,
        };
    }

    private static string? ReadTrimmed(string path)
    {
        try
        {
            return File.Exists(path) ? File.ReadAllText(path).Trim() : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static string? ProcField(string path, string key) =>
        ReadTrimmed(path)?.Split('\n').Select(l => l.Split(':', 2)).FirstOrDefault(p => p.Length == 2 && p[0].Trim() == key)?[1].Trim();

    private static int CountProcLines(string path, string key) =>
        ReadTrimmed(path)?.Split('\n').Count(l => l.Split(':', 2) is [var k, _] && k.Trim() == key) ?? 0;

    private static Dictionary<string, IReadOnlyDictionary<string, string>> ClientLibrariesOfDrivers()
    {
        var result = new Dictionary<string, IReadOnlyDictionary<string, string>>(StringComparer.Ordinal);
        var node = Clients.External.BuildInfo.NodeDriverDirectory;
        var packageJson = Path.Combine(node, "package.json");
        if (node.Length > 0 && File.Exists(packageJson))
        {
            try
            {
                using var manifest = System.Text.Json.JsonDocument.Parse(File.ReadAllText(packageJson));
                var libraries = new Dictionary<string, string>(StringComparer.Ordinal);
                if (manifest.RootElement.TryGetProperty("dependencies", out var dependencies))
                {
                    foreach (var dependency in dependencies.EnumerateObject())
                    {
                        var installed = Path.Combine(node, "node_modules", dependency.Name, "package.json");
                        using var package = File.Exists(installed) ? System.Text.Json.JsonDocument.Parse(File.ReadAllText(installed)) : null;
                        libraries[dependency.Name] = package?.RootElement.TryGetProperty("version", out var v) == true ? v.GetString() ?? "?" : dependency.Value.ToString();
                    }
                }

                result["node"] = libraries;
            }
            catch (Exception e) when (e is IOException or System.Text.Json.JsonException or UnauthorizedAccessException)
            {
                // An unreadable manifest leaves the node libraries out; the run still records the rest.
            }
        }

        var classPath = Path.Combine(AppContext.BaseDirectory, "drivers", "java", "classpath");
        if (ReadTrimmed(classPath) is { Length: > 0 } jars)
        {
            result["java"] = jars.Split(':', StringSplitOptions.RemoveEmptyEntries)
                .Where(j => !string.IsNullOrEmpty(Path.GetFileName(j))).DistinctBy(Path.GetFileName, StringComparer.Ordinal)
                .ToDictionary(j => Path.GetFileName(j), j => ComponentVersions.OfJar(j) ?? "?", StringComparer.Ordinal);
        }

        // The in-process clients: dotnet (HttpClient, part of .NET; gRPC through Grpc.Net.Client) and wcf (System.ServiceModel).
        var dotnet = new Dictionary<string, string>(StringComparer.Ordinal);
        var wcf = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (assembly, into) in new[] { ("Grpc.Net.Client", dotnet), ("Google.Protobuf", dotnet), ("System.ServiceModel.Primitives", wcf), ("System.ServiceModel.Http", wcf) })
        {
            if (ComponentVersions.OfAssemblyFile(Path.Combine(AppContext.BaseDirectory, assembly + ".dll")) is { } version)
            {
                into[assembly] = version;
            }
        }

        dotnet["HttpClient (.NET)"] = Environment.Version.ToString();
        result["dotnet"] = dotnet;
        if (wcf.Count > 0)
        {
            result["wcf"] = wcf;
        }

        return result;
    }
}
