using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;

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

    /// <summary>The Ice protocol over TCP.</summary>
    Ice,
}

/// <summary>
/// A variant the malformed-traffic suite attacks (issue #14, part 2): its wire, its well-formed <c>IntSimple</c> request
/// and a correct client. A new variant of an existing wire is one line in <see cref="All"/>.
/// </summary>
/// <param name="Name">The variant id as <c>/endpoints</c> lists it.</param>
/// <param name="Wire">How its requests travel.</param>
/// <param name="Codec">The aspnet message codec (null for metro and ice).</param>
public sealed record VariantUnderTest(string Name, Wire Wire, IMessageCodec? Codec = null)
{
    /// <summary>Every unsecure variant the host serves today.</summary>
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
    ];

    private const string Soap11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private const string Soap12 = "http://www.w3.org/2003/05/soap-envelope";
    private const string Addressing = "http://www.w3.org/2005/08/addressing";
    private const string Action = "urn:dashboard:benchmark:2026:Benchmark:IntSimpleRequest";

    private static readonly OperationContract IntSimple = OperationCatalogue.All.Single(o => o.Name == "IntSimple");

    /// <summary>The value every good call echoes.</summary>
    public const int Value = 2147483647;

    /// <summary>True for the HTTP/1.1 wires (aspnet HTTP/1.1 and metro).</summary>
    public bool IsHttp1 => Wire is Wire.AspNetHttp1 or Wire.Soap11 or Wire.Soap12Wsa;

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
    public string[] ExtraHeaders => Wire == Wire.Soap11 ? ["SOAPAction: \"\""] : [];

    /// <summary>The body of a well-formed <c>IntSimple</c> request.</summary>
    public byte[] GoodBody()
    {
        if (Codec is not null)
        {
            using var body = new MemoryStream();
            Codec.WriteRequest(IntSimple, [Value], body);
            return body.ToArray();
        }

        return Encoding.UTF8.GetBytes(Envelope(Wire == Wire.Soap12Wsa ? Soap12 : Soap11, Action, body: true));
    }

    /// <summary>A SOAP envelope: <paramref name="soap"/> namespace, WS-Addressing headers for SOAP 1.2 with <paramref name="action"/>, with or without its Body.</summary>
    public static string Envelope(string soap, string action, bool body)
    {
        var header = soap == Soap12
            ? $"<s:Header><a:Action>{action}</a:Action><a:MessageID>urn:uuid:{Guid.NewGuid():D}</a:MessageID><a:ReplyTo><a:Address>{Addressing}/anonymous</a:Address></a:ReplyTo></s:Header>"
            : "";
        var content = body ? $"<s:Body><IntSimple xmlns=\"urn:dashboard:benchmark:2026\"><value>{Value}</value></IntSimple></s:Body>" : "";
        return $"<s:Envelope xmlns:s=\"{soap}\" xmlns:a=\"{Addressing}\">{header}{content}</s:Envelope>";
    }

    /// <summary>Envelopes a SOAP endpoint must answer with a fault: wrong envelope namespace, no Body, and (WS-Addressing) a wrong action.</summary>
    public IEnumerable<(string What, string Envelope)> BadEnvelopes()
    {
        if (!IsSoap)
        {
            yield break;
        }

        var soap = Wire == Wire.Soap12Wsa ? Soap12 : Soap11;
        yield return ("envelope in a wrong namespace", Envelope("urn:not-soap", Action, body: true));
        yield return ("no Body", Envelope(soap, Action, body: false));
        if (Wire == Wire.Soap12Wsa)
        {
            yield return ("wrong WS-Addressing action", Envelope(soap, "urn:dashboard:benchmark:2026:Benchmark:NoSuchRequest", body: true));
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
    /// <paramref name="callsEach"/> calls each, every reply checked. Returns the rate in calls/s.
    /// </summary>
    public async Task<double> BurstAsync(string address, int workers, int callsEach)
    {
        var clients = new List<Func<Task>>();
        var disposables = new List<IDisposable>();
        try
        {
            for (var i = 0; i < workers; i++)
            {
                clients.Add(await ConnectAsync(address, disposables));
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
            disposables.ForEach(d => d.Dispose());
        }
    }

    /// <summary>One correct client on its own connection: a function that makes one checked call.</summary>
    private async Task<Func<Task>> ConnectAsync(string address, List<IDisposable> disposables)
    {
        var endPoint = EndPointOf(address);
        if (Wire == Wire.Ice)
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            disposables.Add(socket);
            await socket.ConnectAsync(endPoint);
            var stream = new NetworkStream(socket);
            disposables.Add(stream);
            await ReadMessageAsync(stream); // validate connection
            var requestId = 0;
            return async () =>
            {
                await stream.WriteAsync(IceWire.IntRequest(++requestId, "IntSimple", Value));
                var (status, result) = IceWire.ReadIntReply(await ReadMessageAsync(stream));
                if (status != 0 || result != Value)
                {
                    throw new InvalidDataException($"Ice reply status {status}, result {result}");
                }
            };
        }

        var handler = new SocketsHttpHandler { MaxConnectionsPerServer = 1 };
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
        disposables.Add(http);
        var uri = endPoint is UnixDomainSocketEndPoint ? new Uri("http://localhost/IntSimple") : new Uri(new Uri(address), PathAt(address));
        var body = GoodBody();
        return async () =>
        {
            using var content = new ByteArrayContent(Wire == Wire.Soap12Wsa ? GoodBody() : body);
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(ContentType);
            using var request = new HttpRequestMessage(HttpMethod.Post, uri) { Content = content };
            if (Wire == Wire.AspNetH2)
            {
                // h2c with prior knowledge, as the dotnet driver calls this variant.
                request.Version = HttpVersion.Version20;
                request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
            }

            if (Wire == Wire.Soap11)
            {
                request.Headers.TryAddWithoutValidation("SOAPAction", "\"\"");
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

    private static async Task<byte[]> ReadMessageAsync(NetworkStream stream)
    {
        var header = new byte[IceWire.HeaderSize];
        await stream.ReadExactlyAsync(header);
        var size = System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(header.AsSpan(10));
        var message = new byte[size];
        header.CopyTo(message, 0);
        await stream.ReadExactlyAsync(message.AsMemory(IceWire.HeaderSize));
        return message;
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
