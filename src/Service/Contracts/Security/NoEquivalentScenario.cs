namespace Dashboard.Service.Contracts.Security;

/// <summary>
/// Thesis scenarios (Table 7.2) that have no equivalent on the stacks of this build, and why (docs/security.md). Listed
/// in the host's <c>GET /security</c> and in the UI's variant picker.
/// </summary>
/// <param name="Scenarios">The thesis scenario names.</param>
/// <param name="Reason">Why they cannot be reproduced here, one sentence.</param>
/// <param name="Nearest">The nearest variant this build serves, or null.</param>
public sealed record NoEquivalentScenario(IReadOnlyList<string> Scenarios, string Reason, string? Nearest = null)
{
    /// <summary>Windows credentials and named pipes.</summary>
    public static IReadOnlyList<NoEquivalentScenario> All { get; } =
    [
        new(["TcpTptSgnWin", "TcpTptEncWin", "TcpMsgWin"],
            "Windows credentials (Negotiate/Kerberos) need a Kerberos realm, which this machine does not have"),
        new(["PipeTptSgnWin", "PipeTptEncWin"],
            "named pipes are a Windows transport; the nearest here is a Unix socket with the caller's OS identity",
            "AspNetUdsBinXmlPeer"),
    ];
}
