using System.Net;
using System.Net.Sockets;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Grpc;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// One closed-loop <c>dotnet</c> client of a gRPC variant (<c>AspNetGrpc</c>, <c>AspNetGrpcTls</c>): Grpc.Net.Client's
/// generated <see cref="Benchmark.BenchmarkClient"/> on a <see cref="GrpcChannel"/> of its own, over its own
/// <see cref="SocketsHttpHandler"/>, hence one HTTP/2 connection per client, like a WCF client with its own channel.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item>The handler is set up as <see cref="HttpLoadClient"/>'s: one connection (<c>MaxConnectionsPerServer = 1</c>, no
/// second HTTP/2 connection), kept for the level; <c>ConnectCallback</c> opens the TCP socket (<c>NoDelay</c>) and wraps it
/// in a <see cref="ByteCountingStream"/>, so a call's bytes are the HTTP/2 frames (HEADERS, DATA with the 5-byte gRPC
/// message prefix, trailers, and any WINDOW_UPDATE or PING exchanged meanwhile) as they crossed the socket, below TLS when
/// TLS is used (records and, on the call that opened the connection, the handshake).</item>
/// <item>TLS: the host's CA as the only root, host name checked, <c>client.p12</c> presented (<see cref="DotNetSecurity"/>).</item>
/// <item>Every call builds its request message from the payload's arguments (<see cref="GrpcMessages.Request"/>) and reads
/// the reply back into contract values (<see cref="GrpcMessages.Result"/>) for the payload's own check.</item>
/// <item>Status <c>Unauthenticated</c>/<c>PermissionDenied</c> and TLS refusals are Authentication; <c>DeadlineExceeded</c>
/// (the per-request timeout as the call's deadline) Timeout; <c>Unavailable</c> Connection; any other status Fault.</item>
/// </list>
/// </remarks>
public sealed class GrpcLoadClient : ILoadClient
{
    private static readonly Dictionary<string, Func<Benchmark.BenchmarkClient, IMessage, CallOptions, Task<IMessage>>> Calls = new(StringComparer.Ordinal)
    {
        ["EmptyMethod"] = async (c, r, o) => await c.EmptyMethodAsync((Empty)r, o),
        ["ByteSimple"] = async (c, r, o) => await c.ByteSimpleAsync((ByteValue)r, o),
        ["IntSimple"] = async (c, r, o) => await c.IntSimpleAsync((IntValue)r, o),
        ["DoubleSimple"] = async (c, r, o) => await c.DoubleSimpleAsync((DoubleValue)r, o),
        ["StringSimple"] = async (c, r, o) => await c.StringSimpleAsync((StringValue)r, o),
        ["ObjectSimple"] = async (c, r, o) => await c.ObjectSimpleAsync((ObjectValue)r, o),
        ["UDTypeSimple"] = async (c, r, o) => await c.UDTypeSimpleAsync((UDTypeValue)r, o),
        ["ByteArray"] = async (c, r, o) => await c.ByteArrayAsync((ByteArrayValue)r, o),
        ["IntArray"] = async (c, r, o) => await c.IntArrayAsync((IntArrayValue)r, o),
        ["DoubleArray"] = async (c, r, o) => await c.DoubleArrayAsync((DoubleArrayValue)r, o),
        ["ObjectArray"] = async (c, r, o) => await c.ObjectArrayAsync((ObjectArrayValue)r, o),
        ["UDTypeArray"] = async (c, r, o) => await c.UDTypeArrayAsync((UDTypeArrayValue)r, o),
        ["GetOrders"] = async (c, r, o) => await c.GetOrdersAsync((CountRequest)r, o),
        ["TransferFunds"] = async (c, r, o) => await c.TransferFundsAsync((TransferFundsRequest)r, o),
        ["CreateProductInfo"] = async (c, r, o) => await c.CreateProductInfoAsync((CountRequest)r, o),
        ["GetRBytes"] = async (c, r, o) => await c.GetRBytesAsync((SizeRequest)r, o),
        ["Get256Bytes"] = async (c, r, o) => await c.Get256BytesAsync((Empty)r, o),
    };

