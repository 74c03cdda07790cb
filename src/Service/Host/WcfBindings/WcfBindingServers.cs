using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.ServiceModel.Channels;
using System.Xml;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Service.Contracts.Versions;
using Dashboard.Service.Host.Control;
using Dashboard.Service.Host.Security;
using Dashboard.Service.Host.Settings;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// Serves the wcfbindings variants in the host's process: WCF bindings served by .NET with WCF's own message encoders
/// (System.ServiceModel.Primitives); the dispatcher is ours (<see cref="BenchmarkDispatcher"/>); CoreWCF is not in this
/// registry. A net.tcp variant is a TCP listener of ours speaking [MC-NMF] (<see cref="NetTcpConnection"/>) on the port
/// <see cref="ServiceHostOptions.Ports"/> names, at <c>net.tcp://{AdvertisedHost}:{port}/benchmark</c>; an HTTP variant
/// (BasicHttp, WSHttp, binary over HTTP) a Kestrel server of its own (<see cref="BasicHttpEndpoint"/>: SOAP 1.1 text, SOAP
/// 1.2 + WS-Addressing 1.0 text or WCF's sessionless binary encoder, HTTPS with the host's server certificate, Basic
/// against the credential profiles) at <c>http(s)://…/benchmark</c>. Listed in
/// <c>/endpoints</c> and <c>/healthz</c> as the group <c>wcfbindings</c>; its component versions in <c>/versions</c>.
/// </summary>
public sealed class WcfBindingServers(IOptions<ServiceHostOptions> options, SecurityMaterial material, EndpointRegistry registry, ILogger<WcfBindingServers> logger) : IHostedService, IDisposable
{
    /// <summary>The group name of this stack in the registry, <c>/healthz</c> and <c>/versions</c>.</summary>
    public const string Group = WcfBindingVariant.Stack;

    /// <summary>The path of every endpoint of the stack.</summary>
    public const string EndpointPath = "/benchmark";

    private readonly CancellationTokenSource _stopping = new();
    private readonly List<Socket> _listeners = [];
    private readonly List<Task> _loops = [];
    private readonly List<WebApplication> _servers = [];
    private readonly BenchmarkDispatcher _dispatcher = new();

    /// <summary>What <c>/versions</c> says of this stack: .NET and the encoders' package as loaded.</summary>
    public static IReadOnlyDictionary<string, string> Versions { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        [".NET"] = RuntimeInformation.FrameworkDescription,
        ["System.ServiceModel.Primitives"] = ComponentVersions.OfAssembly(typeof(Message).Assembly),
        ["dispatcher"] = "ours (src/Service/Host/WcfBindings); CoreWCF is not in this registry",
    };

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        var endpoints = new List<HostEndpoint>();
        var buffers = BufferManager.CreateBufferManager(64L * 1024 * 1024, (int)Math.Min(int.MaxValue, settings.MaxRequestBodyBytes));
        foreach (var variant in WcfBindingVariant.All)
        {
            if (!settings.Ports.TryGetValue(variant.Name, out var port))
            {
                continue;
            }

            var catalogue = VariantCatalogue.All.Single(v => v.Name == variant.Name);
            if (variant.Transport != WcfBindingTransport.NetTcp)
            {
                var http = await StartHttpAsync(variant, settings, port, buffers, cancellationToken);
                var wsdl = WsdlDirectoryOf(variant) is { } folder && File.Exists(Path.Combine(folder, "BenchmarkService.wsdl")) ? http + "?wsdl" : null;
                endpoints.Add(new HostEndpoint(variant.Name, catalogue.Stack, http, catalogue.Transport, catalogue.Encoding, catalogue.SecurityMode, catalogue.CredentialType, wsdl));
                logger.LogInformation("Variant {Variant} listens on {Address}", variant.Name, http);
                continue;
            }

            var listener = new Socket(SocketType.Stream, ProtocolType.Tcp);
            ClampSegmentSize(listener);
            listener.Bind(new IPEndPoint(ParseBindAddress(settings.BindAddress), port));
            listener.Listen(512);
            _listeners.Add(listener);
            var bound = ((IPEndPoint)listener.LocalEndPoint!).Port;
            var connection = new NetTcpSettings(
                variant.Name,
                EndpointPath,
                EncoderFactory(),
                buffers,
                _dispatcher,
                (int)Math.Min(int.MaxValue, settings.MaxRequestBodyBytes),
                TimeSpan.FromSeconds(settings.SlowClientTimeoutSeconds),
                TimeSpan.FromMinutes(10),
                variant.Tls ? material.ServerCertificate : null,
                variant.ClientCertificate ? material.IsTrustedClientCertificate : null);
            _loops.Add(AcceptLoopAsync(listener, connection));
            var address = $"net.tcp://{settings.AdvertisedHost}:{bound}{EndpointPath}";
            endpoints.Add(new HostEndpoint(variant.Name, catalogue.Stack, address, catalogue.Transport, catalogue.Encoding, catalogue.SecurityMode, catalogue.CredentialType));
            logger.LogInformation("Variant {Variant} listens on {Address}", variant.Name, address);
        }

