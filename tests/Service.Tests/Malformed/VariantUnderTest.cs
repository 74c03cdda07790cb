using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Security;
using System.Net.Sockets;
using System.Security;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Malformed;

/// <summary>How a variant's requests travel.</summary>
public enum Wire
{
    /// <summary>aspnet over HTTP/1.1 (TCP or a Unix socket), <c>POST /{Operation}</c>.</summary>
    AspNetHttp1,

    /// <summary>aspnet over h2c (prior knowledge).</summary>
    AspNetH2,

    /// <summary>Metro SOAP 1.1 (text/xml, empty SOAPAction) on the JDK HTTP server.</summary>
    Soap11,

    /// <summary>Metro SOAP 1.2 + WS-Addressing (application/soap+xml with action).</summary>
    Soap12Wsa,

    /// <summary>The Ice protocol over TCP (or inside TLS: IceSSL).</summary>
    Ice,
}

/// <summary>The client credential a variant takes (docs/security.md).</summary>
public enum Credential
{
    /// <summary>None (or the caller's OS identity, which travels by itself on a Unix socket).</summary>
    None,

    /// <summary>HTTP Basic with the <c>bench</c> profile.</summary>
    Basic,

    /// <summary>A client certificate of the host's CA in the TLS handshake (mutual TLS).</summary>
    Certificate,

    /// <summary>A WS-Security UsernameToken (PasswordText) with the <c>bench</c> profile.</summary>
    UserNameToken,

    /// <summary>WS-Security X.509: signed with <c>client.p12</c>, encrypted to <c>server.crt</c>.</summary>
    X509,
}

/// <summary>
/// A variant the malformed-traffic suite attacks (issue #14, part 2): its wire, its well-formed <c>IntSimple</c> request
/// and a correct client. A new variant of an existing wire is one line in <see cref="All"/>.
/// </summary>
/// <param name="Name">The variant id as <c>/endpoints</c> lists it.</param>
/// <param name="Wire">How its requests travel.</param>
/// <param name="Codec">The aspnet message codec (null for metro and ice).</param>
/// <param name="Tls">True when the wire runs inside TLS (server certificate of the host's CA, host name <c>localhost</c>).</param>
/// <param name="Credential">The client credential the variant takes.</param>
public sealed record VariantUnderTest(string Name, Wire Wire, IMessageCodec? Codec = null, bool Tls = false, Credential Credential = Credential.None)
{
    /// <summary>Every variant the host serves: the 8 unsecure and the 10 secure ones (docs/security.md).</summary>
    public static readonly VariantUnderTest[] All =
    [
        new("AspNetHttpJson", Wire.AspNetHttp1, MessageCodecs.Json),
        new("AspNetHttpXml", Wire.AspNetHttp1, MessageCodecs.TextXml),
        new("AspNetUdsBinXml", Wire.AspNetHttp1, MessageCodecs.BinaryXml),
        new("AspNetH2BinXml", Wire.AspNetH2, MessageCodecs.BinaryXml),
        new("MetroSoap11", Wire.Soap11),
        new("MetroSoap11FastInfoset", Wire.Soap11),
        new("MetroSoap12Wsa", Wire.Soap12Wsa),
        new("IceTcp", Wire.Ice),
        new("AspNetHttpsJson", Wire.AspNetHttp1, MessageCodecs.Json, Tls: true),
        new("AspNetHttpsJsonBasic", Wire.AspNetHttp1, MessageCodecs.Json, Tls: true, Credential.Basic),
        new("AspNetH2TlsBinXmlCert", Wire.AspNetH2, MessageCodecs.BinaryXml, Tls: true, Credential.Certificate),
        new("AspNetUdsBinXmlPeer", Wire.AspNetHttp1, MessageCodecs.BinaryXml),
        new("MetroSoap11Basic", Wire.Soap11, Credential: Credential.Basic),
        new("MetroSoap11Https", Wire.Soap11, Tls: true),
        new("MetroSoap11HttpsBasic", Wire.Soap11, Tls: true, Credential: Credential.Basic),
        new("MetroSoap12WsaUserNameHttps", Wire.Soap12Wsa, Tls: true, Credential: Credential.UserNameToken),
        new("MetroSoap12WsaX509", Wire.Soap12Wsa, Credential: Credential.X509),
        new("IceSsl", Wire.Ice, Tls: true),
    ];

    private const string Soap11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private const string Soap12 = "http://www.w3.org/2003/05/soap-envelope";
    private const string Addressing = "http://www.w3.org/2005/08/addressing";
    private const string Action = "urn:dashboard:benchmark:2026:Benchmark:IntSimpleRequest";
    private const string Wsse = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    private const string Wsu = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    private const string PasswordText = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";
    private const string Base64Binary = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";

