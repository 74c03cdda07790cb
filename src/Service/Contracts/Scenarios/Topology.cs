namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// Where the service host runs relative to the load generator (docs/topologies.md; the thesis's first dimension,
/// on-machine vs cross-machine over a 100 Mbit/s LAN, Table 7.2 and ch. 9.1.1). The scenario field <c>topology</c>.
/// </summary>
public static class Topology
{
    /// <summary>Host and generator on one machine, sharing every core; loopback or Unix sockets (the default).</summary>
    public const string SameMachine = "same-machine";

    /// <summary>
    /// The runner starts the service host in a network namespace of its own, joined to the generator by a veth pair shaped
    /// with an htb class to <c>linkRateMbps</c> both ways, the cores split between host and generator. No delay is added
    /// (this kernel has no netem).
    /// </summary>
    public const string EmulatedLan = "emulated-lan";

    /// <summary>A host on another machine, reached by its address; no shaping, no pinning; recorded as remote.</summary>
    public const string Remote = "remote";

    /// <summary>Every topology, in the order the UI offers them.</summary>
    public static IReadOnlyList<string> All { get; } = [SameMachine, EmulatedLan, Remote];

    /// <summary>Default link rate of <see cref="EmulatedLan"/>, in Mbit/s: the thesis's lab LAN (100 Mbit/s).</summary>
    public const int DefaultLinkRateMbps = 100;

    /// <summary>Largest link rate, in Mbit/s (100 Gbit/s).</summary>
    public const int MaxLinkRateMbps = 100_000;

    /// <summary>True when the topology puts a network between generator and host (Unix-socket variants cannot be called across it).</summary>
    public static bool IsCrossMachine(string? topology) => topology is EmulatedLan or Remote;

    /// <summary>How a topology is shown: "on-machine" or "cross-machine (…)", the thesis's words.</summary>
    public static string Describe(string? topology, int? linkRateMbps) => topology switch
    {
        EmulatedLan => $"cross-machine (emulated LAN, {FormatRate(linkRateMbps ?? DefaultLinkRateMbps)})",
        Remote => "cross-machine (remote host)",
        _ => "on-machine",
    };

    /// <summary>A link rate as people write it: <c>100 Mbit/s</c>, <c>1 Gbit/s</c>.</summary>
    public static string FormatRate(int mbps) => mbps % 1000 == 0 ? $"{mbps / 1000} Gbit/s" : $"{mbps} Mbit/s";
}
