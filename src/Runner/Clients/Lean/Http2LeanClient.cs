using System.Buffers.Binary;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// Checks one complete response body of a cell (the DATA payloads joined): Success, WrongReply, or Fault when it does not decode.
/// </summary>
/// <param name="body">The body as received (for gRPC: the 5-byte prefix and the message).</param>
public delegate SampleOutcome Http2BodyCheck(ReadOnlySpan<byte> body);

/// <summary>
/// One closed-loop client of the <c>lean</c> generator on an HTTP/2 variant (h2c with prior knowledge, or TLS with ALPN
/// <c>h2</c>): its own connection, one stream at a time (as h2load <c>-m 1</c>), the cell's pre-encoded request
/// (<see cref="Http2Request"/>) written with the stream id of each call, the response's frames read as far as the
/// outcome needs.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item>Connection: the preface, SETTINGS (push off, a stream window of 2^30 − 1 as h2load's default) and a connection
/// WINDOW_UPDATE to the same size, topped up when half of it is used; the server's SETTINGS are acknowledged and applied
/// (its initial stream window), PINGs answered.</item>
/// <item>Request: HEADERS and DATA frames written in one send when the server's connection and stream windows allow,
/// otherwise as far as they allow while WINDOW_UPDATEs are read.</item>
/// <item>Response: HEADERS (and CONTINUATION) through the connection's <see cref="HpackDecoder"/> for <c>:status</c> and,
/// for gRPC, the trailers' <c>grpc-status</c>; DATA joined until END_STREAM. RST_STREAM on the call's stream is Fault;
/// GOAWAY that leaves the call's stream out is Connection (the connection closes after a GOAWAY either way).</item>
/// <item>Reply check and outcomes as <see cref="Http1LeanClient"/>'s: the first reply (in <see cref="OpenAsync"/>, not
/// recorded) is checked and kept; equal bodies are Success without decoding. gRPC: <c>grpc-status</c> 16/7
/// Authentication, 4 Timeout, 14 Connection, any other non-zero Fault, as the <c>dotnet</c> gRPC client classifies.</item>
/// <item>Bytes: every frame sent and received during a call (control frames included), below TLS when TLS is used.</item>
/// </list>
/// </remarks>
public sealed class Http2LeanClient : ILoadClient
{
    private const int OurWindow = (1 << 30) - 1;
    private const int DefaultWindow = 65_535;
    private static readonly byte[] Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8.ToArray();

    private readonly HostEndpoint _endpoint;
    private readonly Http2Request _request;
    private readonly Http2BodyCheck _check;
    private readonly bool _grpc;
    private readonly string _host;
    private readonly int _port;
    private readonly SslClientAuthenticationOptions? _ssl;
    private readonly TimeSpan _timeout;
    private readonly byte[] _control = new byte[64];
    private byte[] _in = new byte[64 * 1024];
    private int _inStart;
    private int _inEnd;
    private byte[] _body = new byte[16 * 1024];
    private int _bodyLength;
    private byte[] _block = new byte[4 * 1024];
    private int _blockLength;
    private int _blockStream;
    private byte[]? _expectedBody;
    private HpackDecoder _hpack = new();
    private Socket? _socket;
    private SslStream? _tls;
    private ByteCountingStream? _tlsCounter;
    private long _sent;
    private long _received;
    private long _tlsWrittenSeen;
    private long _tlsReadSeen;
    private int _nextStream = 1;
    private long _connectionSendWindow;
    private long _streamSendWindow;
    private int _peerInitialWindow;
    private long _receivedSinceUpdate;
    private int _stream;
    private int _status;
    private int _grpcStatus;
    private bool _ended;
    private bool _reset;
    private bool _goingAway;
    private long _callStartedMs;
    private volatile bool _timedOut;
    private Timer? _watchdog;
    private CancellationTokenRegistration _cancellation;
    private bool _registered;

