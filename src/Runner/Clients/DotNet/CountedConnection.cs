using System.Net;
using System.Net.Sockets;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// The one connection of an in-process load client (<see cref="HttpLoadClient"/>, <see cref="GrpcLoadClient"/>,
/// the <c>wcf</c> client), opened by its <see cref="SocketsHttpHandler"/> through <see cref="ConnectAsync"/> and
/// wrapped in a <see cref="ByteCountingStream"/>, so a call's bytes on the wire are the bytes written and read
/// between <see cref="Mark"/> and <see cref="Result"/>.
/// </summary>
/// <remarks>
/// A call that opens a new connection (the first call, or one after the server closed the old connection) is
/// counted from that connection's first byte, so a reconnect never yields a negative or borrowed count.
/// </remarks>
public sealed class CountedConnection
{
    private readonly string? _unixPath;
    private ByteCountingStream? _current;

    /// <summary>A connection to the address the handler asks for (TCP, <c>NoDelay</c>), or to <paramref name="unixPath"/>.</summary>
    /// <param name="unixPath">A Unix domain socket's path to connect to instead of the request's host and port; null for TCP.</param>
    public CountedConnection(string? unixPath = null) => _unixPath = unixPath;

    /// <summary>
    /// A handler set up for one benchmark client: one connection kept for the level (<c>MaxConnectionsPerServer = 1</c>,
    /// infinite lifetime and idle timeout), no proxy, cookies, redirects or decompression, sockets from
    /// <see cref="ConnectAsync"/>. Callers add TLS and credentials.
    /// </summary>
    /// <param name="connectTimeout">Time allowed to open the connection.</param>
    public SocketsHttpHandler CreateHandler(TimeSpan connectTimeout) => new()
    {
        MaxConnectionsPerServer = 1,
        PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
        PooledConnectionIdleTimeout = Timeout.InfiniteTimeSpan,
        EnableMultipleHttp2Connections = false,
        UseProxy = false,
        UseCookies = false,
        AllowAutoRedirect = false,
        AutomaticDecompression = DecompressionMethods.None,
        ConnectTimeout = connectTimeout,
        ConnectCallback = ConnectAsync,
    };

    /// <summary>Opens the socket (a <see cref="SocketsHttpHandler.ConnectCallback"/>) and makes it the counted connection.</summary>
    /// <exception cref="SocketException">The connection was refused or could not be made.</exception>
    public async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var socket = _unixPath is null
            ? new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true }
            : new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            EndPoint target = _unixPath is null ? context.DnsEndPoint : new UnixDomainSocketEndPoint(_unixPath);
            await socket.ConnectAsync(target, cancellationToken);
            var counted = new ByteCountingStream(new NetworkStream(socket, ownsSocket: true));
            _current = counted;
            return counted;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>The byte counters before a call, to pass to <see cref="Result"/> after it.</summary>
    public CallMark Mark()
    {
        var current = _current;
        return new CallMark(current, current?.BytesWritten ?? 0, current?.BytesRead ?? 0);
    }

    /// <summary>The call's result with its request and response bytes on the wire since <paramref name="mark"/> (unknown when no connection was opened).</summary>
    public CallResult Result(SampleOutcome outcome, CallMark mark)
    {
        var current = _current;
        if (current is null)
        {
            return new CallResult(outcome);
        }

        var (written, read) = ReferenceEquals(current, mark.Connection) ? (mark.Written, mark.Read) : (0L, 0L);
        return new CallResult(outcome, checked((int)(current.BytesWritten - written)), checked((int)(current.BytesRead - read)));
    }
}

/// <summary>A connection's byte counters at the start of a call (<see cref="CountedConnection.Mark"/>).</summary>
/// <param name="Connection">The connection then, or null when none was open.</param>
/// <param name="Written">Bytes written on it so far.</param>
/// <param name="Read">Bytes read on it so far.</param>
public readonly record struct CallMark(ByteCountingStream? Connection, long Written, long Read);