    private static readonly OperationContract IntSimple = OperationCatalogue.All.Single(o => o.Name == "IntSimple");

    /// <summary>The value every good call echoes.</summary>
    public const int Value = 2147483647;

    /// <summary>True for the HTTP/1.1 wires (aspnet HTTP/1.1 and metro).</summary>
    public bool IsHttp1 => Wire is Wire.AspNetHttp1 or Wire.Soap11 or Wire.Soap12Wsa;

    /// <summary>
    /// Calls per client in the correct client's bursts: 100, but 10 for WS-Security X.509 (signed and encrypted both ways,
    /// about 15 calls/s on a shared 2-core machine: 4 × 100 calls would take the suite's whole time budget).
    /// </summary>
    public int BurstCallsEach => Credential == Credential.X509 ? 10 : 100;

    /// <summary>True for the metro (SOAP) wires.</summary>
    public bool IsSoap => Wire is Wire.Soap11 or Wire.Soap12Wsa;

    /// <summary>The request path of <c>IntSimple</c> at <paramref name="address"/>.</summary>
    public string PathAt(string address) => IsSoap ? new Uri(address).AbsolutePath : "/IntSimple";

    /// <summary>The media type this variant reads.</summary>
    public string ContentType => Wire switch
    {
        Wire.Soap11 => "text/xml; charset=utf-8",
        Wire.Soap12Wsa => $"application/soap+xml; charset=utf-8; action=\"{Action}\"",
        _ => Codec!.ContentType,
    };

    /// <summary>Headers besides Content-Type that a well-formed request carries.</summary>
    public string[] ExtraHeaders(ClientMaterial material) =>
    [
        .. Wire == Wire.Soap11 ? ["SOAPAction: \"\""] : Array.Empty<string>(),
        .. Credential == Credential.Basic ? [$"Authorization: {material.BasicAuthorization}"] : Array.Empty<string>(),
    ];

    /// <summary>The TLS client options of this variant (ALPN <c>h2</c> for HTTP/2, <c>http/1.1</c> for HTTP/1.1, none for Ice), or null without TLS.</summary>
    public SslClientAuthenticationOptions? TlsOptions(ClientMaterial material) => !Tls ? null : material.TlsOptions(
        Credential == Credential.Certificate,
        Wire switch { Wire.AspNetH2 => [SslApplicationProtocol.Http2], Wire.Ice => [], _ => [SslApplicationProtocol.Http11] });

    /// <summary>The body of a well-formed <c>IntSimple</c> request (for WS-Security X.509 without its security header: see <see cref="BurstAsync"/>).</summary>
    public byte[] GoodBody(ClientMaterial material)
    {
        if (Codec is not null)
        {
            using var body = new MemoryStream();
            Codec.WriteRequest(IntSimple, [Value], body);
            return body.ToArray();
        }

        return Encoding.UTF8.GetBytes(Envelope(Wire == Wire.Soap12Wsa ? Soap12 : Soap11, Action, body: true, Security(material)));
    }

    /// <summary>The WS-Security header a well-formed request of this variant carries: a UsernameToken (PasswordText, nonce, Created) or nothing.</summary>
    private string Security(ClientMaterial material) => Credential != Credential.UserNameToken ? "" :
        $"<wsse:Security xmlns:wsse=\"{Wsse}\" xmlns:wsu=\"{Wsu}\" s:mustUnderstand=\"true\"><wsse:UsernameToken>" +
        $"<wsse:Username>{SecurityElement.Escape(material.UserName)}</wsse:Username>" +
        $"<wsse:Password Type=\"{PasswordText}\">{SecurityElement.Escape(material.Password)}</wsse:Password>" +
        $"<wsse:Nonce EncodingType=\"{Base64Binary}\">{Convert.ToBase64String(RandomNumberGenerator.GetBytes(16))}</wsse:Nonce>" +
        $"<wsu:Created>{DateTime.UtcNow:yyyy-MM-ddTHH:mm:ss.fffZ}</wsu:Created></wsse:UsernameToken></wsse:Security>";

