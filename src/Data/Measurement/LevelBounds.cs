using Dashboard.Data.Entities;

namespace Dashboard.Data.Measurement;

/// <summary>
/// What bound a level (docs/statistics.md): the load generator when its processes (runner + drivers) used at least
/// <see cref="SaturatedPercent"/> % of the cores they may use, or when those cores were that busy by any process (on a
/// shared machine the generator could not get more CPU either); else the server when its processes used that much of
/// its cores; else neither. The generator is checked first: a saturated generator caps the load the server sees, so the
/// level then says nothing about the server's capacity (wrk2's and BenchmarkDotNet's advice: check the load generator).
/// </summary>
public static class LevelBounds
{
    /// <summary>CPU use (% of the cores a side may use) from which that side counts as the limit: 90.</summary>
    public const double SaturatedPercent = 90;

    /// <summary>Classifies a level; null when neither side's CPU was measured.</summary>
    /// <param name="generatorCpuPercent">Generator CPU, % of the cores the generator may use (0–100), or null.</param>
    /// <param name="generatorCoresBusyPercent">How busy the generator's cores were by any process, % (0–100), or null.</param>
    /// <param name="serverCpuPercent">Server CPU, % of the server's cores (0–100), or null.</param>
    public static LevelBound? Classify(double? generatorCpuPercent, double? generatorCoresBusyPercent, double? serverCpuPercent) =>
        generatorCpuPercent is null && generatorCoresBusyPercent is null && serverCpuPercent is null ? null
        : generatorCpuPercent >= SaturatedPercent || generatorCoresBusyPercent >= SaturatedPercent ? LevelBound.Generator
        : serverCpuPercent >= SaturatedPercent ? LevelBound.Server
        : LevelBound.Neither;
}
