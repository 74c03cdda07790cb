using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Dashboard.Runner.Tests.Support;

/// <summary>A real HTTP server on a free loopback port that answers every request with one canned body (JSON by default).</summary>
public sealed class JsonHttpServer : IAsyncDisposable
{
    private readonly HttpListener _listener = new();
    private readonly Task _serving;

    private readonly string _contentType;
    private readonly int _status;

    /// <summary>Starts serving <paramref name="body"/> at once, as <paramref name="contentType"/> with HTTP status <paramref name="status"/>.</summary>
    public JsonHttpServer(string body, string contentType = "application/json", int status = 200)
    {
        _contentType = contentType;
        _status = status;
        Port = FreePort();
        _listener.Prefixes.Add($"http://127.0.0.1:{Port}/");
        _listener.Start();
        _serving = ServeAsync(Encoding.UTF8.GetBytes(body));
    }

    /// <summary>The port served.</summary>
    public int Port { get; }

    /// <summary>The base address served.</summary>
    public Uri Address => new($"http://127.0.0.1:{Port}");

    /// <summary>Requests received so far (counted before the answer is written).</summary>
    public int Requests => Volatile.Read(ref _requests);

    private int _requests;

    /// <summary>A loopback port nothing listens on (at the time of the call).</summary>
    public static int FreePort()
    {
        using var socket = new TcpListener(IPAddress.Loopback, 0);
        socket.Start();
        return ((IPEndPoint)socket.LocalEndpoint).Port;
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        _listener.Stop();
        await _serving;
        _listener.Close();
    }

    private async Task ServeAsync(byte[] body)
    {
        while (_listener.IsListening)
        {
            HttpListenerContext context;
            try
            {
                context = await _listener.GetContextAsync();
            }
            catch (Exception e) when (e is HttpListenerException or ObjectDisposedException or InvalidOperationException)
            {
                return;
            }

            Interlocked.Increment(ref _requests);
            try
            {
                context.Response.StatusCode = _status;
                context.Response.ContentType = _contentType;
                await context.Response.OutputStream.WriteAsync(body);
                context.Response.Close();
            }
            catch (Exception e) when (e is HttpListenerException or IOException or ObjectDisposedException)
            {
                // The client gave up on this request (a poller stopped mid-request): that is its right, not a server fault.
                context.Response.Abort();
            }
        }
    }
}
