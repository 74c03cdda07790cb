using System.Buffers.Text;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using System.Text;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// One closed-loop client of the <c>lean</c> generator on an HTTP/1.1 variant (cleartext, TLS or a Unix domain socket):
/// its own connection, the cell's pre-encoded request (<see cref="Http1Request"/>) written as is, the response read only
/// as far as its framing needs.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item>Cleartext: <see cref="Socket.SendAsync(ReadOnlyMemory{byte}, SocketFlags, CancellationToken)"/> and
/// <see cref="Socket.ReceiveAsync(Memory{byte}, SocketFlags, CancellationToken)"/> on the socket itself (<c>NoDelay</c>),
/// counted as they return. TLS: <see cref="SslStream"/> over a <see cref="ByteCountingStream"/>, so TLS records (and the
/// handshake of a reconnect) are counted as wire bytes, as the <c>dotnet</c> client counts them; the host's CA is the
/// only root and the host name is checked (<see cref="DotNetSecurity.CreateSslOptions"/>).</item>
/// <item>Response: the status code, <c>Content-Length</c> or <c>Transfer-Encoding: chunked</c> (chunks joined in place) and
/// <c>Connection: close</c>; one receive buffer per client, grown to the largest response and kept.</item>
/// <item>Reply check: <see cref="OpenAsync"/> sends the cell's request once (not recorded) and decodes and checks its reply
/// with the payload's own check; a correct reply's body is kept, and later bodies equal to it byte for byte are Success
/// without decoding. A body that differs is decoded and checked (Success, WrongReply, or Fault when it does not decode).</item>
/// <item>Outcomes: 401/403 and TLS refusals Authentication, other non-2xx Fault, a lost or refused connection Connection
/// (the next call reconnects), no complete reply within the timeout Timeout (a per-client watchdog, checked every 250 ms,
/// closes the connection; no per-call timer).</item>
/// </list>
/// </remarks>
public sealed class Http1LeanClient : ILoadClient
{
    private const int InitialBuffer = 16 * 1024;

    private readonly HostEndpoint _endpoint;
    private readonly DotNetBinding _binding;
    private readonly OperationContract _operation;
    private readonly PayloadCase _payload;
    private readonly object?[] _arguments;
    private readonly byte[] _request;
    private readonly string _host;
    private readonly int _port;
    private readonly string? _unixPath;
    private readonly SslClientAuthenticationOptions? _ssl;
    private readonly TimeSpan _timeout;
    private byte[] _buffer = new byte[InitialBuffer];
    private byte[]? _expectedBody;
    private Socket? _socket;
    private SslStream? _tls;
    private ByteCountingStream? _tlsCounter;
    private long _sent;
    private long _received;
    private long _tlsWrittenSeen;
    private long _tlsReadSeen;
    private long _callStartedMs;
    private volatile bool _timedOut;
    private Timer? _watchdog;
    private CancellationTokenRegistration _cancellation;
    private bool _registered;

