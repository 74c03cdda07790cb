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
/// <see cref="ServiceHostOptions.Ports"/> names, at <c>net.tcp://{AdvertisedHost}:{port}/benchmark</c>. Listed in
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
    private readonly BenchmarkDispatcher _dispatcher = new();

    /// <summary>What <c>/versions</c> says of this stack: .NET and the encoders' package as loaded.</summary>
    public static IReadOnlyDictionary<string, string> Versions { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        [".NET"] = RuntimeInformation.FrameworkDescription,
        ["System.ServiceModel.Primitives"] = ComponentVersions.OfAssembly(typeof(Message).Assembly),
        ["dispatcher"] = "ours (src/Service/Host/WcfBindings); CoreWCF is not in this registry",
    };

    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
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
            var listener = new Socket(SocketType.Stream, ProtocolType.Tcp);
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
                variant.Tls ? material.ServerCertificate : null);
            _loops.Add(AcceptLoopAsync(listener, connection));
            var address = $"net.tcp://{settings.AdvertisedHost}:{bound}{EndpointPath}";
            endpoints.Add(new HostEndpoint(variant.Name, catalogue.Stack, address, catalogue.Transport, catalogue.Encoding, catalogue.SecurityMode, catalogue.CredentialType));
            logger.LogInformation("Variant {Variant} listens on {Address}", variant.Name, address);
        }

        registry.SetVersions(Group, Versions);
        registry.Set(Group, endpoints, "up");
        return Task.CompletedTask;
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

    private static IPAddress ParseBindAddress(string bind) => bind switch
    {
        "*" or "0.0.0.0" => IPAddress.Any,
        "localhost" => IPAddress.Loopback,
        _ => IPAddress.Parse(bind),
    };
}
