using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Clients.Lean;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.External;

/// <summary>
/// Each driver's behaviour against the catalogue's pairs (src/Service/Contracts/Catalogue/catalogue.json): a driver
/// refuses exactly the variants its client technology does not call ("does not call" / "cannot call"), and takes up
/// the others (it may still fail to connect: no host listens on the addresses given here).
/// </summary>
public sealed class DriverCatalogueTests
{
    public static TheoryData<string> Clients => new(ClientTechnology.All.Select(c => c.Id));

    [Theory]
    [MemberData(nameof(Clients))]
    public async Task OpenCell_EveryVariant_RefusedExactlyWhenTheCatalogueHasNoPair(string client)
    {
        PayloadCatalogue.TryGet("Int", out var payload);
        var technology = ClientTechnology.Get(client);
        var disagreements = new List<string>();
        foreach (var variant in VariantCatalogue.All.Where(v => v.IsAvailable))
        {
            var failure = await TryOpenAsync(Driver(client), Unreachable(variant), payload!);
            var refused = failure is not null && failure.Contains(variant.Name, StringComparison.Ordinal)
                && (failure.Contains("does not call", StringComparison.Ordinal) || failure.Contains("cannot call", StringComparison.Ordinal));
            if (refused == technology.Callable.Contains(variant.Name))
            {
                disagreements.Add($"{variant.Name}: catalogue pair {technology.Callable.Contains(variant.Name)}, driver said '{failure ?? "ready"}'");
            }
        }

        Assert.Empty(disagreements);
    }

    private static async Task<string?> TryOpenAsync(IClientDriver driver, HostEndpoint endpoint, PayloadCase payload)
    {
        try
        {
            await using var session = await driver.OpenCellAsync(endpoint, payload, null, CancellationToken.None);
            return null;
        }
        catch (Exception e)
        {
            return e.Message;
        }
    }

    /// <summary>The variant as <c>GET /endpoints</c> would list it, at an address where nothing listens (port 9 on loopback).</summary>
    private static HostEndpoint Unreachable(EndpointVariant v)
    {
        var address = v.Stack == VariantCatalogue.Ice ? $"benchmark:{(v.Tls ? "ssl" : "tcp")} -h 127.0.0.1 -p 9 -t 2000"
            : v.SocketFile is { } file ? "unix:" + Path.Combine(Path.GetTempPath(), "no-such-dir", file)
            : v.Transport.StartsWith("net.tcp", StringComparison.Ordinal) ? "net.tcp://127.0.0.1:9/benchmark"
            : $"{(v.Tls ? "https" : "http")}://127.0.0.1:9/{(v.Stack == VariantCatalogue.Metro ? "benchmark" : "")}";
        return new HostEndpoint(v.Name, v.Stack, address, v.Transport, v.Encoding, v.SecurityMode, v.CredentialType,
            v.Stack == VariantCatalogue.Metro ? address + "?wsdl" : null, v.IsLocalIpc);
    }

    private static IClientDriver Driver(string client) => client switch
    {
        "java" => new ExternalProcessDriver(DriverCommand.Java(RepositoryPaths.JavaDriver), TimeSpan.FromSeconds(2)),
        "node" => new ExternalProcessDriver(DriverCommand.Node(RepositoryPaths.NodeDriver), TimeSpan.FromSeconds(2)),
        "wcf" => new WcfDriver(TimeSpan.FromSeconds(2)),
        "lean" => new LeanDriver(TimeSpan.FromSeconds(2)),
        _ => new DotNetDriver(TimeSpan.FromSeconds(2)),
    };
}