    /// <summary>
    /// A SOAP envelope: <paramref name="soap"/> namespace, WS-Addressing headers for SOAP 1.2 with <paramref name="action"/>,
    /// the WS-Security header <paramref name="security"/> (markup, may be empty), with or without its Body.
    /// </summary>
    public static string Envelope(string soap, string action, bool body, string security = "")
    {
        var addressing = soap == Soap12
            ? $"<a:Action>{action}</a:Action><a:MessageID>urn:uuid:{Guid.NewGuid():D}</a:MessageID><a:ReplyTo><a:Address>{Addressing}/anonymous</a:Address></a:ReplyTo>"
            : "";
        var header = addressing.Length + security.Length > 0 ? $"<s:Header>{security}{addressing}</s:Header>" : "";
        var content = body ? $"<s:Body><IntSimple xmlns=\"urn:dashboard:benchmark:2026\"><value>{Value}</value></IntSimple></s:Body>" : "";
        return $"<s:Envelope xmlns:s=\"{soap}\" xmlns:a=\"{Addressing}\">{header}{content}</s:Envelope>";
    }

    /// <summary>
    /// Envelopes a SOAP endpoint must answer with a fault: wrong envelope namespace, no Body, and (WS-Addressing) a wrong
    /// action; each with the variant's UsernameToken where it takes one (for X.509: no security header, a fault too).
    /// </summary>
    public IEnumerable<(string What, string Envelope)> BadEnvelopes(ClientMaterial material)
    {
        if (!IsSoap)
        {
            yield break;
        }

        var soap = Wire == Wire.Soap12Wsa ? Soap12 : Soap11;
        yield return ("envelope in a wrong namespace", Envelope("urn:not-soap", Action, body: true, Security(material)));
        yield return ("no Body", Envelope(soap, Action, body: false, Security(material)));
        if (Wire == Wire.Soap12Wsa)
        {
            yield return ("wrong WS-Addressing action", Envelope(soap, "urn:dashboard:benchmark:2026:Benchmark:NoSuchRequest", body: true, Security(material)));
        }

        if (Credential is Credential.UserNameToken or Credential.X509)
        {
            yield return ("no WS-Security header", Envelope(soap, Action, body: true));
        }
    }

    /// <summary>A body of the right media type that does not parse.</summary>
    public byte[] BadBody() => Wire switch
    {
        _ when Codec == MessageCodecs.Json => "{\"value\": [1, 2"u8.ToArray(),
        _ when Codec == MessageCodecs.TextXml => "<IntSimple xmlns=\"urn:dashboard:benchmark:2026\"><value>2147483647</val"u8.ToArray(),
        _ when Codec == MessageCodecs.BinaryXml => [0x40, 0x09, 0xff, 0xfe, 0x00, 0x13, 0x77, 0x01, 0x02],
        _ => "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><IntSimple"u8.ToArray(),
    };

    /// <summary>The socket address of <paramref name="address"/> as <c>/endpoints</c> lists it.</summary>
    public static EndPoint EndPointOf(string address)
    {
        if (address.StartsWith("unix:", StringComparison.Ordinal))
        {
            return new UnixDomainSocketEndPoint(address["unix:".Length..]);
        }

        var ice = Regex.Match(address, @"-p (\d+)");
        var port = ice.Success ? int.Parse(ice.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture) : new Uri(address).Port;
        return new IPEndPoint(IPAddress.Loopback, port);
    }

    /// <summary>
    /// A short burst of correct <c>IntSimple</c> calls: <paramref name="workers"/> clients, each on its own connection,
    /// <paramref name="callsEach"/> calls each, every reply checked. Returns the rate in calls/s. WS-Security X.509
    /// (signed and encrypted requests, signed and encrypted replies) is called through the real java driver, as the
    /// runner calls it: there is no WS-Security stack on the .NET side (docs/security.md).
    /// </summary>
    public async Task<double> BurstAsync(HostEndpoint endpoint, ClientMaterial material, int workers, int callsEach)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        if (Credential == Credential.X509)
        {
            return await JavaDriverBurstAsync(endpoint, material, workers, callsEach);
        }

