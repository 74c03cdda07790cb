using System.Runtime.InteropServices;
using Dashboard.Service.Contracts.Versions;

namespace Dashboard.Service.Host.Control;

/// <summary>
/// What <c>GET /versions</c> answers: process group → component → version, read from the loaded assemblies of this
/// host (<c>aspnet</c>: .NET, ASP.NET Core, Kestrel, Grpc.AspNetCore, Google.Protobuf) and from the JVM service's own
/// report (<c>jvm</c>: Java, Metro, JAXB, FastInfoset, WSS4J, ZeroC Ice, Gson; absent while it starts or when disabled).
/// The runner records the answer with each run (<c>serverStacks</c> of the environment, docs/statistics.md).
/// </summary>
public static class ServerVersions
{
    /// <summary>The versions now.</summary>
    public static IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> Of(EndpointRegistry registry)
    {
        ArgumentNullException.ThrowIfNull(registry);
        var result = new SortedDictionary<string, IReadOnlyDictionary<string, string>>(StringComparer.Ordinal)
        {
            ["aspnet"] = new Dictionary<string, string>(StringComparer.Ordinal)
            {
                [".NET"] = RuntimeInformation.FrameworkDescription,
                ["ASP.NET Core"] = ComponentVersions.OfAssembly(typeof(WebApplication).Assembly),
                ["Kestrel"] = ComponentVersions.OfAssembly(typeof(Microsoft.AspNetCore.Server.Kestrel.Core.KestrelServerOptions).Assembly),
                ["Grpc.AspNetCore"] = ComponentVersions.OfAssembly(typeof(Grpc.AspNetCore.Server.GrpcServiceOptions).Assembly),
                ["Google.Protobuf"] = ComponentVersions.OfAssembly(typeof(Google.Protobuf.MessageParser).Assembly),
            },
        };
        foreach (var (group, versions) in registry.Versions)
        {
            result[group] = versions;
        }

        return result;
    }
}
