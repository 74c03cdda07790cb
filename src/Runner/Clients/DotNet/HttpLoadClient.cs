using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.DotNet;

/// <summary>
/// One closed-loop <c>dotnet</c> client of an aspnet or metro variant: its own <see cref="SocketsHttpHandler"/>, hence its own
/// connection, like a WCF client with its own channel.
/// </summary>
/// <remarks>
/// How the handler is set up, and why:
/// <list type="bullet">
/// <item><c>MaxConnectionsPerServer = 1</c>, one handler per client: exactly one TCP (or Unix socket) connection per
/// client, opened in <see cref="OpenAsync"/> and kept for the level (<c>PooledConnectionLifetime</c> and idle timeout
/// infinite), so N clients are N connections and no client waits for another's connection.</item>
/// <item><c>ConnectCallback</c> opens the socket itself (<c>NoDelay</c> on TCP; a <see cref="UnixDomainSocketEndPoint"/>
/// for <c>unix:</c> addresses) and wraps it in a <see cref="ByteCountingStream"/>: a request's bytes on the wire are
/// the bytes written during the call, its response's the bytes read (headers and HTTP/2 frames included).</item>
/// <item>HTTP/2 variants are called with <c>RequestVersionExact</c> 2.0: over <c>http://</c> prior knowledge, no upgrade;
/// over <c>https://</c> ALPN.</item>
/// <item>TLS (<c>https://</c>) is the handler's, on top of the counted stream, so TLS records and handshakes are counted
/// as wire bytes; the server is trusted only through the host's CA (<see cref="DotNetSecurity"/>), name checked; a client
/// certificate is presented when the variant takes one; Basic credentials travel in every request's header.</item>
/// <item>HTTP 401/403 and TLS refusals (a handshake that fails, or the server's alert right after it) are outcome
/// Authentication; the connection probe lets them through, so every sample of a refused level says so.</item>
/// <item>No proxy, no cookies, no decompression, no redirects: nothing between the client and the service.</item>
/// </list>
/// Every call encodes the arguments afresh (a real client serializes each call) and decodes and checks the reply.
/// </remarks>
public sealed class HttpLoadClient : ILoadClient
{
    private readonly HostEndpoint _endpoint;
    private readonly DotNetBinding _binding;
    private readonly OperationContract _operation;
    private readonly PayloadCase _payload;
    private readonly object?[] _arguments;
    private readonly Uri _uri;
    private readonly Uri _probeUri;
    private readonly HttpClient _http;
    private readonly MemoryStream _requestBody = new();
    private readonly DotNetSecurity _security;
    private readonly CountedConnection _connection;

    /// <summary>Creates the client; nothing is connected until <see cref="OpenAsync"/>.</summary>
    /// <param name="endpoint">The endpoint as the host listed it.</param>
    /// <param name="binding">How the variant is called.</param>
    /// <param name="operation">The payload's operation.</param>
    /// <param name="payload">The payload case.</param>
    /// <param name="timeout">Per-request (and connect) timeout.</param>
    /// <param name="security">CA, client certificate and Basic header of a secure endpoint; default none. Owned by the caller.</param>
    public HttpLoadClient(HostEndpoint endpoint, DotNetBinding binding, OperationContract operation, PayloadCase payload, TimeSpan timeout, DotNetSecurity? security = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(binding);
        ArgumentNullException.ThrowIfNull(payload);
        _endpoint = endpoint;
        _binding = binding;
        _operation = operation;
        _payload = payload;
        _arguments = payload.CreateArguments();
        _security = security ?? DotNetSecurity.None;
        var unixPath = DotNetBinding.IsUnixSocket(endpoint) ? endpoint.Address["unix:".Length..] : null;
        var baseUri = unixPath is null ? new Uri(endpoint.Address) : new Uri("http://localhost/");
        _uri = binding.TargetOf(baseUri, operation);
        _probeUri = binding.TargetOf(baseUri, EmptyMethod);
        _connection = new CountedConnection(unixPath);
        var handler = _connection.CreateHandler(timeout);
        _security.Configure(handler);
        _http = new HttpClient(handler, disposeHandler: true) { Timeout = timeout };
    }

