namespace Dashboard.Runner.Topologies;

/// <summary>
/// The topology a run was measured in, recorded with it (<c>Runs.Topology</c>, <c>Runs.LinkRateMbps</c>, the run's
/// environment JSON <c>topology</c>) and in the per-level CSV (docs/topologies.md).
/// </summary>
/// <param name="Name"><c>same-machine</c>, <c>emulated-lan</c> or <c>remote</c> (<see cref="Service.Contracts.Scenarios.Topology"/>).</param>
/// <param name="LinkRateMbps">The emulated link's rate (Mbit/s, each direction), or null.</param>
/// <param name="HostAddress">The address the runner reached the host's control API at.</param>
/// <param name="HostCores">The cores the host was pinned to, or null (not pinned).</param>
/// <param name="GeneratorCores">The cores the runner and its drivers were pinned to, or null (not pinned).</param>
/// <param name="Namespace">The network namespace the host ran in, or null.</param>
public sealed record RunTopology(string Name, int? LinkRateMbps, string HostAddress, IReadOnlyList<int>? HostCores, IReadOnlyList<int>? GeneratorCores, string? Namespace)
{
    /// <summary>For a scenario's <c>same-machine</c> or <c>remote</c> topology: nothing pinned, no link.</summary>
    public static RunTopology Unshaped(string name, Uri host)
    {
        ArgumentNullException.ThrowIfNull(host);
        return new(name, null, host.Authority, null, null, null);
    }

    /// <summary>For an emulated-lan run.</summary>
    public static RunTopology Of(EmulatedLan lan)
    {
        ArgumentNullException.ThrowIfNull(lan);
        return new(Service.Contracts.Scenarios.Topology.EmulatedLan, lan.Settings.LinkRateMbps, lan.HostControlAddress.Authority, lan.HostCores, lan.GeneratorCores, lan.Namespace);
    }
}