    /// <summary>Creates the client; nothing is connected until <see cref="OpenAsync"/>.</summary>
    /// <param name="endpoint">The endpoint as the host listed it (<c>http://</c> for h2c, <c>https://</c> for TLS).</param>
    /// <param name="request">The cell's pre-encoded request; the client writes stream ids into its own copy.</param>
    /// <param name="check">The cell's body check (the payload's own, after the binding's or the gRPC message's decoding).</param>
    /// <param name="grpc">True for a gRPC variant: the outcome also reads the trailers' <c>grpc-status</c>.</param>
    /// <param name="timeout">Per-request (and connect) timeout.</param>
    /// <param name="security">CA and client certificate of a TLS endpoint. Owned by the caller.</param>
    /// <exception cref="LoadClientException">A TLS endpoint and no CA certificate.</exception>
    public Http2LeanClient(HostEndpoint endpoint, Http2Request request, Http2BodyCheck check, bool grpc, TimeSpan timeout, DotNetSecurity security)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(check);
        ArgumentNullException.ThrowIfNull(security);
        _endpoint = endpoint;
        _request = request.Clone();
        _check = check;
        _grpc = grpc;
        _timeout = timeout;
        var uri = new Uri(endpoint.Address);
        _host = uri.IdnHost;
        _port = uri.Port;
        if (uri.Scheme == Uri.UriSchemeHttps)
        {
            _ssl = security.CreateSslOptions() ?? throw new LoadClientException($"{endpoint.Name} uses TLS and no CA certificate was given (the runner's --security-dir)");
            _ssl.TargetHost = _host;
            _ssl.ApplicationProtocols = [SslApplicationProtocol.Http2];
        }
    }

    /// <inheritdoc />
    /// <remarks>Connects and sends the cell's request once (not recorded): its reply is checked and kept as the reference body.</remarks>
    public async ValueTask OpenAsync(CancellationToken cancellationToken)
    {
        _watchdog = new Timer(static state => ((Http2LeanClient)state!).Watch(), this, 250, 250);
        _callStartedMs = Environment.TickCount64;
        try
        {
            await ConnectAsync(cancellationToken);
            await ExchangeAsync();
            if (_reset)
            {
                throw new LoadClientException($"{_endpoint.Name} at {_endpoint.Address} reset the lean generator's first stream");
            }

            if (_status is >= 200 and < 300)
            {
                _expectedBody = Outcome() == SampleOutcome.Success ? _body[.._bodyLength] : null;
            }
            else if (_status is not (401 or 403))
            {
                throw new LoadClientException($"{_endpoint.Name} at {_endpoint.Address} answered the lean generator's first request with HTTP {_status}");
            }
        }
        catch (AuthenticationException)
        {
            // The service is there and refuses our credentials (or we refuse its certificate): every sample says Authentication.
            Close();
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException or InvalidDataException && !cancellationToken.IsCancellationRequested)
        {
            var reason = _timedOut ? $"no answer within {_timeout.TotalSeconds:0} s" : (e.InnerException as SocketException ?? e).Message.ReplaceLineEndings(" ");
            throw new LoadClientException($"cannot connect to {_endpoint.Name} at {_endpoint.Address}: {reason}", e);
        }
        finally
        {
            _callStartedMs = 0;
        }
    }

    /// <inheritdoc />
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
    {
        if (!_registered)
        {
            _registered = true;
            _cancellation = cancellationToken.UnsafeRegister(static state => ((Http2LeanClient)state!).Close(), this);
        }

        cancellationToken.ThrowIfCancellationRequested();
        var sentBefore = _sent;
        var receivedBefore = _received;
        _timedOut = false;
        _callStartedMs = Environment.TickCount64;
        SampleOutcome outcome;
        try
        {
            if (_socket is null)
            {
                await ConnectAsync(CancellationToken.None);
            }

            await ExchangeAsync();
            outcome = Outcome();
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException or InvalidDataException or AuthenticationException)
        {
            Close();
            cancellationToken.ThrowIfCancellationRequested();
            outcome = e is AuthenticationException ? SampleOutcome.Authentication : _timedOut ? SampleOutcome.Timeout : SampleOutcome.Connection;
        }
        finally
        {
            _callStartedMs = 0;
        }

        return new CallResult(outcome, checked((int)(_sent - sentBefore)), checked((int)(_received - receivedBefore)));
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_watchdog is not null)
        {
            await _watchdog.DisposeAsync();
        }

        await _cancellation.DisposeAsync();
        Close();
    }

    /// <summary>The outcome of the exchange just read (status, trailers, body).</summary>
    private SampleOutcome Outcome()
    {
        if (_reset)
        {
            return SampleOutcome.Fault;
        }

        if (_status is 401 or 403)
        {
            return SampleOutcome.Authentication;
        }

        if (_status is < 200 or >= 300)
        {
            return SampleOutcome.Fault;
        }

        if (_grpc && _grpcStatus != 0)
        {
            return _grpcStatus switch
            {
                16 or 7 => SampleOutcome.Authentication,
                4 => SampleOutcome.Timeout,
                14 => SampleOutcome.Connection,
                _ => SampleOutcome.Fault,
            };
        }

        var body = _body.AsSpan(0, _bodyLength);
        return _expectedBody is { } expected && body.SequenceEqual(expected) ? SampleOutcome.Success : _check(body);
    }

    private async ValueTask ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _socket = socket;
        await socket.ConnectAsync(new DnsEndPoint(_host, _port), cancellationToken);
        if (_ssl is not null)
        {
            _tlsCounter = new ByteCountingStream(new NetworkStream(socket, ownsSocket: true));
            _tls = new SslStream(_tlsCounter);
            try
            {
                await _tls.AuthenticateAsClientAsync(_ssl, cancellationToken);
            }
            finally
            {
                Tally();
            }

            if (_tls.NegotiatedApplicationProtocol != SslApplicationProtocol.Http2)
            {
                throw new IOException($"the server did not agree to HTTP/2 (ALPN gave '{_tls.NegotiatedApplicationProtocol}')");
            }
        }

        _hpack = new HpackDecoder();
        _inStart = _inEnd = 0;
        _blockLength = 0;
        _nextStream = 1;
        _connectionSendWindow = DefaultWindow;
        _peerInitialWindow = DefaultWindow;
        _receivedSinceUpdate = 0;
        _goingAway = false;

        // Preface, SETTINGS (ENABLE_PUSH 0, INITIAL_WINDOW_SIZE 2^30 - 1), WINDOW_UPDATE of the connection to the same size.
        var start = new byte[Preface.Length + 9 + 12 + 9 + 4];
        Preface.CopyTo(start, 0);
        var at = Preface.Length;
        at = Frame(start, at, 12, 0x4, 0, 0);
        BinaryPrimitives.WriteUInt16BigEndian(start.AsSpan(at), 0x2);
        BinaryPrimitives.WriteUInt32BigEndian(start.AsSpan(at + 2), 0);
        BinaryPrimitives.WriteUInt16BigEndian(start.AsSpan(at + 6), 0x4);
        BinaryPrimitives.WriteUInt32BigEndian(start.AsSpan(at + 8), OurWindow);
        at = Frame(start, at + 12, 4, 0x8, 0, 0);
        BinaryPrimitives.WriteUInt32BigEndian(start.AsSpan(at), OurWindow - DefaultWindow);
        await WriteAsync(start);
    }

    /// <summary>One call: a new stream, the request written as the windows allow, frames read until the stream ends.</summary>
    private async ValueTask ExchangeAsync()
    {
        if (_nextStream > int.MaxValue - 2 || _goingAway)
        {
            Close();
            await ConnectAsync(CancellationToken.None);
        }

        _stream = _nextStream;
        _nextStream += 2;
        _status = -1;
        _grpcStatus = -1;
        _bodyLength = 0;
        _ended = false;
        _reset = false;
        _streamSendWindow = _peerInitialWindow;
        _request.SetStream(_stream);

        var frames = _request.Frames;
        var next = 0;
        while (next < frames.Count && !_ended)
        {
            // HEADERS always goes; DATA frames as far as both windows allow.
            var end = next;
            while (end < frames.Count)
            {
                var length = end == 0 ? 0 : _request.PayloadLength(end);
                if (length > _connectionSendWindow || length > _streamSendWindow)
                {
                    break;
                }

                _connectionSendWindow -= length;
                _streamSendWindow -= length;
                end++;
            }

            if (end > next)
            {
                var from = frames[next];
                var to = end < frames.Count ? frames[end] : _request.Bytes.Length;
                await WriteAsync(_request.Bytes[from..to]);
                next = end;
            }
            else
            {
                await ReadFrameAsync();
            }
        }

        while (!_ended)
        {
            await ReadFrameAsync();
        }

        if (_goingAway)
        {
            Close();
        }
    }

    /// <summary>Reads and handles one frame.</summary>
    /// <exception cref="IOException">The connection closed, or a GOAWAY left the call's stream out.</exception>
    /// <exception cref="InvalidDataException">A frame or header block that breaks the protocol.</exception>
    private async ValueTask ReadFrameAsync()
    {
        while (_inEnd - _inStart < Http2Request.FrameHeader)
        {
            await ReadMoreAsync(Http2Request.FrameHeader);
        }

        var length = (_in[_inStart] << 16) | (_in[_inStart + 1] << 8) | _in[_inStart + 2];
        while (_inEnd - _inStart < Http2Request.FrameHeader + length)
        {
            await ReadMoreAsync(Http2Request.FrameHeader + length);
        }

        var type = _in[_inStart + 3];
        var flags = _in[_inStart + 4];
        var stream = BinaryPrimitives.ReadInt32BigEndian(_in.AsSpan(_inStart + 5)) & int.MaxValue;
        var payloadAt = _inStart + Http2Request.FrameHeader;
        _inStart += Http2Request.FrameHeader + length;
        var reply = Handle(type, flags, stream, _in.AsSpan(payloadAt, length));
        if (reply > 0)
        {
            await WriteAsync(_control.AsMemory(0, reply));
        }
    }

    /// <summary>Applies one frame; returns the length of a control frame to write back from <see cref="_control"/> (0 for none).</summary>
    private int Handle(byte type, byte flags, int stream, ReadOnlySpan<byte> payload)
    {
        switch (type)
        {
            case 0x0: // DATA
                _receivedSinceUpdate += payload.Length;
                if (stream == _stream)
                {
                    var data = Unpad(flags, payload);
                    if (_bodyLength + data.Length > _body.Length)
                    {
                        Array.Resize(ref _body, Math.Max(_bodyLength + data.Length, _body.Length * 2));
                    }

                    data.CopyTo(_body.AsSpan(_bodyLength));
                    _bodyLength += data.Length;
                    _ended |= (flags & 0x1) != 0;
                }

                if (_receivedSinceUpdate >= OurWindow / 2)
                {
                    var update = (int)_receivedSinceUpdate;
                    _receivedSinceUpdate = 0;
                    var at = Frame(_control, 0, 4, 0x8, 0, 0);
                    BinaryPrimitives.WriteInt32BigEndian(_control.AsSpan(at), update);
                    return at + 4;
                }

                return 0;
            case 0x1: // HEADERS
                var fragment = Unpad(flags, payload);
                if ((flags & 0x20) != 0)
                {
                    fragment = fragment[Math.Min(5, fragment.Length)..]; // PRIORITY fields
                }

                _blockLength = 0;
                _blockStream = stream;
                AppendBlock(fragment, flags, endStream: (flags & 0x1) != 0);
                return 0;
            case 0x9: // CONTINUATION
                AppendBlock(payload, flags, endStream: _blockStream < 0);
                return 0;
            case 0x3: // RST_STREAM
                if (stream == _stream)
                {
                    _reset = true;
                    _ended = true;
                }

                return 0;
            case 0x4: // SETTINGS
                if ((flags & 0x1) != 0)
                {
                    return 0;
                }

                for (var at = 0; at + 6 <= payload.Length; at += 6)
                {
                    var id = BinaryPrimitives.ReadUInt16BigEndian(payload[at..]);
                    var value = BinaryPrimitives.ReadUInt32BigEndian(payload[(at + 2)..]);
                    if (id == 0x4)
                    {
                        _streamSendWindow += (int)value - _peerInitialWindow;
                        _peerInitialWindow = (int)value;
                    }
                }

                return Frame(_control, 0, 0, 0x4, 0x1, 0); // ACK
            case 0x6: // PING
                if ((flags & 0x1) != 0 || payload.Length != 8)
                {
                    return 0;
                }

                payload.CopyTo(_control.AsSpan(Frame(_control, 0, 8, 0x6, 0x1, 0)));
                return Http2Request.FrameHeader + 8;
            case 0x7: // GOAWAY
                _goingAway = true;
                var last = payload.Length >= 4 ? BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue : 0;
                return _stream > last && !_ended ? throw new IOException($"the server sent GOAWAY (last stream {last}, ours {_stream})") : 0;
            case 0x8: // WINDOW_UPDATE
                var increment = payload.Length >= 4 ? BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue : 0;
                if (stream == 0)
                {
                    _connectionSendWindow += increment;
                }
                else if (stream == _stream)
                {
                    _streamSendWindow += increment;
                }

                return 0;
            default: // PRIORITY, PUSH_PROMISE (push is off), unknown types: ignored
                return 0;
        }
    }

    /// <summary>Collects a header block's fragment; decodes it when END_HEADERS comes (every block, so the HPACK table stays right).</summary>
    private void AppendBlock(ReadOnlySpan<byte> fragment, byte flags, bool endStream)
    {
        if (_blockLength + fragment.Length > _block.Length)
        {
            Array.Resize(ref _block, Math.Max(_blockLength + fragment.Length, _block.Length * 2));
        }

        fragment.CopyTo(_block.AsSpan(_blockLength));
        _blockLength += fragment.Length;
        if ((flags & 0x4) == 0)
        {
            // More in CONTINUATION frames: remember END_STREAM in the sign of the stream id.
            _blockStream = endStream ? -Math.Abs(_blockStream) : Math.Abs(_blockStream);
            return;
        }

        var (status, grpcStatus) = _hpack.Decode(_block.AsSpan(0, _blockLength));
        if (Math.Abs(_blockStream) == _stream)
        {
            if (_status < 0)
            {
                _status = status;
            }

            if (grpcStatus >= 0)
            {
                _grpcStatus = grpcStatus;
            }

            _ended |= endStream;
        }

        _blockLength = 0;
    }

    private static ReadOnlySpan<byte> Unpad(byte flags, ReadOnlySpan<byte> payload)
    {
        if ((flags & 0x8) == 0)
        {
            return payload;
        }

        var pad = payload.Length > 0 ? payload[0] : throw new InvalidDataException("a padded frame without its pad length");
        return pad < payload.Length ? payload[1..^pad] : throw new InvalidDataException("a frame's padding longer than its payload");
    }

    /// <summary>Writes a frame header at <paramref name="at"/>; returns where its payload starts.</summary>
    private static int Frame(byte[] buffer, int at, int length, byte type, byte flags, int stream)
    {
        buffer[at] = (byte)(length >> 16);
        buffer[at + 1] = (byte)(length >> 8);
        buffer[at + 2] = (byte)length;
        buffer[at + 3] = type;
        buffer[at + 4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(buffer.AsSpan(at + 5), stream);
        return at + Http2Request.FrameHeader;
    }

    /// <summary>Reads more bytes, so that at least <paramref name="needed"/> fit after <see cref="_inStart"/>.</summary>
    private async ValueTask ReadMoreAsync(int needed)
    {
        if (_inStart + needed > _in.Length)
        {
            var buffered = _inEnd - _inStart;
            if (needed > _in.Length)
            {
                var larger = new byte[Math.Max(needed, _in.Length * 2)];
                Buffer.BlockCopy(_in, _inStart, larger, 0, buffered);
                _in = larger;
            }
            else
            {
                Buffer.BlockCopy(_in, _inStart, _in, 0, buffered);
            }

            _inStart = 0;
            _inEnd = buffered;
        }
        else if (_inStart == _inEnd)
        {
            _inStart = _inEnd = 0;
        }

        int n;
        if (_ssl is null)
        {
            n = await (_socket ?? throw Closed()).ReceiveAsync(_in.AsMemory(_inEnd), SocketFlags.None);
            _received += n;
        }
        else
        {
            n = await (_tls ?? throw Closed()).ReadAsync(_in.AsMemory(_inEnd));
            Tally();
        }

        _inEnd += n > 0 ? n : throw new IOException("the server closed the connection");
    }

    private async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes)
    {
        if (_ssl is null)
        {
            var socket = _socket ?? throw Closed();
            while (!bytes.IsEmpty)
            {
                var n = await socket.SendAsync(bytes, SocketFlags.None);
                bytes = bytes[n..];
                _sent += n;
            }
        }
        else
        {
            await (_tls ?? throw Closed()).WriteAsync(bytes);
            Tally();
        }
    }

    /// <summary>Moves the TLS connection's counters into the client's (they restart with each connection).</summary>
    private void Tally()
    {
        if (_tlsCounter is { } counter)
        {
            _sent += counter.BytesWritten - _tlsWrittenSeen;
            _received += counter.BytesRead - _tlsReadSeen;
            _tlsWrittenSeen = counter.BytesWritten;
            _tlsReadSeen = counter.BytesRead;
        }
    }

    /// <summary>The watchdog: a call running longer than the timeout loses its connection (and ends as Timeout).</summary>
    private void Watch()
    {
        var started = Volatile.Read(ref _callStartedMs);
        if (started != 0 && Environment.TickCount64 - started > _timeout.TotalMilliseconds)
        {
            _timedOut = true;
            Close();
        }
    }

    private static IOException Closed() => new("the connection was closed (timeout or cancellation)");

    private void Close()
    {
        var tls = Interlocked.Exchange(ref _tls, null);
        var socket = Interlocked.Exchange(ref _socket, null);
        _tlsCounter = null;
        _tlsWrittenSeen = 0;
        _tlsReadSeen = 0;
        tls?.Dispose();
        socket?.Dispose();
    }
}