    /// <inheritdoc />
    /// <remarks>Connects by calling <c>EmptyMethod</c> once (not recorded): the connection is open and the service answers before the clock starts.</remarks>
    public async ValueTask OpenAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var probe = CreateRequest(_probeUri, EmptyMethod, []);
            using var response = await _http.SendAsync(probe, HttpCompletionOption.ResponseContentRead, cancellationToken);
            if (!response.IsSuccessStatusCode && !IsRefusal(response.StatusCode))
            {
                var answer = (await response.Content.ReadAsStringAsync(cancellationToken)).ReplaceLineEndings(" ");
                throw new LoadClientException($"{_endpoint.Name} at {_endpoint.Address} answered the connection probe with HTTP {(int)response.StatusCode} {response.ReasonPhrase}: {answer[..Math.Min(answer.Length, 300)]}");
            }
        }
        catch (HttpRequestException e) when (DotNetSecurity.IsTlsRefusal(e))
        {
            // The service is there and refuses our credentials: the level runs and every sample says Authentication.
        }
        catch (HttpRequestException e)
        {
            throw new LoadClientException($"cannot connect to {_endpoint.Name} at {_endpoint.Address}: {Reason(e)}", e);
        }
        catch (TaskCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw new LoadClientException($"cannot connect to {_endpoint.Name} at {_endpoint.Address}: no answer within {_http.Timeout.TotalSeconds:0} s", e);
        }
    }

    /// <inheritdoc />
    public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
    {
        var mark = _connection.Mark();
        SampleOutcome outcome;
        try
        {
            using var request = CreateRequest(_uri, _operation, _arguments);
            using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken);
            outcome = response.StatusCode switch
            {
                _ when IsRefusal(response.StatusCode) => SampleOutcome.Authentication,
                _ when !response.IsSuccessStatusCode => SampleOutcome.Fault,
                _ => Check(await response.Content.ReadAsStreamAsync(cancellationToken)),
            };
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (TaskCanceledException)
        {
            outcome = SampleOutcome.Timeout;
        }
        catch (HttpRequestException e)
        {
            outcome = DotNetSecurity.IsTlsRefusal(e) ? SampleOutcome.Authentication : SampleOutcome.Connection;
        }

        return _connection.Result(outcome, mark);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _http.Dispose();
        _requestBody.Dispose();
        return ValueTask.CompletedTask;
    }

    private static OperationContract EmptyMethod => OperationCatalogue.All[0];

    private static bool IsRefusal(HttpStatusCode status) => status is HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden;

    private HttpRequestMessage CreateRequest(Uri uri, OperationContract operation, object?[] arguments)
    {
        _requestBody.SetLength(0);
        _binding.WriteRequest(operation, arguments, _requestBody);
        var request = new HttpRequestMessage(HttpMethod.Post, uri)
        {
            Version = _binding.HttpVersion,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent(_requestBody.GetBuffer(), 0, (int)_requestBody.Length),
        };
        _binding.Describe(request, operation);
        request.Headers.Authorization = _security.Authorization;
        return request;
    }

    private SampleOutcome Check(Stream body)
    {
        object? reply;
        try
        {
            reply = _binding.ReadResponse(_operation, body);
        }
        catch (MessageFormatException)
        {
            return SampleOutcome.Fault;
        }

        return _payload.IsExpectedReply(_arguments, reply) ? SampleOutcome.Success : SampleOutcome.WrongReply;
    }

    private static string Reason(HttpRequestException e) =>
        (e.InnerException is SocketException s ? s.Message : e.Message).ReplaceLineEndings(" ");
}
