using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Variants;
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
    /// <summary>The aspnet variants this build serves: the catalogue's (<see cref="VariantCatalogue"/>), each mapped by <see cref="From"/>.</summary>
    public static IReadOnlyList<AspNetVariant> All { get; } =
        [.. VariantCatalogue.All.Where(v => v.Stack == VariantCatalogue.AspNet && v.IsAvailable).Select(From)];

    /// <summary>
    /// How the host serves <paramref name="variant"/>, from the catalogue's properties: HTTP version, codec
    /// (<c>binxml</c>, <c>xml</c>, <c>json</c>, <c>protobuf</c> for gRPC), socket file, TLS and credential type.
    /// </summary>
    /// <exception cref="ArgumentException">A codec or credential type the aspnet stack does not serve.</exception>
    public static AspNetVariant From(EndpointVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        IMessageCodec? codec = variant.Codec switch
        {
            "binxml" => MessageCodecs.BinaryXml,
            "xml" => MessageCodecs.TextXml,
            "json" => MessageCodecs.Json,
            "protobuf" => null,
            _ => throw new ArgumentException($"{variant.Name}: the aspnet stack has no codec '{variant.Codec}'", nameof(variant)),
        };
        var credential = variant.CredentialType switch
        {
            "None" => AspNetCredential.None,
            "Basic" => AspNetCredential.Basic,
            "Certificate" => AspNetCredential.Certificate,
            "OsIdentity" => AspNetCredential.PeerUid,
            _ => throw new ArgumentException($"{variant.Name}: the aspnet stack has no credential '{variant.CredentialType}'", nameof(variant)),
        };
        var protocols = variant.Http == "2" ? HttpProtocols.Http2 : HttpProtocols.Http1;
        return new AspNetVariant(variant.Name, protocols, codec, variant.SocketFile, variant.Tls, credential);
    }

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
