using Dashboard.Service.Contracts.Encoding;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Dashboard.Service.Host.AspNet;

/// <summary>How one aspnet variant listens, encodes and authenticates (docs/service-contract.md, docs/security.md).</summary>
/// <param name="Name">Variant id.</param>
/// <param name="Protocols">Kestrel protocols: HTTP/1.1 or HTTP/2 only (prior knowledge over cleartext, ALPN over TLS).</param>
/// <param name="Codec">Message encoding of request and response bodies; null for the gRPC variants (protobuf, <see cref="GrpcBenchmarkService"/>).</param>
/// <param name="UnixSocketFile">Socket file name for local-IPC variants, null for TCP variants.</param>
/// <param name="Tls">True for TLS with the host's server certificate (security mode Transport).</param>
/// <param name="Credential">The client credential checked: <see cref="AspNetCredential.None"/>, Basic, a client certificate or the peer's uid.</param>
public sealed record AspNetVariant(string Name, HttpProtocols Protocols, IMessageCodec? Codec, string? UnixSocketFile = null, bool Tls = false, AspNetCredential Credential = AspNetCredential.None)
{
    /// <summary>The aspnet variants this build serves.</summary>
    public static IReadOnlyList<AspNetVariant> All { get; } =
    [
        new("AspNetUdsBinXml", HttpProtocols.Http1, MessageCodecs.BinaryXml, "aspnet-binxml.sock"),
        new("AspNetUdsBinXmlPeer", HttpProtocols.Http1, MessageCodecs.BinaryXml, "aspnet-binxml-peer.sock", Credential: AspNetCredential.PeerUid),
        new("AspNetH2BinXml", HttpProtocols.Http2, MessageCodecs.BinaryXml),
        new("AspNetH2TlsBinXmlCert", HttpProtocols.Http2, MessageCodecs.BinaryXml, Tls: true, Credential: AspNetCredential.Certificate),
        new("AspNetHttpXml", HttpProtocols.Http1, MessageCodecs.TextXml),
        new("AspNetHttpJson", HttpProtocols.Http1, MessageCodecs.Json),
        new("AspNetHttpsJson", HttpProtocols.Http1, MessageCodecs.Json, Tls: true),
        new("AspNetHttpsJsonBasic", HttpProtocols.Http1, MessageCodecs.Json, Tls: true, Credential: AspNetCredential.Basic),
        new("AspNetGrpc", HttpProtocols.Http2, Codec: null),
        new("AspNetGrpcTls", HttpProtocols.Http2, Codec: null, Tls: true, Credential: AspNetCredential.Certificate),
    ];

    /// <summary>True for the gRPC variants (Grpc.AspNetCore on this variant's Kestrel server).</summary>
    public bool IsGrpc => Codec is null;
}

/// <summary>The client credential an aspnet variant checks.</summary>
public enum AspNetCredential
{
    /// <summary>None: anyone who can connect may call.</summary>
    None,

    /// <summary>HTTP Basic against the credential profiles; missing or wrong → 401.</summary>
    Basic,

    /// <summary>A client certificate in the TLS handshake, issued by the host's CA and valid now (mutual TLS); else 403 (gRPC: status Unauthenticated).</summary>
    Certificate,

    /// <summary>The caller's uid from SO_PEERCRED on the Unix socket, one of <c>ServiceHost:PeerUids</c>; else 403.</summary>
    PeerUid,
}
