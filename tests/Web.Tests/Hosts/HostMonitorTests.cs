using System.Net;
using System.Net.Sockets;
using System.Text;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Hosts;

/// <summary>
/// The real dashboard polls its local host's <c>/healthz</c> less often while a run goes (bench/README.md, "The dashboard's
/// own CPU while a run goes": its CPU is others' to the run's disturbed check) and at once again when the run ends. The
/// "host" is a socket in this test that answers <c>/healthz</c> and counts the requests; the run is the fake runner's slow one.
/// </summary>
public sealed class HostMonitorTests : IDisposable
{
    private readonly string _root = WebApp.NewRoot();

    [Fact]
    public async Task Run_Going_HealthPolledAtTheSlowerIntervalThenAgainWhenItEnds()
    {
        using var host = new CountingHealthEndpoint();
        var address = $"http://127.0.0.1:{host.Port}";
        await using var app = await WebApp.StartAsync(_root, null,
            $"--Dashboard:LocalHost:Address={address}",
            "--Dashboard:LocalHost:HealthPollInterval=00:00:01",
            "--Dashboard:LocalHost:HealthPollIntervalWhileRunning=00:10:00");
        Assert.True(await Eventually.HoldsAsync(() => host.Requests >= 3), $"idle, /healthz was asked {host.Requests} times, expected every second\n{app.Log}");

        using var queued = await app.PostScenarioAsync(WebApp.Scenario("slow").Replace("http://127.0.0.1:9", address, StringComparison.Ordinal));
        Assert.True(queued.IsSuccessStatusCode, await queued.Content.ReadAsStringAsync());
        var id = System.Text.Json.JsonDocument.Parse(await queued.Content.ReadAsStringAsync()).RootElement.GetProperty("id").GetInt32();
        await app.WaitForStatusAsync(id, "Running");
        // A poll that was due when the run started may still come; after it, none for 10 minutes.
        await Task.Delay(TimeSpan.FromSeconds(2));
        var whileRunning = host.Requests;
        await Task.Delay(TimeSpan.FromSeconds(6));
        Assert.True(host.Requests - whileRunning <= 1, $"while the run went, /healthz was asked {host.Requests - whileRunning} times in 6 s");

        using var cancel = await app.Http.DeleteAsync($"/api/runs/{id}");
        Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        await app.WaitForStatusAsync(id, "Cancelled");
        var ended = host.Requests;
        Assert.True(await Eventually.HoldsAsync(() => host.Requests >= ended + 2), "after the run, /healthz polling did not come back");
    }

    public void Dispose() => WebApp.DeleteRoot(_root);

    /// <summary>A loopback socket that answers every HTTP request with 200 and <c>{"status":"up"}</c> and counts the <c>GET /healthz</c> ones.</summary>
    private sealed class CountingHealthEndpoint : IDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly CancellationTokenSource _stop = new();
        private readonly Task _accepting;
        private int _requests;

        public CountingHealthEndpoint()
        {
            _listener.Start();
            _accepting = AcceptAsync();
        }

        public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

        public int Requests => Volatile.Read(ref _requests);

        private async Task AcceptAsync()
        {
            try
            {
                while (true)
                {
                    var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                    _ = AnswerAsync(client);
                }
            }
            catch (OperationCanceledException)
            {
            }
        }

        // One request per connection (the answer says Connection: close), so each connection is one poll.
        private async Task AnswerAsync(TcpClient client)
        {
            using (client)
            {
                try
                {
                    var stream = client.GetStream();
                    using var reader = new StreamReader(stream, Encoding.ASCII, leaveOpen: true);
                    var requestLine = await reader.ReadLineAsync(_stop.Token);
                    while (!string.IsNullOrEmpty(await reader.ReadLineAsync(_stop.Token)))
                    {
                    }

                    if (requestLine?.StartsWith("GET /healthz ", StringComparison.Ordinal) == true)
                    {
                        Interlocked.Increment(ref _requests);
                    }

                    const string body = """{"status":"up"}""";
                    var answer = $"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {body.Length}\r\nConnection: close\r\n\r\n{body}";
                    await stream.WriteAsync(Encoding.ASCII.GetBytes(answer), _stop.Token);
                }
                catch (Exception e) when (e is IOException or OperationCanceledException or SocketException or ObjectDisposedException)
                {
                }
            }
        }

        public void Dispose()
        {
            _stop.Cancel();
            _listener.Stop();
            _accepting.Wait(TimeSpan.FromSeconds(5));
            _stop.Dispose();
        }
    }
}
