using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;

namespace Dashboard.Service.Tests.Malformed;

/// <summary>What an endpoint did with one malformed request.</summary>
/// <param name="Status">HTTP status of the answer (HTTP/1.1 or an HTTP/2 HEADERS frame), or null when none came.</param>
/// <param name="Body">The answer's body as text (HTTP/1.1), for faults and one-line reasons.</param>
/// <param name="Closed">The server closed (or reset) the connection.</param>
/// <param name="Protocol">A protocol-level answer without a status: an HTTP/2 RST_STREAM or GOAWAY, an Ice reply status.</param>
/// <param name="Elapsed">From the end of sending to the answer (or to giving up).</param>
public sealed record Answer(int? Status, string Body, bool Closed, string? Protocol, TimeSpan Elapsed)
{
    /// <summary>Nothing came back before the wait ended and the connection is still open.</summary>
    public bool Silent => Status is null && !Closed && Protocol is null;

    /// <inheritdoc />
    public override string ToString() =>
        $"{(Status is { } s ? $"HTTP {s}" : "no status")}{(Protocol is null ? "" : $", {Protocol}")}{(Closed ? ", closed" : "")} after {Elapsed.TotalMilliseconds:0} ms{(Body.Length > 0 ? $": {Body[..Math.Min(Body.Length, 160)].ReplaceLineEndings(" ")}" : "")}";
}

/// <summary>
/// A raw connection to an endpoint, plain or inside TLS: send exactly the bytes a test wants, read whatever comes back.
/// Inside TLS the malformed bytes reach the protocol layer behind the handshake (HTTP, HTTP/2, Ice).
/// </summary>
public sealed class RawConnection : IAsyncDisposable
{
    private readonly Socket _socket;
    private readonly Stream _stream;
    private readonly MemoryStream _received = new();

    private RawConnection(Socket socket, Stream stream)
    {
        _socket = socket;
        _stream = stream;
    }

    /// <summary>Connects to <paramref name="endPoint"/> (TCP or a Unix domain socket); completes a TLS handshake first when <paramref name="tls"/> is given.</summary>
    public static async Task<RawConnection> OpenAsync(EndPoint endPoint, SslClientAuthenticationOptions? tls = null)
    {
        var socket = endPoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint);
            Stream stream = new NetworkStream(socket, ownsSocket: false);
            if (tls is not null)
            {
                var ssl = new SslStream(stream, leaveInnerStreamOpen: false);
                using var handshake = new CancellationTokenSource(TimeSpan.FromSeconds(20));
                await ssl.AuthenticateAsClientAsync(tls, handshake.Token);
                stream = ssl;
            }

            return new RawConnection(socket, stream);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>The bytes received so far.</summary>
    public byte[] Received => _received.ToArray();