    private readonly HostEndpoint _endpoint;
    private readonly OperationContract _operation;
    private readonly PayloadCase _payload;
    private readonly object?[] _arguments;
    private readonly TimeSpan _timeout;
    private readonly GrpcChannel _channel;
    private readonly Benchmark.BenchmarkClient _client;
    private readonly Func<Benchmark.BenchmarkClient, IMessage, CallOptions, Task<IMessage>> _call;
    private readonly CountedConnection _connection = new();

    /// <summary>Creates the client; nothing is connected until <see cref="OpenAsync"/>.</summary>
    /// <param name="endpoint">The endpoint as the host listed it (<c>http://</c> for h2c, <c>https://</c> for TLS).</param>
    /// <param name="operation">The payload's operation.</param>
    /// <param name="payload">The payload case.</param>
    /// <param name="timeout">Per-request (and connect) timeout: each call's deadline.</param>
    /// <param name="security">CA and client certificate of the TLS variant; default none. Owned by the caller.</param>
    /// <exception cref="LoadClientException">The operation has no gRPC method.</exception>
    public GrpcLoadClient(HostEndpoint endpoint, OperationContract operation, PayloadCase payload, TimeSpan timeout, DotNetSecurity? security = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(payload);
        _endpoint = endpoint;
        _operation = operation;
        _payload = payload;
        _arguments = payload.CreateArguments();
        _timeout = timeout;
        _call = Calls.TryGetValue(operation.Name, out var call) ? call : throw new LoadClientException($"operation {operation.Name} has no gRPC method");
        var handler = _connection.CreateHandler(timeout);
        (security ?? DotNetSecurity.None).Configure(handler);
        _channel = GrpcChannel.ForAddress(endpoint.Address, new GrpcChannelOptions
        {
            HttpHandler = handler,
            DisposeHttpClient = true,
            MaxReceiveMessageSize = 64 * 1024 * 1024,
            MaxRetryAttempts = 0, // a failed call is a sample, not a silent retry
        });
        _client = new Benchmark.BenchmarkClient(_channel);
    }

    /// <inheritdoc />
    /// <remarks>Connects by calling <c>EmptyMethod</c> once (not recorded); a refusal of our credentials lets the level run (every sample then says Authentication).</remarks>
    public async ValueTask OpenAsync(CancellationToken cancellationToken)
    {
        try
        {
            await _client.EmptyMethodAsync(new Empty(), Options(cancellationToken));
        }
        catch (RpcException e) when (Classify(e) == SampleOutcome.Authentication)
        {
            // The service is there and refuses our credentials.
        }
        catch (RpcException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw new LoadClientException($"cannot connect to {_endpoint.Name} at {_endpoint.Address}: {e.StatusCode} {Reason(e)}", e);
        }
    }

    /// <inheritdoc />
    public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
    {
        var mark = _connection.Mark();
        SampleOutcome outcome;
        try
        {
            var reply = await _call(_client, GrpcMessages.Request(_operation, _arguments), Options(cancellationToken));
            outcome = _payload.IsExpectedReply(_arguments, GrpcMessages.Result(_operation, reply)) ? SampleOutcome.Success : SampleOutcome.WrongReply;
        }
        catch (RpcException) when (cancellationToken.IsCancellationRequested)
        {
            throw new OperationCanceledException(cancellationToken);
        }
        catch (RpcException e)
        {
            outcome = Classify(e);
        }

        return _connection.Result(outcome, mark);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _channel.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>The outcome of a failed call's status (docs/driver-protocol.md).</summary>
    public static SampleOutcome Classify(RpcException error)
    {
        ArgumentNullException.ThrowIfNull(error);
        return error.StatusCode switch
        {
            StatusCode.Unauthenticated or StatusCode.PermissionDenied => SampleOutcome.Authentication,
            StatusCode.DeadlineExceeded => SampleOutcome.Timeout,
            StatusCode.Unavailable or StatusCode.Internal when error.Status.DebugException is HttpRequestException h && DotNetSecurity.IsTlsRefusal(h) => SampleOutcome.Authentication,
            StatusCode.Unavailable => SampleOutcome.Connection,
            _ => SampleOutcome.Fault,
        };
    }

    private CallOptions Options(CancellationToken cancellationToken) => new(deadline: DateTime.UtcNow + _timeout, cancellationToken: cancellationToken);

    private static string Reason(RpcException e) =>
        (e.Status.DebugException is { } inner ? inner.Message : e.Status.Detail).ReplaceLineEndings(" ");
}