        var clients = new List<Func<Task>>();
        var disposables = new List<IAsyncDisposable>();
        try
        {
            for (var i = 0; i < workers; i++)
            {
                clients.Add(await ConnectAsync(endpoint.Address, material, disposables));
            }

            await Task.WhenAll(clients.Select(call => call())); // one call each: connections and JIT warm before the clock starts
            var clock = Stopwatch.StartNew();
            await Task.WhenAll(clients.Select(async call =>
            {
                for (var n = 0; n < callsEach; n++)
                {
                    await call();
                }
            }));
            return workers * callsEach / clock.Elapsed.TotalSeconds;
        }
        finally
        {
            foreach (var disposable in disposables)
            {
                await disposable.DisposeAsync();
            }
        }
    }

    /// <summary>The burst through the java driver (one warm-up call per client): its throughput over the level, every sample a success.</summary>
    private static async Task<double> JavaDriverBurstAsync(HostEndpoint endpoint, ClientMaterial material, int workers, int callsEach)
    {
        var security = SecurityFolder.ForScenario(new ScenarioDocument { Variants = [endpoint.Name] }, material.SecurityDirectory)!.For(endpoint);
        PayloadCatalogue.TryGet("Int", out var payload);
        var driver = new ExternalProcessDriver(DriverCommand.Java(RepositoryPaths.JavaDriver), TimeSpan.FromSeconds(20));
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        await using var session = await driver.OpenCellAsync(endpoint, payload!, security, bound.Token);
        var result = await session.RunLevelAsync(new LevelPlan(workers, 1, callsEach, null), bound.Token);
        var failed = result.Samples.Where(s => s.Outcome != SampleOutcome.Success).ToArray();
        if (result.Cancelled || failed.Length > 0 || result.Statistics.Successes < workers * callsEach)
        {
            throw new InvalidDataException($"{endpoint.Name}: java driver level {(result.Cancelled ? "cancelled" : "ended")} with {result.Statistics.Successes} successes, " +
                $"{failed.Length} failures ({string.Join(", ", failed.Select(f => f.Outcome).Distinct())})");
        }

        return result.Statistics.ThroughputRps;
    }

    /// <summary>One correct client on its own connection: a function that makes one checked call.</summary>
    private async Task<Func<Task>> ConnectAsync(string address, ClientMaterial material, List<IAsyncDisposable> disposables)
    {
        var endPoint = EndPointOf(address);
        if (Wire == Wire.Ice)
        {
            var connection = await RawConnection.OpenAsync(endPoint, TlsOptions(material));
            disposables.Add(connection);
            await connection.ReadMessageAsync(); // validate connection
            var requestId = 0;
            return async () =>
            {
                await connection.SendAsync(IceWire.IntRequest(++requestId, "IntSimple", Value));
                var (status, result) = IceWire.ReadIntReply(await connection.ReadMessageAsync());
                if (status != 0 || result != Value)
                {
                    throw new InvalidDataException($"Ice reply status {status}, result {result}");
                }
            };
        }

        var handler = new SocketsHttpHandler { MaxConnectionsPerServer = 1 };
        if (TlsOptions(material) is { } tls)
        {
            handler.SslOptions = tls;
        }

        if (endPoint is UnixDomainSocketEndPoint)
        {
            handler.ConnectCallback = async (_, token) =>
            {
                var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                await socket.ConnectAsync(endPoint, token);
                return new NetworkStream(socket, ownsSocket: true);
            };
        }

        var http = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(20) };
        disposables.Add(new AsyncDisposable(http));
        var uri = endPoint is UnixDomainSocketEndPoint ? new Uri("http://localhost/IntSimple") : new Uri(new Uri(address), PathAt(address));
        var body = GoodBody(material);
        return async () =>
        {
            using var content = new ByteArrayContent(Wire == Wire.Soap12Wsa ? GoodBody(material) : body);
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(ContentType);
            using var request = new HttpRequestMessage(HttpMethod.Post, uri) { Content = content };
            if (Wire == Wire.AspNetH2)
            {
                // HTTP/2 only: h2c with prior knowledge, or h2 by ALPN inside TLS, as the dotnet driver calls these variants.
                request.Version = HttpVersion.Version20;
                request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
            }

            if (Wire == Wire.Soap11)
            {
                request.Headers.TryAddWithoutValidation("SOAPAction", "\"\"");
            }

            if (Credential == Credential.Basic)
            {
                request.Headers.TryAddWithoutValidation("Authorization", material.BasicAuthorization);
            }

            using var response = await http.SendAsync(request);
            var reply = await response.Content.ReadAsByteArrayAsync();
            if (!response.IsSuccessStatusCode)
            {
                throw new InvalidDataException($"{Name}: HTTP {(int)response.StatusCode}: {Encoding.UTF8.GetString(reply)}");
            }

            if (Codec is not null)
            {
                var result = Codec.ReadResponse(IntSimple, new MemoryStream(reply));
                if (result is not Value)
                {
                    throw new InvalidDataException($"{Name}: wrong reply {result}");
                }
            }
            else if (!Encoding.UTF8.GetString(reply).Contains($">{Value}</", StringComparison.Ordinal))
            {
                throw new InvalidDataException($"{Name}: wrong reply {Encoding.UTF8.GetString(reply)}");
            }
        };
    }

    private sealed class AsyncDisposable(IDisposable inner) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            inner.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
