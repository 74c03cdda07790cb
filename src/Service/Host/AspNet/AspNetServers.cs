using System.Net;
using System.Security.Authentication;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Service.Host.Control;
using Dashboard.Service.Host.Security;
using Dashboard.Service.Host.Settings;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// Serves the aspnet variants: one Kestrel server per variant, each on its own port or Unix socket, in the host's
/// process (so the host's CPU and memory in <c>/resources</c> are this stack's). A variant gets a server when
/// <see cref="ServiceHostOptions.Ports"/> names it (TCP) or when it is a local-IPC variant (Unix socket).
/// TLS variants use the host's server certificate (<see cref="SecurityMaterial"/>), TLS 1.2 or 1.3; the mutual TLS
/// variants (<c>AspNetH2TlsBinXmlCert</c>, <c>AspNetGrpcTls</c>) require a client certificate that chains to the host's CA
/// alone and is valid now (else 403, on gRPC status Unauthenticated); the gRPC variants serve <see cref="GrpcBenchmarkService"/>
/// (Grpc.AspNetCore) over HTTP/2 on their own server; the Basic
/// variant checks the credential profiles (else 401); the peer variant the caller's uid (else 403) (docs/security.md).
/// </summary>
public sealed class AspNetServers(IOptions<ServiceHostOptions> options, SecurityMaterial material, EndpointRegistry registry, ILogger<AspNetServers> logger) : IHostedService
{
    /// <summary>The group name of this stack in the registry and <c>/healthz</c>.</summary>
    public const string Group = "aspnet";

    private readonly List<WebApplication> _servers = [];

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        var endpoints = new List<HostEndpoint>();
        foreach (var variant in AspNetVariant.All)
        {
            var catalogue = VariantCatalogue.All.Single(v => v.Name == variant.Name);
            string address;
            if (variant.UnixSocketFile is { } file)
            {
                Directory.CreateDirectory(settings.EffectiveSocketDirectory);
                var path = Path.Combine(settings.EffectiveSocketDirectory, file);
                File.Delete(path);
                await StartServerAsync(variant, settings, listen => listen.ListenUnixSocket(path, l => Configure(l, variant)), cancellationToken);
                address = "unix:" + path;
            }
            else if (settings.Ports.TryGetValue(variant.Name, out var port))
            {
                var bind = ParseBindAddress(settings.BindAddress);
                var server = await StartServerAsync(variant, settings, listen => listen.Listen(bind, port, l => Configure(l, variant)), cancellationToken);
                var bound = new Uri(server.Services.GetRequiredService<Microsoft.AspNetCore.Hosting.Server.IServer>()
                    .Features.Get<IServerAddressesFeature>()!.Addresses.First());
                address = $"{(variant.Tls ? "https" : "http")}://{settings.AdvertisedHost}:{bound.Port}/";
            }
            else
            {
                continue;
            }

            endpoints.Add(new HostEndpoint(variant.Name, catalogue.Stack, address, catalogue.Transport, catalogue.Encoding, catalogue.SecurityMode, catalogue.CredentialType, OnMachineOnly: catalogue.IsLocalIpc));
            logger.LogInformation("Variant {Variant} listens on {Address}", variant.Name, address);
        }

        registry.Set(Group, endpoints, "up");
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        registry.Set(Group, [], "stopped");
        foreach (var server in _servers)
        {
            await server.StopAsync(cancellationToken);
            await server.DisposeAsync();
        }

