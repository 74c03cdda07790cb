using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.Json.Serialization;
using Dashboard.Data.Runs;

namespace Dashboard.Runner.Execution;

/// <summary>
/// Where a run was measured (DESIGN.md "measurement hygiene"): machine, OS, runtime, processor count and the
/// versions of the assemblies on the measured path. Stored with the run as JSON. <see cref="RunnerProcess"/> names the
/// runner process, so a run it leaves <c>Running</c> when killed is found and marked (<see cref="AbandonedRuns"/>).
/// </summary>
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
    [JsonPropertyName(Data.Claims.CpuClock.EnvironmentProperty)]
    public double? CpuClockMHz { get; init; }
    /// <summary>Where the host ran relative to the generator (docs/topologies.md): JSON <c>topology</c>; null in runs recorded before topologies.</summary>
    public Topologies.RunTopology? Topology { get; init; }

    /// <summary>The environment of the current (load generator) process.</summary>
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
            CpuClockMHz = Data.Claims.CpuClock.ReadProcCpuinfo()?.MHz,
        };
    }
}
