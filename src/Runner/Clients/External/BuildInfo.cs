using System.Reflection;

namespace Dashboard.Runner.Clients.External;

/// <summary>Paths recorded at build time (<c>AssemblyMetadata</c> in the runner's project file).</summary>
internal static class BuildInfo
{
    /// <summary>The service host executable built beside this runner (same configuration): what an emulated-lan run starts.</summary>
    public static string ServiceHostExecutable => Path.GetFullPath(
        typeof(BuildInfo).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "ServiceHostExecutable")?.Value ?? "Dashboard.Service.Host");

    /// <summary>The node driver's source folder, where <c>npm ci</c> installed its packages.</summary>
    public static string NodeDriverDirectory =>
        typeof(BuildInfo).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "NodeDriverDirectory")?.Value ?? "";
}