    /// <summary>Sends <paramref name="bytes"/>; false when the server has already closed or reset the connection.</summary>
    public async Task<bool> SendAsync(ReadOnlyMemory<byte> bytes)
    {
        try
        {
            await _stream.WriteAsync(bytes);
            await _stream.FlushAsync();
            return true;
        }
        catch (IOException)
        {
            return false;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Reads one whole Ice message (header and body) from the stream; throws at end of stream.</summary>
    public async Task<byte[]> ReadMessageAsync()
    {
        var header = new byte[IceWire.HeaderSize];
        await _stream.ReadExactlyAsync(header);
        var size = BinaryPrimitives.ReadInt32LittleEndian(header.AsSpan(10));
        var message = new byte[size];
        header.CopyTo(message, 0);
        await _stream.ReadExactlyAsync(message.AsMemory(IceWire.HeaderSize));
        return message;
    }

    /// <summary>Sends <paramref name="text"/> as ASCII.</summary>
    public Task<bool> SendAsync(string text) => SendAsync(Encoding.ASCII.GetBytes(text));

    /// <summary>Ends the sending direction (inside TLS: close_notify first); the server reads end of stream.</summary>
    public async Task ShutdownSendAsync()
    {
        try
        {
            if (_stream is SslStream ssl)
            {
                await ssl.ShutdownAsync();
            }

            _socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or IOException)
        {
            // already closed by the server
        }
    }

    /// <summary>
    /// Reads until <paramref name="complete"/> says the bytes so far hold an answer, the server closes, or
    /// <paramref name="wait"/> passes; returns whether the connection was closed.
    /// </summary>
    public async Task<bool> ReadUntilAsync(Func<byte[], bool> complete, TimeSpan wait)
    {
        using var timeout = new CancellationTokenSource(wait);
        var buffer = new byte[64 * 1024];
        while (!complete(Received))
        {
            int n;
            try
            {
                n = await _stream.ReadAsync(buffer, timeout.Token);
            }
            catch (OperationCanceledException)
            {
                return false;
            }
            catch (Exception e) when (e is SocketException or IOException)
            {
                return true; // reset, or a TLS alert
            }

            if (n == 0)
            {
                return true;
            }

            _received.Write(buffer, 0, n);
        }

        return false;
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await _stream.DisposeAsync();
        _socket.Dispose();
        _received.Dispose();
    }
}

/// <summary>HTTP/1.1 by hand: requests with wrong lengths, bodies and headers, and the answer parsed loosely.</summary>
public static class Http1
{
    /// <summary>A request head for <paramref name="path"/> with <paramref name="headers"/> (each <c>Name: value</c>).</summary>
    public static string Head(string path, params string[] headers) =>
        $"POST {path} HTTP/1.1\r\nHost: localhost\r\n{string.Concat(headers.Select(h => h + "\r\n"))}\r\n";

    /// <summary>Waits for the answer on <paramref name="connection"/>: a whole response, a close, or nothing within <paramref name="wait"/>.</summary>
    public static async Task<Answer> ReadAnswerAsync(RawConnection connection, TimeSpan wait)
    {
        var clock = Stopwatch.StartNew();
        var closed = await connection.ReadUntilAsync(IsComplete, wait);
        var text = Encoding.UTF8.GetString(connection.Received);
        var end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        int? status = null;
        var body = "";
        if (text.StartsWith("HTTP/1.", StringComparison.Ordinal) && text.Length >= 12 && int.TryParse(text.AsSpan(9, 3), out var code))
        {
            status = code;
            body = end >= 0 ? text[(end + 4)..] : "";
        }

        return new Answer(status, body, closed, null, clock.Elapsed);
    }

    private static bool IsComplete(byte[] bytes)
    {
        var text = Encoding.ASCII.GetString(bytes);
        var end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        if (end < 0)
        {
            return false;
        }

        var head = text[..end];
        var length = head.Split("\r\n").FirstOrDefault(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase));
        if (length is not null)
        {
            return bytes.Length - (end + 4) >= int.Parse(length["Content-Length:".Length..].Trim(), System.Globalization.CultureInfo.InvariantCulture);
        }

        if (head.Contains("chunked", StringComparison.OrdinalIgnoreCase))
        {
            return text.EndsWith("0\r\n\r\n", StringComparison.Ordinal);
        }

        // No length and not chunked: the body ends with the connection (or there is none, e.g. 204/304).
        return head.Contains(" 204 ", StringComparison.Ordinal) || head.Contains(" 304 ", StringComparison.Ordinal);
    }
}

/// <summary>HTTP/2 frames by hand (RFC 9113; header blocks as HPACK literals without Huffman coding, RFC 7541 §6.2.2).</summary>
public static class Http2
{
    /// <summary>The client connection preface.</summary>
    public static readonly byte[] Preface = Encoding.ASCII.GetBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

    /// <summary>An empty SETTINGS frame.</summary>
    public static byte[] Settings() => Frame(0x4, 0, 0, []);

    /// <summary>A HEADERS frame on stream 1 (END_HEADERS; END_STREAM when <paramref name="endStream"/>).</summary>
    public static byte[] Headers(bool endStream, params (string Name, string Value)[] headers)
    {
        var block = new MemoryStream();
        foreach (var (name, value) in headers)
        {
            block.WriteByte(0x00);
            WriteString(block, name);
            WriteString(block, value);
        }

        return Frame(0x1, (byte)(0x4 | (endStream ? 0x1 : 0)), 1, block.ToArray());
    }

    /// <summary>A DATA frame on stream 1.</summary>
    public static byte[] Data(ReadOnlySpan<byte> payload, bool endStream) => Frame(0x0, (byte)(endStream ? 0x1 : 0), 1, payload);

    /// <summary>The request pseudo-headers of <c>POST /{operation}</c> (<paramref name="scheme"/> <c>http</c> or <c>https</c>) and its content headers.</summary>
    public static (string, string)[] Request(string operation, string contentType, long contentLength, string scheme = "http") =>
    [
        (":method", "POST"), (":scheme", scheme), (":path", "/" + operation), (":authority", "localhost"),
        ("content-type", contentType), ("content-length", contentLength.ToString(System.Globalization.CultureInfo.InvariantCulture)),
    ];

