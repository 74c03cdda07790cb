using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace Dashboard.Runner.Tests.Support;

/// <summary>
/// A minimal h2c gRPC server on a free loopback port, for the lean generator's error paths: on every connection it
/// answers stream 1 correctly (the request's message echoed, <c>grpc-status: 0</c> in the trailers) and every later
/// stream with RST_STREAM (<see cref="Misbehaviour.ResetStream"/>) or GOAWAY naming stream 1 as the last one
/// (<see cref="Misbehaviour.GoAway"/>).
/// </summary>
public sealed class FakeGrpcServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Misbehaviour _misbehaviour;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _serving;

    /// <summary>What the server does to streams after the first of a connection.</summary>
    public enum Misbehaviour
    {
        /// <summary>RST_STREAM with INTERNAL_ERROR (2).</summary>
        ResetStream,

        /// <summary>GOAWAY (last stream 1, NO_ERROR), then the connection closes.</summary>
        GoAway,
    }

    /// <summary>Starts listening at once.</summary>
    public FakeGrpcServer(Misbehaviour misbehaviour)
    {
        _misbehaviour = misbehaviour;
        _listener.Start();
        _serving = AcceptAsync();
    }

    /// <summary>The port served.</summary>
    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _serving;
        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        var connections = new List<Task>();
        while (!_stop.IsCancellationRequested)
        {
            try
            {
                connections.Add(ServeAsync(await _listener.AcceptSocketAsync(_stop.Token)));
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                break;
            }
        }

        await Task.WhenAll(connections);
    }

    private async Task ServeAsync(Socket socket)
    {
        using var stream = new NetworkStream(socket, ownsSocket: true);
        try
        {
            var preface = new byte[24];
            await stream.ReadExactlyAsync(preface, _stop.Token);
            await stream.WriteAsync(Frame(0x4, 0, 0, []), _stop.Token);
            var header = new byte[9];
            while (true)
            {
                await stream.ReadExactlyAsync(header, _stop.Token);
                var payload = new byte[(header[0] << 16) | (header[1] << 8) | header[2]];
                await stream.ReadExactlyAsync(payload, _stop.Token);
                var (type, flags, id) = (header[3], header[4], BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue);
                if (type == 0x4 && (flags & 0x1) == 0)
                {
                    await stream.WriteAsync(Frame(0x4, 0x1, 0, []), _stop.Token);
                }
                else if (type == 0x1 && id > 1 && _misbehaviour == Misbehaviour.ResetStream)
                {
                    await stream.WriteAsync(Frame(0x3, 0, id, [0, 0, 0, 2]), _stop.Token);
                }
                else if (type == 0x1 && id > 1)
                {
                    await stream.WriteAsync(Frame(0x7, 0, 0, [0, 0, 0, 1, 0, 0, 0, 0]), _stop.Token);
                    return;
                }
                else if (type == 0x0 && id == 1 && (flags & 0x1) != 0)
                {
                    byte[] trailers = [0x40, 11, .. "grpc-status"u8, 1, (byte)'0'];
                    byte[] reply = [.. Frame(0x1, 0x4, 1, [0x88]), .. Frame(0x0, 0, 1, payload), .. Frame(0x1, 0x5, 1, trailers)];
                    await stream.WriteAsync(reply, _stop.Token);
                }
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or EndOfStreamException)
        {
            // The client went away or the server stops.
        }
    }

    private static byte[] Frame(byte type, byte flags, int stream, byte[] payload)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), stream);
        payload.CopyTo(frame, 9);
        return frame;
    }
}
