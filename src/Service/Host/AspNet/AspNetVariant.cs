using Dashboard.Service.Contracts.Encoding;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Dashboard.Service.Host.AspNet;

/// <summary>How one aspnet variant listens and encodes (DESIGN.md §6).</summary>
/// <param name="Name">Variant id.</param>
/// <param name="Protocols">Kestrel protocols: HTTP/1.1 or HTTP/2 only (prior knowledge, no upgrade).</param>
/// <param name="Codec">Message encoding of request and response bodies.</param>
/// <param name="UnixSocketFile">Socket file name for local-IPC variants, null for TCP variants.</param>
public sealed record AspNetVariant(string Name, HttpProtocols Protocols, IMessageCodec Codec, string? UnixSocketFile = null)
{
    /// <summary>The aspnet variants this build serves.</summary>
    public static IReadOnlyList<AspNetVariant> All { get; } =
    [
        new("AspNetUdsBinXml", HttpProtocols.Http1, MessageCodecs.BinaryXml, "aspnet-binxml.sock"),
        new("AspNetH2BinXml", HttpProtocols.Http2, MessageCodecs.BinaryXml),
        new("AspNetHttpXml", HttpProtocols.Http1, MessageCodecs.TextXml),
        new("AspNetHttpJson", HttpProtocols.Http1, MessageCodecs.Json),
    ];
}