    /// <summary>One frame.</summary>
    public static byte[] Frame(byte type, byte flags, int stream, ReadOnlySpan<byte> payload)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), stream);
        payload.CopyTo(frame.AsSpan(9));
        return frame;
    }

    /// <summary>Waits for the server's answer on stream 1: a status, RST_STREAM, GOAWAY or a close.</summary>
    public static async Task<Answer> ReadAnswerAsync(RawConnection connection, TimeSpan wait)
    {
        var clock = Stopwatch.StartNew();
        var closed = await connection.ReadUntilAsync(bytes => Parse(bytes).Done, wait);
        var (status, protocol, _) = Parse(connection.Received);
        return new Answer(status, "", closed, protocol, clock.Elapsed);
    }

    private static (int? Status, string? Protocol, bool Done) Parse(byte[] bytes)
    {
        var offset = 0;
        int? status = null;
        while (offset + 9 <= bytes.Length)
        {
            var length = (bytes[offset] << 16) | (bytes[offset + 1] << 8) | bytes[offset + 2];
            if (offset + 9 + length > bytes.Length)
            {
                break;
            }

            var type = bytes[offset + 3];
            var stream = BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(offset + 5)) & 0x7fffffff;
            var payload = bytes.AsSpan(offset + 9, length);
            switch (type)
            {
                case 0x1 when stream == 1:
                    status = DecodeStatus(payload, bytes[offset + 4]);
                    return (status, null, true);
                case 0x3 when stream == 1:
                    return (status, $"RST_STREAM {BinaryPrimitives.ReadUInt32BigEndian(payload)}", true);
                case 0x7:
                    return (status, $"GOAWAY {BinaryPrimitives.ReadUInt32BigEndian(payload[4..])}", true);
                default:
                    break;
            }

            offset += 9 + length;
        }

        return (status, null, false);
    }

    /// <summary>The <c>:status</c> of a header block Kestrel wrote (the first field; static-table index or a literal with an indexed name).</summary>
    private static int? DecodeStatus(ReadOnlySpan<byte> block, byte flags)
    {
        if ((flags & 0x8) != 0)
        {
            block = block[(block[0] + 1)..]; // padding
        }

        if ((flags & 0x20) != 0)
        {
            block = block[5..]; // priority
        }

        var first = block[0];
        if ((first & 0x80) != 0)
        {
            return (first & 0x7f) switch { 8 => 200, 9 => 204, 10 => 206, 11 => 304, 12 => 400, 13 => 404, 14 => 500, _ => null };
        }

        var nameIndex = (first & 0x40) != 0 ? first & 0x3f : first & 0x0f;
        if (nameIndex is < 8 or > 14 || (block[1] & 0x80) != 0)
        {
            return null;
        }

        var length = block[1] & 0x7f;
        return int.TryParse(Encoding.ASCII.GetString(block.Slice(2, length)), out var code) ? code : null;
    }

    private static void WriteString(MemoryStream block, string value)
    {
        var bytes = Encoding.ASCII.GetBytes(value);
        if (bytes.Length >= 127)
        {
            throw new ArgumentException("header strings here are short", nameof(value));
        }

        block.WriteByte((byte)bytes.Length);
        block.Write(bytes);
    }
}

/// <summary>
/// The Ice protocol 1.0 by hand (ZeroC's "Protocol Messages"): enough to call <c>IntSimple</c> on the
/// <c>benchmark</c> object, and to send headers that lie.
/// </summary>
public static class IceWire
{
    /// <summary>Size of a message header.</summary>
    public const int HeaderSize = 14;

    /// <summary>A message header: magic, protocol 1.0, encoding 1.0, <paramref name="type"/> (0 request, 3 validate), no compression, <paramref name="size"/>.</summary>
    public static byte[] Header(byte type, int size, byte protocolMajor = 1)
    {
        var header = new byte[HeaderSize];
        "IceP"u8.CopyTo(header);
        header[4] = protocolMajor;
        header[5] = 0;
        header[6] = 1;
        header[7] = 0;
        header[8] = type;
        header[9] = 0;
        BinaryPrimitives.WriteInt32LittleEndian(header.AsSpan(10), size);
        return header;
    }

    /// <summary>A twoway request of <paramref name="operation"/>(int <paramref name="value"/>) to identity <c>benchmark</c>.</summary>
    public static byte[] IntRequest(int requestId, string operation, int value)
    {
        var body = new MemoryStream();
        var id = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(id, requestId);
        body.Write(id);
        WriteString(body, "benchmark");
        WriteString(body, "");
        body.WriteByte(0); // facet: empty sequence
        WriteString(body, operation);
        body.WriteByte(0); // mode: Normal
        body.WriteByte(0); // context: empty dictionary
        var encapsulation = new byte[10];
        BinaryPrimitives.WriteInt32LittleEndian(encapsulation, 10);
        encapsulation[4] = 1;
        encapsulation[5] = 1;
        BinaryPrimitives.WriteInt32LittleEndian(encapsulation.AsSpan(6), value);
        body.Write(encapsulation);
        return [.. Header(0, HeaderSize + (int)body.Length), .. body.ToArray()];
    }

    /// <summary>True when <paramref name="bytes"/> hold at least one whole message.</summary>
    public static bool HasMessage(byte[] bytes) =>
        bytes.Length >= HeaderSize && bytes.Length >= BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(10));

    /// <summary>The reply status (0 = success) of the reply message at the start of <paramref name="message"/>, and its int result when successful.</summary>
    public static (byte Status, int? Result) ReadIntReply(ReadOnlySpan<byte> message)
    {
        if (message[8] != 2)
        {
            throw new InvalidDataException($"expected a reply message, got type {message[8]}");
        }

        var status = message[HeaderSize + 4];
        return status == 0 ? (status, BinaryPrimitives.ReadInt32LittleEndian(message[(HeaderSize + 5 + 6)..])) : (status, null);
    }

    private static void WriteString(MemoryStream body, string value)
    {
        var bytes = Encoding.UTF8.GetBytes(value);
        body.WriteByte((byte)bytes.Length);
        body.Write(bytes);
    }
}
