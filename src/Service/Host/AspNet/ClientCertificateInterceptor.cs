using Dashboard.Service.Host.Security;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The client certificate check of <c>AspNetGrpcTls</c> (docs/security.md): the certificate presented in the TLS
/// handshake must chain to the host's CA alone, be valid now and carry clientAuth (<see cref="SecurityMaterial.IsTrustedClientCertificate"/>),
/// decided once per connection as on <c>AspNetH2TlsBinXmlCert</c>; otherwise every call ends with status
/// <c>Unauthenticated</c> (gRPC's counterpart of that variant's 403) before the operation runs.
/// </summary>
/// <param name="material">The host's security material.</param>
public sealed class ClientCertificateInterceptor(SecurityMaterial material) : Interceptor
{
    /// <inheritdoc />
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (!RequestAuthorization.IsClientCertificateTrusted(context.GetHttpContext(), material.IsTrustedClientCertificate))
        {
            throw new RpcException(new Status(StatusCode.Unauthenticated, "a client certificate issued by the host's CA and valid now is required"));
        }

        return continuation(request, context);
    }
}