        registry.SetVersions(Group, Versions);
        registry.Set(Group, endpoints, "up");
    }

    /// <summary>The Metro service's SOAP 1.1 WSDL and schemas as the host's build made them (<c>jvm/wsdl/soap11</c>), served by the BasicHttp variants.</summary>
    public static string WsdlDirectory => Path.Combine(AppContext.BaseDirectory, "jvm", "wsdl", "soap11");

    /// <summary>
    /// The Metro service's SOAP 1.2 WSDL and schemas as the host's build made them (<c>jvm/wsdl/soap12</c>, wsgen's, with
    /// each operation's <c>wsam:Action</c>), served by <c>WcfWsHttp</c> with the WS-Addressing policy added
    /// (<see cref="BasicHttpEndpoint"/>).
    /// </summary>
    public static string Soap12WsdlDirectory => Path.Combine(AppContext.BaseDirectory, "jvm", "wsdl", "soap12");

    /// <summary>The WSDL folder <paramref name="variant"/> serves: SOAP 1.1 for BasicHttp, SOAP 1.2 for WSHttp without security, else null (none).</summary>
    public static string? WsdlDirectoryOf(WcfBindingVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.Transport switch
        {
            WcfBindingTransport.BasicHttp => WsdlDirectory,
            WcfBindingTransport.WsHttp when !variant.UserName => Soap12WsdlDirectory,
            _ => null,
        };
    }

    private async Task<string> StartHttpAsync(WcfBindingVariant variant, ServiceHostOptions settings, int port, BufferManager buffers, CancellationToken cancellationToken)
    {
        var builder = AspNet.VariantServer.CreateBuilder(variant.Name);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Limits.MaxRequestBodySize = settings.MaxRequestBodyBytes;
            var slow = TimeSpan.FromSeconds(settings.SlowClientTimeoutSeconds);
            kestrel.Limits.RequestHeadersTimeout = slow;
            kestrel.Limits.KeepAliveTimeout = slow;
            kestrel.Listen(ParseBindAddress(settings.BindAddress), port, listen =>
            {
                listen.Protocols = Microsoft.AspNetCore.Server.Kestrel.Core.HttpProtocols.Http1;
                if (variant.Tls)
                {
                    listen.UseHttps(https =>
                    {
                        https.ServerCertificate = material.ServerCertificate;
                        https.SslProtocols = System.Security.Authentication.SslProtocols.Tls12 | System.Security.Authentication.SslProtocols.Tls13;
                        https.CheckCertificateRevocation = false;
                        https.HandshakeTimeout = TimeSpan.FromSeconds(Math.Min(10, settings.SlowClientTimeoutSeconds));
                    });
                }
            });
        });
        var app = builder.Build();
        var encoder = variant.Transport switch
        {
            WcfBindingTransport.WsHttp => BasicHttpEndpoint.Soap12AddressingEncoder(),
            WcfBindingTransport.BinaryHttp => BasicHttpEndpoint.BinaryEncoder(),
            _ => BasicHttpEndpoint.Soap11Encoder(),
        };
        var wsdl = WsdlDirectoryOf(variant);
        var authorize = variant.UserName ? new UserNameTokenCheck(AspNet.RequestAuthorization.PasswordsByUser(material.Profiles)).IsValid : (Func<Message, bool>?)null;
        var endpoint = new BasicHttpEndpoint(encoder, _dispatcher, buffers, wsdl, authorize);
        if (variant.Basic)
        {
            var passwords = AspNet.RequestAuthorization.PasswordsByUser(material.Profiles);
            // The WSDL and schemas are open (as Metro's are): a client reads them before it has sent any credential.
            app.Run(context => HttpMethods.IsGet(context.Request.Method) || AspNet.RequestAuthorization.CheckBasic(context, passwords)
                ? endpoint.HandleAsync(context) : Task.CompletedTask);
        }
        else
        {
            app.Run(endpoint.HandleAsync);
        }

        await app.StartAsync(cancellationToken);
        _servers.Add(app);
        var bound = new Uri(app.Services.GetRequiredService<Microsoft.AspNetCore.Hosting.Server.IServer>()
            .Features.Get<Microsoft.AspNetCore.Hosting.Server.Features.IServerAddressesFeature>()!.Addresses.First());
        return $"{(variant.Tls ? "https" : "http")}://{settings.AdvertisedHost}:{bound.Port}{EndpointPath}";
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        registry.Set(Group, [], "stopped");
        await _stopping.CancelAsync();
        foreach (var listener in _listeners)
        {
            listener.Dispose();
        }

        await Task.WhenAll(_loops).WaitAsync(cancellationToken);
        _listeners.Clear();
        foreach (var server in _servers)
        {
            await server.StopAsync(cancellationToken);
            await server.DisposeAsync();
        }

        _servers.Clear();
    }

    /// <inheritdoc />
    public void Dispose() => _stopping.Dispose();

    /// <summary>WCF's binary message encoder (SOAP 1.2 + WS-Addressing 1.0, the session form per connection) with the reader quotas' maxima.</summary>
    public static MessageEncoderFactory EncoderFactory() =>
        new BinaryMessageEncodingBindingElement { ReaderQuotas = XmlDictionaryReaderQuotas.Max }.CreateMessageEncoderFactory();

    private async Task AcceptLoopAsync(Socket listener, NetTcpSettings settings)
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptAsync(_stopping.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }

            socket.NoDelay = true;
            var connection = new NetTcpConnection(new NetworkStream(socket, ownsSocket: true), settings, logger);
            _ = Task.Run(() => connection.ServeAsync(_stopping.Token));
        }
    }

    /// <summary>
    /// The largest TCP segment a net.tcp listener's connections send (bytes; Linux's <c>TCP_MAXSEG</c>, inherited by every
    /// accepted socket). The WCF client on .NET shrinks its socket's buffers to 8 KB (the kernel doubles them: 16 KB)
    /// after it has connected, so on loopback (MTU 64 KB, an MSS of ~64 KB, clamped to half the largest window the client
    /// first offered: 32 KB) no segment of ours fits the window it then offers: a large reply went out only as the
    /// zero-window probe timer allowed, ~200 ms per window, about 1 s per <c>UDTypeArray1000</c> reply (issue #33 item 0).
    /// 4 KB segments fit that window; on a real network (MTU 1500, MSS 1460) the clamp changes nothing.
    /// </summary>
    public const int MaxSegmentBytes = 4096;

    /// <summary>Sets <see cref="MaxSegmentBytes"/> on <paramref name="listener"/> before it binds (Linux only: elsewhere nothing).</summary>
    private static void ClampSegmentSize(Socket listener)
    {
        if (OperatingSystem.IsLinux())
        {
            const int ipProtoTcp = 6, tcpMaxSeg = 2;
            listener.SetRawSocketOption(ipProtoTcp, tcpMaxSeg, BitConverter.GetBytes(MaxSegmentBytes));
        }
    }

    private static IPAddress ParseBindAddress(string bind) => bind switch
    {
        "*" or "0.0.0.0" => IPAddress.Any,
        "localhost" => IPAddress.Loopback,
        _ => IPAddress.Parse(bind),
    };
}
