using Dashboard.Data.Entities;

namespace Dashboard.Data.Statistics;

/// <summary>
/// What bound a level (docs/statistics.md, "What bound each level"), in this order:
/// <list type="number">
/// <item>the load generator, when its own processes (runner + drivers) used at least <see cref="SaturatedPercent"/> %
/// of the cores they may use: a saturated generator caps the load the server sees (wrk2's and BenchmarkDotNet's advice:
/// check the load generator);</item>
/// <item>the server, when its processes used that much of its cores;</item>
/// <item>when the generator's cores were that busy by any process but neither side used that much alone: the
/// generator if it does not share those cores with the server (other processes took the CPU it needed: it could not
/// offer more load), else the machine (<see cref="LevelBound.Machine"/>: generator and server competed for the same
/// saturated cores; calling that generator-bound would blame the generator for the server's own CPU use, and would
/// make "server-bound" impossible on one machine, where the server's use alone keeps the shared cores busy);</item>
/// <item>else neither.</item>
/// </list>
/// </summary>
public static class LevelBounds
{
    /// <summary>CPU use (% of the cores a side may use) from which that side counts as the limit: 90.</summary>
    public const double SaturatedPercent = 90;

    /// <summary>Classifies a level; null when neither side's CPU was measured.</summary>
    /// <param name="generatorCpuPercent">Generator CPU, % of the cores the generator may use (0–100), or null.</param>
    /// <param name="generatorCoresBusyPercent">How busy the generator's cores were by any process, % (0–100), or null.</param>
    /// <param name="serverCpuPercent">Server CPU, % of the server's cores (0–100), or null.</param>
    /// <param name="sharesCoresWithServer">True when the server may run on some of the generator's cores (same machine, overlapping CPU affinity).</param>
    public static LevelBound? Classify(double? generatorCpuPercent, double? generatorCoresBusyPercent, double? serverCpuPercent, bool sharesCoresWithServer = false) =>
        generatorCpuPercent is null && generatorCoresBusyPercent is null && serverCpuPercent is null ? null
        : generatorCpuPercent >= SaturatedPercent ? LevelBound.Generator
        : serverCpuPercent >= SaturatedPercent ? LevelBound.Server
        : generatorCoresBusyPercent >= SaturatedPercent ? (sharesCoresWithServer ? LevelBound.Machine : LevelBound.Generator)
        : LevelBound.Neither;

    /// <summary>
    /// Whether generator and server share cores: never across machines (<paramref name="otherMachine"/>); on one machine,
    /// when the server's cores are unknown or every core (null or empty), or overlap the generator's.
    /// </summary>
    /// <param name="otherMachine">True when the server runs on another machine (topology <c>remote</c>).</param>
    /// <param name="generatorCores">The cores the generator may use, or null when unknown.</param>
    /// <param name="serverCores">The cores the server may use; null or empty: every core (or unknown).</param>
    public static bool SharesCores(bool otherMachine, IReadOnlySet<int>? generatorCores, IReadOnlyList<int>? serverCores) =>
        !otherMachine && (generatorCores is null || serverCores is null || serverCores.Count == 0 || serverCores.Any(generatorCores.Contains));
}
