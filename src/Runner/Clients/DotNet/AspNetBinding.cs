using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>How the <c>dotnet</c> client talks to one aspnet variant: HTTP version and message encoding (docs/service-contract.md).</summary>
/// <param name="HttpVersion">1.1, or 2.0 with prior knowledge (no upgrade) for the h2c variants.</param>
/// <param name="Codec">The variant's message encoding, the same code the host uses.</param>
public sealed record AspNetBinding(Version HttpVersion, IMessageCodec Codec)
{
    /// <summary>The binding of <paramref name="variant"/>, or null when it is not an aspnet variant this client calls.</summary>
    public static AspNetBinding? For(string variant) => variant switch
    {
        "AspNetUdsBinXml" => new(System.Net.HttpVersion.Version11, MessageCodecs.BinaryXml),
        "AspNetH2BinXml" => new(System.Net.HttpVersion.Version20, MessageCodecs.BinaryXml),
        "AspNetHttpXml" => new(System.Net.HttpVersion.Version11, MessageCodecs.TextXml),
        "AspNetHttpJson" => new(System.Net.HttpVersion.Version11, MessageCodecs.Json),
        _ => null,
    };

    /// <summary>True when <paramref name="endpoint"/>'s address is a Unix domain socket (<c>unix:/path</c>).</summary>
    public static bool IsUnixSocket(HostEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return endpoint.Address.StartsWith("unix:", StringComparison.Ordinal);
    }
}
