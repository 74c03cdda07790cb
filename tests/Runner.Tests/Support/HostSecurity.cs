using Dashboard.Runner.Clients;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Support;

/// <summary>The CA and credentials a test host's secure endpoints take, read from its security folder as the runner reads them.</summary>
public static class HostSecurity
{
    /// <summary>What a client of <paramref name="endpoint"/> gets from <paramref name="host"/>'s folder with profile <c>bench</c>; <see cref="ClientSecurity.None"/> for unsecure endpoints.</summary>
    public static ClientSecurity For(ServiceHostProcess host, HostEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(host);
        ArgumentNullException.ThrowIfNull(endpoint);
        var scenario = new ScenarioDocument { Variants = [endpoint.Name] };
        return SecurityFolder.ForScenario(scenario, host.SecurityDirectory)?.For(endpoint) ?? ClientSecurity.None;
    }
}