        _servers.Clear();
        if (options.Value.SocketDirectory is null && Directory.Exists(options.Value.EffectiveSocketDirectory))
        {
            Directory.Delete(options.Value.EffectiveSocketDirectory, recursive: true);
        }
    }

    private async Task<WebApplication> StartServerAsync(AspNetVariant variant, ServiceHostOptions settings, Action<Microsoft.AspNetCore.Server.Kestrel.Core.KestrelServerOptions> listen, CancellationToken cancellationToken)
    {
        var builder = VariantServer.CreateBuilder(variant.Name);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            // Every aspnet variant (HTTP/1.1 on TCP and on the Unix socket, h2c) gets the same limits (docs/service-contract.md).
            kestrel.Limits.MaxRequestBodySize = settings.MaxRequestBodyBytes;
            var slow = TimeSpan.FromSeconds(settings.SlowClientTimeoutSeconds);
            kestrel.Limits.RequestHeadersTimeout = slow;
            // Also bounds an HTTP/2 connection that never finishes its preface (RequestHeadersTimeout does not apply there).
            kestrel.Limits.KeepAliveTimeout = slow;
            var grace = TimeSpan.FromSeconds(Math.Min(5, settings.SlowClientTimeoutSeconds));
            kestrel.Limits.MinRequestBodyDataRate = new MinDataRate(bytesPerSecond: 240, gracePeriod: grace);
            kestrel.Limits.MinResponseDataRate = new MinDataRate(bytesPerSecond: 240, gracePeriod: grace);
            // 300 clients with one stream each on their own connections; a window large enough for Bytes256K replies.
            kestrel.Limits.Http2.InitialConnectionWindowSize = 4 * 1024 * 1024;
            kestrel.Limits.Http2.InitialStreamWindowSize = 2 * 1024 * 1024;
            listen(kestrel);
        });
        if (variant.IsGrpc)
        {
            builder.Services.AddGrpc(grpc =>
            {
                // The same request limit as every variant (docs/service-contract.md); replies are bounded by the operations.
                grpc.MaxReceiveMessageSize = (int)Math.Min(int.MaxValue, settings.MaxRequestBodyBytes);
                grpc.EnableDetailedErrors = false;
                if (variant.Credential == AspNetCredential.Certificate)
                {
                    grpc.Interceptors.Add<ClientCertificateInterceptor>(material);
                }
            });
            var grpcApp = builder.Build();
            grpcApp.MapGrpcService<GrpcBenchmarkService>();
            await grpcApp.StartAsync(cancellationToken);
            _servers.Add(grpcApp);
            return grpcApp;
        }

        var app = builder.Build();
        var codec = variant.Codec!;
        switch (variant.Credential)
        {
            case AspNetCredential.Basic:
                var passwords = RequestAuthorization.PasswordsByUser(material.Profiles);
                app.Run(context => RequestAuthorization.CheckBasic(context, passwords) ? OperationEndpoint.HandleAsync(context, codec) : Task.CompletedTask);
                break;
            case AspNetCredential.Certificate:
                app.Run(context => RequestAuthorization.CheckClientCertificate(context, material.IsTrustedClientCertificate) ? OperationEndpoint.HandleAsync(context, codec) : Task.CompletedTask);
                break;
            case AspNetCredential.PeerUid:
                var uids = settings.PeerUids.Length > 0 ? settings.PeerUids.ToHashSet() : [PeerCredentials.CurrentUid];
                app.Run(context => RequestAuthorization.CheckPeer(context, uids) ? OperationEndpoint.HandleAsync(context, codec) : Task.CompletedTask);
                break;
            default:
                app.Run(context => OperationEndpoint.HandleAsync(context, codec));
                break;
        }

        await app.StartAsync(cancellationToken);
        _servers.Add(app);
        return app;
    }

    private void Configure(ListenOptions listen, AspNetVariant variant)
    {
        listen.Protocols = variant.Protocols;
        if (variant.Credential == AspNetCredential.PeerUid)
        {
            listen.Use(RequestAuthorization.ReadPeerUid);
        }

        if (!variant.Tls)
        {
            return;
        }

        listen.UseHttps(https =>
        {
            https.ServerCertificate = material.ServerCertificate;
            https.SslProtocols = SslProtocols.Tls12 | SslProtocols.Tls13;
            https.CheckCertificateRevocation = false;
            // A client that never finishes its handshake is a slow client too: Kestrel's default bound is 10 s.
            https.HandshakeTimeout = TimeSpan.FromSeconds(Math.Min(10, options.Value.SlowClientTimeoutSeconds));
            if (variant.Credential == AspNetCredential.Certificate)
            {
                // The client proves it holds the certificate's key in the handshake (CertificateVerify); whether the
                // certificate is ours is decided per connection in the request pipeline (RequestAuthorization.CheckClientCertificate),
                // as ASP.NET Core's certificate authentication does: a refusal is then an HTTP 403 every client reports as
                // such. Refused in the handshake, a TLS 1.3 client would only see its connection dropped after its own
                // handshake had completed (.NET's server closes without an alert).
                https.ClientCertificateMode = ClientCertificateMode.AllowCertificate;
                https.AllowAnyClientCertificate();
            }
        });
    }

    private static IPAddress ParseBindAddress(string bind) => bind switch
    {
        "*" or "0.0.0.0" => IPAddress.Any,
        "localhost" => IPAddress.Loopback,
        _ => IPAddress.Parse(bind),
    };
}