    /// <summary>Creates the client; nothing is connected until <see cref="OpenAsync"/>.</summary>
    /// <param name="endpoint">The endpoint as the host listed it (<c>http://</c>, <c>https://</c> or <c>unix:/path</c>).</param>
    /// <param name="binding">How the variant is called (the reply's decoder).</param>
    /// <param name="operation">The payload's operation.</param>
    /// <param name="payload">The payload case (its check of the reply).</param>
    /// <param name="request">The cell's pre-encoded request (<see cref="Http1Request.Encode"/>); shared by the cell's clients, never written to.</param>
    /// <param name="timeout">Per-request (and connect) timeout.</param>
    /// <param name="security">CA and client certificate of a TLS endpoint (the Basic header is in <paramref name="request"/>). Owned by the caller.</param>
    public Http1LeanClient(HostEndpoint endpoint, DotNetBinding binding, OperationContract operation, PayloadCase payload, byte[] request, TimeSpan timeout, DotNetSecurity security)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(binding);
        ArgumentNullException.ThrowIfNull(payload);
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(security);
        _endpoint = endpoint;
        _binding = binding;
        _operation = operation;
        _payload = payload;
        _arguments = payload.CreateArguments();
        _request = request;
        _timeout = timeout;
        if (DotNetBinding.IsUnixSocket(endpoint))
        {
            _unixPath = endpoint.Address["unix:".Length..];
            _host = "localhost";
        }
        else
        {
            var uri = new Uri(endpoint.Address);
            _host = uri.IdnHost;
            _port = uri.Port;
            if (uri.Scheme == Uri.UriSchemeHttps)
            {
                _ssl = security.CreateSslOptions() ?? throw new LoadClientException($"{endpoint.Name} uses TLS and no CA certificate was given (the runner's --security-dir)");
                _ssl.TargetHost = _host;
                _ssl.ApplicationProtocols = [SslApplicationProtocol.Http11];
            }
        }
    }

    /// <inheritdoc />
    /// <remarks>Connects and sends the cell's request once (not recorded): its reply is checked and kept as the reference body.</remarks>
    public async ValueTask OpenAsync(CancellationToken cancellationToken)
    {
        _watchdog = new Timer(static state => ((Http1LeanClient)state!).Watch(), this, 250, 250);
        _callStartedMs = Environment.TickCount64;
        try
        {
            await ConnectAsync(cancellationToken);
            await SendAsync();
            var (status, bodyStart, bodyEnd) = await ReceiveAsync();
            if (status is >= 200 and < 300)
            {
                _expectedBody = Check(bodyStart, bodyEnd) == SampleOutcome.Success ? _buffer[bodyStart..bodyEnd] : null;
            }
            else if (status is not (401 or 403))
            {
                var answer = Encoding.UTF8.GetString(_buffer, bodyStart, Math.Min(bodyEnd - bodyStart, 300)).ReplaceLineEndings(" ");
                throw new LoadClientException($"{_endpoint.Name} at {_endpoint.Address} answered the lean generator's first request with HTTP {status}: {answer}");
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
            _cancellation = cancellationToken.UnsafeRegister(static state => ((Http1LeanClient)state!).Close(), this);
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

            await SendAsync();
            var (status, bodyStart, bodyEnd) = await ReceiveAsync();
            outcome = status switch
            {
                401 or 403 => SampleOutcome.Authentication,
                < 200 or >= 300 => SampleOutcome.Fault,
                _ when _expectedBody is { } expected && _buffer.AsSpan(bodyStart, bodyEnd - bodyStart).SequenceEqual(expected) => SampleOutcome.Success,
                _ => Check(bodyStart, bodyEnd),
            };
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

    private async ValueTask ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = _unixPath is null
            ? new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true }
            : new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _socket = socket;
        EndPoint target = _unixPath is null ? new DnsEndPoint(_host, _port) : new UnixDomainSocketEndPoint(_unixPath);
        await socket.ConnectAsync(target, cancellationToken);
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
        }
    }

    private ValueTask SendAsync() => _ssl is null ? SendRawAsync() : SendTlsAsync();

    private async ValueTask SendRawAsync()
    {
        var socket = _socket ?? throw Closed();
        var offset = 0;
        while (offset < _request.Length)
        {
            var n = await socket.SendAsync(_request.AsMemory(offset), SocketFlags.None);
            offset += n;
            _sent += n;
        }
    }

    private async ValueTask SendTlsAsync()
    {
        await (_tls ?? throw Closed()).WriteAsync(_request);
        Tally();
    }

    /// <summary>Reads one response into the buffer; returns its status and where its (de-chunked) body lies.</summary>
    /// <exception cref="IOException">The connection closed before the response was complete.</exception>
    /// <exception cref="InvalidDataException">The response is not HTTP/1.1 as framing needs it.</exception>
    private async ValueTask<(int Status, int BodyStart, int BodyEnd)> ReceiveAsync()
    {
        var length = 0;
        int headEnd;
        var scanned = 0;
        while (true)
        {
            var at = _buffer.AsSpan(scanned, length - scanned).IndexOf("\r\n\r\n"u8);
            if (at >= 0)
            {
                headEnd = scanned + at + 4;
                break;
            }

            scanned = Math.Max(0, length - 3);
            length = await ReadMoreAsync(length);
        }

        var (status, contentLength, chunked, close) = ParseHead(_buffer.AsSpan(0, headEnd));
        int bodyEnd;
        if (chunked)
        {
            (bodyEnd, length) = await ReadChunksAsync(headEnd, length);
        }
        else if (contentLength >= 0)
        {
            bodyEnd = checked(headEnd + (int)contentLength);
            while (length < bodyEnd)
            {
                length = await ReadMoreAsync(length, bodyEnd);
            }
        }
        else if (status is 204 or 304 or < 200)
        {
            bodyEnd = headEnd;
        }
        else
        {
            // No framing: the body runs to the end of the connection.
            while (true)
            {
                try
                {
                    length = await ReadMoreAsync(length);
                }
                catch (IOException)
                {
                    break;
                }
            }

            bodyEnd = length;
            close = true;
        }

        if (close)
        {
            Close();
        }

        return (status, headEnd, bodyEnd);
    }

    /// <summary>Joins the chunks' data in place from <paramref name="headEnd"/>; returns where the body ends and the bytes in the buffer.</summary>
    private async ValueTask<(int BodyEnd, int Length)> ReadChunksAsync(int headEnd, int length)
    {
        var read = headEnd;
        var write = headEnd;
        while (true)
        {
            int lineEnd;
            while ((lineEnd = _buffer.AsSpan(read, length - read).IndexOf("\r\n"u8)) < 0)
            {
                length = await ReadMoreAsync(length);
            }

            var line = _buffer.AsSpan(read, lineEnd);
            var semicolon = line.IndexOf((byte)';');
            if (!Utf8Parser.TryParse(semicolon >= 0 ? line[..semicolon] : line, out int size, out _, 'x') || size < 0)
            {
                throw new InvalidDataException("a chunk size that is not hexadecimal");
            }

            read += lineEnd + 2;
            if (size == 0)
            {
                // Trailers (none expected) up to the empty line.
                while (true)
                {
                    var end = _buffer.AsSpan(read, length - read).IndexOf("\r\n"u8);
                    if (end < 0)
                    {
                        length = await ReadMoreAsync(length);
                        continue;
                    }

                    read += end + 2;
                    if (end == 0)
                    {
                        return (write, length);
                    }
                }
            }

            while (length < read + size + 2)
            {
                length = await ReadMoreAsync(length, read + size + 2);
            }

            Buffer.BlockCopy(_buffer, read, _buffer, write, size);
            write += size;
            read += size + 2;
        }
    }

    /// <summary>Reads more bytes after the first <paramref name="length"/>, growing the buffer to at least <paramref name="needed"/>; returns the new length.</summary>
    private async ValueTask<int> ReadMoreAsync(int length, int needed = 0)
    {
        if (length == _buffer.Length || needed > _buffer.Length)
        {
            Array.Resize(ref _buffer, Math.Max(needed, _buffer.Length * 2));
        }

        int n;
        if (_ssl is null)
        {
            n = await (_socket ?? throw Closed()).ReceiveAsync(_buffer.AsMemory(length), SocketFlags.None);
            _received += n;
        }
        else
        {
            n = await (_tls ?? throw Closed()).ReadAsync(_buffer.AsMemory(length));
            Tally();
        }

        return n > 0 ? length + n : throw new IOException("the server closed the connection");
    }

    private static (int Status, long ContentLength, bool Chunked, bool Close) ParseHead(ReadOnlySpan<byte> head)
    {
        if (head.Length < 12 || !head.StartsWith("HTTP/1."u8) || !Utf8Parser.TryParse(head.Slice(9, 3), out int status, out _))
        {
            throw new InvalidDataException("not an HTTP/1.x response");
        }

        long contentLength = -1;
        var chunked = false;
        var close = head[7] == (byte)'0';
        var rest = head[(head.IndexOf("\r\n"u8) + 2)..];
        while (rest.Length > 2)
        {
            var end = rest.IndexOf("\r\n"u8);
            var line = rest[..end];
            rest = rest[(end + 2)..];
            var colon = line.IndexOf((byte)':');
            if (colon <= 0)
            {
                continue;
            }

            var name = line[..colon];
            var value = line[(colon + 1)..].Trim((byte)' ');
            if (name.Length == 14 && Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
            {
                if (!Utf8Parser.TryParse(value, out contentLength, out _))
                {
                    throw new InvalidDataException("a Content-Length that is not a number");
                }
            }
            else if (name.Length == 17 && Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8))
            {
                chunked = value.IndexOf("chunked"u8) >= 0;
            }
            else if (name.Length == 10 && Ascii.EqualsIgnoreCase(name, "Connection"u8))
            {
                close = Ascii.EqualsIgnoreCase(value, "close"u8);
            }
        }

        return (status, chunked ? -1 : contentLength, chunked, close);
    }

    private SampleOutcome Check(int bodyStart, int bodyEnd)
    {
        object? reply;
        try
        {
            using var body = new MemoryStream(_buffer, bodyStart, bodyEnd - bodyStart, writable: false);
            reply = _binding.ReadResponse(_operation, body);
        }
        catch (MessageFormatException)
        {
            return SampleOutcome.Fault;
        }

        return _payload.IsExpectedReply(_arguments, reply) ? SampleOutcome.Success : SampleOutcome.WrongReply;
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
