using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;
using Xunit.Abstractions;

namespace Dashboard.Service.Tests.Malformed;

/// <summary>One service host with the JVM service, small limits so the attacks stay cheap: 1 MiB bodies, 4 s for slow clients.</summary>
public sealed class MalformedTrafficHost : IAsyncLifetime
{
    /// <summary>The request size limit the host is started with.</summary>
    public const int MaxRequestBytes = 1024 * 1024;

    /// <summary>The slow-client timeout the host is started with (short, but longer than a cold first SOAP call on a busy machine).</summary>
    public const int SlowClientSeconds = 4;

    /// <summary>The host.</summary>
    public ServiceHostProcess Host { get; private set; } = null!;

    /// <summary>Each variant's endpoint, as <c>/endpoints</c> lists it.</summary>
    public Dictionary<string, HostEndpoint> Endpoints { get; private set; } = [];

    /// <summary>The CA, client certificate and <c>bench</c> credentials from the host's security folder.</summary>
    public ClientMaterial Material { get; private set; } = null!;

    /// <summary>Host working set and JVM resident memory (MB) when the suite started.</summary>
    public (double Host, double Jvm) MemoryAtStart { get; private set; }

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        Host = await ServiceHostProcess.StartAsync(jvm: true,
            $"--ServiceHost:MaxRequestBodyBytes={MaxRequestBytes}", $"--ServiceHost:SlowClientTimeoutSeconds={SlowClientSeconds}");
        await Host.WaitForEndpointAsync("IceTcp", TimeSpan.FromSeconds(90));
        await Host.WaitForEndpointAsync("IceSsl", TimeSpan.FromSeconds(90));
        Endpoints = (await Host.GetEndpointsAsync()).ToDictionary(e => e.Name);
        Material = ClientMaterial.Load(Host.SecurityDirectory);
        // One correct call per variant: the JVM's first SOAP 1.2 call builds its WS-Addressing pipeline (seconds, cold).
        foreach (var variant in VariantUnderTest.All.Where(v => Endpoints.ContainsKey(v.Name)))
        {
            await variant.BurstAsync(Endpoints[variant.Name], Material, workers: 1, callsEach: 1);
        }

        MemoryAtStart = await MemoryAsync();
    }

    /// <summary>The host's working set and the JVM's resident memory now, MB (<c>GET /resources</c>).</summary>
    public async Task<(double Host, double Jvm)> MemoryAsync()
    {
        using var http = Host.CreateControlClient();
        var resources = await http.GetFromJsonAsync<JsonElement>(new Uri(Host.ControlAddress, "resources"));
        return (resources.GetProperty("workingSetMb").GetDouble(), resources.GetProperty("jvmResidentMb").GetDouble());
    }

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        Material?.Dispose();
        await Host.DisposeAsync();
    }
}

/// <summary>
/// Issue #14, part 2: malformed traffic to all 18 variants of a real host (JVM included), the secure ones with the
/// malformed bytes inside TLS and behind the variant's credential: truncated, oversized (Content-Length and chunked),
/// unparsable and wrongly typed bodies, bad SOAP envelopes (and a missing WS-Security header), garbage on the HTTP/2 and
/// Ice ports, a bad HTTP/2 preface, garbage and plaintext before a TLS handshake, and slow clients that never finish
/// (their handshake included). Each endpoint answers with its protocol's error (4xx, a SOAP fault, an HTTP/2 reset or
/// GOAWAY, an Ice reply status, a TLS alert) or closes the connection, within a bound; a correct client then still gets
/// correct replies at the rate it had before (a burst of 4 × <see cref="VariantUnderTest.BurstCallsEach"/>
/// <c>IntSimple</c> calls before and after, compared with a generous factor: the machine is shared); and the host's and
/// the JVM's memory stay bounded.
/// </summary>
public sealed class MalformedTrafficTests(MalformedTrafficHost fixture, ITestOutputHelper output) : IClassFixture<MalformedTrafficHost>
{
    private static readonly TimeSpan AnswerWithin = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan SlowClientClosedWithin = TimeSpan.FromSeconds(MalformedTrafficHost.SlowClientSeconds + 8);

    /// <summary>The variants under test: <see cref="VariantUnderTest.All"/>.</summary>
    public static TheoryData<string> Variants() => new(VariantUnderTest.All.Select(v => v.Name));

    [Theory]
    [MemberData(nameof(Variants))]
    public async Task Endpoint_MalformedTraffic_AnswersWithItsProtocolErrorAndKeepsServing(string name)
    {
        var variant = VariantUnderTest.All.Single(v => v.Name == name);
        Assert.True(fixture.Endpoints.TryGetValue(name, out var endpoint), $"the host does not serve {name}");
        var address = endpoint.Address;
        var material = fixture.Material;
        var endPoint = VariantUnderTest.EndPointOf(address);
        var tls = variant.TlsOptions(material);
        var target = new Target(variant, address, material, () => RawConnection.OpenAsync(endPoint, tls), () => RawConnection.OpenAsync(endPoint));
        var before = await variant.BurstAsync(endpoint, material, workers: 4, callsEach: variant.BurstCallsEach);

        // Slow clients first: they hold their connections while everything else runs.
        var slow = SlowClients(target).Select(async s => (s.What, Answer: await s.Run(), s.Ok)).ToArray();
        var failures = new List<string>();
        foreach (var (what, run, ok) in Attacks(target))
        {
            var answer = await run();
            output.WriteLine($"{name} × {what}: {answer}");
            if (!ok(answer) || answer.Elapsed > AnswerWithin)
            {
                failures.Add($"{what}: {answer}");
            }
        }

        var during = variant.Wire == Wire.Ice ? await variant.BurstAsync(endpoint, material, workers: 4, callsEach: variant.BurstCallsEach) : double.NaN;
        foreach (var (what, answer, ok) in await Task.WhenAll(slow))
        {
            output.WriteLine($"{name} × {what}: {answer}");
            if (!ok(answer))
            {
                failures.Add($"{what}: {answer}");
            }
        }

        var after = await variant.BurstAsync(endpoint, material, workers: 4, callsEach: variant.BurstCallsEach);
        if (after < before / 10)
        {
            // A fast variant's burst lasts tens of milliseconds: one stall of the shared machine (the lead's measurements,
            // other builds) is not an endpoint that stopped serving at full rate. Measure once more; the better rate counts.
            var again = await variant.BurstAsync(endpoint, material, workers: 4, callsEach: variant.BurstCallsEach);
            output.WriteLine($"{name}: {after:0} calls/s after, below a tenth of {before:0}; again: {again:0} calls/s");
            after = Math.Max(after, again);
        }

        var memory = await fixture.MemoryAsync();
        output.WriteLine($"{name}: correct client {before:0} calls/s before, {after:0} after{(double.IsNaN(during) ? "" : $", {during:0} with a slow Ice client connected")}; " +
            $"host {fixture.MemoryAtStart.Host:0} → {memory.Host:0} MB, JVM {fixture.MemoryAtStart.Jvm:0} → {memory.Jvm:0} MB");

        Assert.True(failures.Count == 0, $"{name}:\n" + string.Join("\n", failures));
        Assert.True(after >= before / 10, $"{name}: {after:0} calls/s after the malformed traffic, {before:0} before");
        Assert.True(memory.Host < fixture.MemoryAtStart.Host + 400, $"host working set {fixture.MemoryAtStart.Host:0} → {memory.Host:0} MB");
        Assert.True(memory.Jvm < fixture.MemoryAtStart.Jvm + 600, $"JVM resident {fixture.MemoryAtStart.Jvm:0} → {memory.Jvm:0} MB");
    }

    /// <summary>An answer that is the protocol's error: 4xx, a SOAP fault (metro answers faults with 500), an HTTP/2 reset or GOAWAY, an Ice error reply, or a close.</summary>
    private static bool ProtocolError(VariantUnderTest variant, Answer a) =>
        a.Status is >= 400 and < 500
        || (variant.IsSoap && a.Status == 500 && a.Body.Contains("Fault", StringComparison.Ordinal))
        || (a.Status is null && (a.Closed || a.Protocol is not null));

    /// <summary>The variant under attack and how to reach it: <see cref="Open"/> through TLS where the variant has it (the handshake done with the host's CA and, for mutual TLS, the client certificate), <see cref="OpenPlain"/> a bare socket.</summary>
    private sealed record Target(VariantUnderTest Variant, string Address, ClientMaterial Material, Func<Task<RawConnection>> Open, Func<Task<RawConnection>> OpenPlain);

    private static IEnumerable<(string What, Func<Task<Answer>> Run, Func<Answer, bool> Ok)> Attacks(Target target)
    {
        var (variant, address, material, open, _) = target;
        var limit = MalformedTrafficHost.MaxRequestBytes;
        var good = variant.GoodBody(material);
        var random = new Random(14);
        var garbage = new byte[512];
        random.NextBytes(garbage);
        bool Error(Answer a) => ProtocolError(variant, a);

        if (variant.Tls)
        {
            // Before the handshake: the TLS layer itself must refuse and close, without a thread or a buffer held.
            yield return ("garbage bytes before the TLS handshake", () => ClosedAsync(target.OpenPlain, garbage, shutdown: false), a => a.Closed);
            yield return ("plaintext request on the TLS port", () => ClosedAsync(target.OpenPlain,
                Ascii(variant.Wire == Wire.Ice ? "IceP\u0001\u0000\u0001\u0000" : Http1.Head("/IntSimple", "Content-Length: 0")), shutdown: false),
                a => a.Closed || a.Status == 400);
        }

        var inside = variant.Tls ? " inside TLS" : "";
        if (variant.IsHttp1)
        {
            var path = variant.PathAt(address);
            string[] Headers(string contentType, params string[] more) => [$"Content-Type: {contentType}", .. variant.ExtraHeaders(material), .. more];
            Task<Answer> Send(params byte[][] parts) => Http1Async(open, parts);

            yield return ("truncated body (Content-Length 1000, 10 bytes, then end of stream)", async () =>
            {
                await using var c = await open();
                await c.SendAsync(Http1.Head(path, Headers(variant.ContentType, "Content-Length: 1000")));
                await c.SendAsync(good.AsMemory(0, Math.Min(10, good.Length)));
                await c.ShutdownSendAsync();
                return await Http1.ReadAnswerAsync(c, AnswerWithin + TimeSpan.FromSeconds(1));
            }, Error);
            yield return ($"oversized body (Content-Length {limit + 1})", () => Send(
                Ascii(Http1.Head(path, Headers(variant.ContentType, $"Content-Length: {limit + 1}"))), new byte[64 * 1024]),
                a => a.Status == 413 || (a.Status is null && a.Closed));
            yield return ("oversized chunked body", () => ChunkedAsync(open, Http1.Head(path, Headers(variant.ContentType, "Transfer-Encoding: chunked")), limit + 256 * 1024), Error);
            yield return ("unparsable body", () => Send(Ascii(Http1.Head(path, Headers(variant.ContentType, $"Content-Length: {variant.BadBody().Length}"))), variant.BadBody()),
                a => variant.IsSoap ? Error(a) : a.Status == 400);
            yield return ("wrong content type (text/plain)", () => Send(Ascii(Http1.Head(path, Headers("text/plain", $"Content-Length: {good.Length}"))), good),
                a => a.Status == 415);
            yield return ($"garbage bytes{inside}", () => Send(garbage, Ascii("\r\n\r\n")), Error);
            foreach (var (what, envelope) in variant.BadEnvelopes(material))
            {
                var bytes = Encoding.UTF8.GetBytes(envelope);
                yield return ($"bad SOAP envelope: {what}", () => Send(Ascii(Http1.Head(path, Headers(variant.ContentType, $"Content-Length: {bytes.Length}"))), bytes), Error);
            }
        }
        else if (variant.Wire == Wire.AspNetH2)
        {
            var scheme = variant.Tls ? "https" : "http";
            Task<Answer> Send(params byte[][] frames) => H2Async(open, [Http2.Preface, Http2.Settings(), .. frames]);
            var bad = variant.BadBody();
            yield return ("truncated body (content-length 1000, 10 bytes, END_STREAM)", () => Send(
                Http2.Headers(false, Http2.Request("IntSimple", variant.ContentType, 1000, scheme)), Http2.Data(good.AsSpan(0, 10), true)), Error);
            yield return ($"oversized body (content-length {limit + 1})", () => Send(
                Http2.Headers(false, Http2.Request("IntSimple", variant.ContentType, limit + 1, scheme)), Http2.Data(new byte[16 * 1024], false)),
                a => a.Status == 413 || (a.Status is null && (a.Closed || a.Protocol is not null)));
            yield return ("unparsable body", () => Send(
                Http2.Headers(false, Http2.Request("IntSimple", variant.ContentType, bad.Length, scheme)), Http2.Data(bad, true)), a => a.Status == 400);
            yield return ("wrong content type (text/plain)", () => Send(
                Http2.Headers(false, Http2.Request("IntSimple", "text/plain", good.Length, scheme)), Http2.Data(good, true)), a => a.Status == 415);
            yield return ($"garbage bytes instead of the preface{inside}", () => H2Async(open, [garbage]), Error);
            yield return ("bad HTTP/2 preface", () => H2Async(open, [Ascii("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n"), Http2.Settings()]), Error);
            yield return ($"HTTP/1.1 request on the {(variant.Tls ? "h2 (ALPN)" : "h2c")} port", () => H2Async(open,
                [Ascii(Http1.Head("/IntSimple", $"Content-Type: {variant.ContentType}", $"Content-Length: {good.Length}")), good]), Error);
        }
        else
        {
            if (variant.Tls)
            {
                // Sent together with the end of a TLS 1.3 handshake, before the server's validate-connection message (an
                // Ice client waits for that message first): IceSSL 3.7.8 (Java) may leave these bytes in its TLS buffer
                // until the socket is readable again, so the connection is held, as a slow client's is (no thread; the
                // bursts show calls go on at full rate). Every other Ice case below runs after the validate-connection
                // message, as Ice clients send, and must close the connection.
                yield return ("garbage bytes at the end of the TLS handshake, before the validate-connection message",
                    () => IceAsync(target.Open, garbage, wait: TimeSpan.FromSeconds(3)), a => a.Closed || a.Silent);
                open = async () =>
                {
                    var c = await target.Open();
                    await c.ReadUntilAsync(bytes => bytes.Length >= IceWire.HeaderSize, AnswerWithin);
                    return c;
                };
            }

            yield return ($"garbage bytes{inside}", () => IceAsync(open, garbage), a => a.Closed);
            yield return ($"an HTTP request on the Ice port{inside}", () => IceAsync(open, Ascii("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")), a => a.Closed);
            yield return ($"oversized message (header says {2 * limit} bytes)", () => IceAsync(open, [.. IceWire.Header(0, 2 * limit), .. new byte[1024]]), a => a.Closed);
            yield return ("unknown protocol version", () => IceAsync(open, [.. IceWire.Header(0, 100, protocolMajor: 9), .. new byte[86]]), a => a.Closed);
            yield return ("truncated message, then end of stream", () => IceAsync(open, [.. IceWire.Header(0, 100), .. new byte[20]], shutdown: true), a => a.Closed);
            yield return ("unknown operation", () => IceReplyAsync(open, IceWire.IntRequest(1, "NoSuchOperation", 1)), a => a.Protocol is { } p && !p.EndsWith(" 0", StringComparison.Ordinal));
        }
    }

    private static IEnumerable<(string What, Func<Task<Answer>> Run, Func<Answer, bool> Ok)> SlowClients(Target target)
    {
        var (variant, address, material, open, _) = target;
        var slowWait = SlowClientClosedWithin + TimeSpan.FromSeconds(2);
        bool ClosedInTime(Answer a) => (a.Closed || a.Protocol is not null || a.Status is 408 or 400) && a.Elapsed <= SlowClientClosedWithin;
        if (variant.Tls && variant.Wire != Wire.Ice)
        {
            // A TLS record header that announces a ClientHello, then nothing: the handshake never ends.
            yield return ("slow client: TLS handshake never finished", () => ClosedAsync(target.OpenPlain, [0x16, 0x03, 0x01, 0x02, 0x00, 0x01], shutdown: false, slowWait), ClosedInTime);
        }

        if (variant.IsHttp1)
        {
            var path = variant.PathAt(address);
            yield return ("slow client: headers never finished", () => Http1Async(open, [Ascii($"POST {path} HTTP/1.1\r\nHost: localhost\r\n")], slowWait), ClosedInTime);
            yield return ("slow client: body never finished (5 of 100 bytes)", () => Http1Async(open,
                [Ascii(Http1.Head(path, [$"Content-Type: {variant.ContentType}", .. variant.ExtraHeaders(material), "Content-Length: 100"])), new byte[5]],
                slowWait), ClosedInTime);
        }
        else if (variant.Wire == Wire.AspNetH2)
        {
            var scheme = variant.Tls ? "https" : "http";
            yield return ("slow client: preface never finished", () => H2Async(open, [Ascii("PRI * HTTP/2.0\r\n")], slowWait), ClosedInTime);
            yield return ("slow client: body never sent (content-length 100)", () => H2Async(open,
                [Http2.Preface, Http2.Settings(), Http2.Headers(false, Http2.Request("IntSimple", variant.ContentType, 100, scheme))], slowWait), ClosedInTime);
        }
        else
        {
            // Ice reads without blocking a thread: a half-sent header holds a connection and no dispatch thread. Its idle
            // close (ACM) is off on purpose (measurement connections live between levels), so the connection stays open:
            // the test checks that calls go on at full rate meanwhile (the burst "with a slow Ice client connected").
            yield return ("slow client: half a header, then nothing", () => IceAsync(open, IceWire.Header(0, 100)[..6], wait: TimeSpan.FromSeconds(6)),
                a => a.Silent || a.Closed);
            if (variant.Tls)
            {
                yield return ("slow client: TLS handshake never finished", () => ClosedAsync(target.OpenPlain, [0x16, 0x03, 0x01, 0x02, 0x00, 0x01], shutdown: false, TimeSpan.FromSeconds(6)),
                    a => a.Silent || a.Closed);
            }
        }
    }

    private static byte[] Ascii(string text) => Encoding.ASCII.GetBytes(text);

    private static async Task<Answer> Http1Async(Func<Task<RawConnection>> open, byte[][] parts, TimeSpan? wait = null)
    {
        await using var c = await open();
        foreach (var part in parts)
        {
            if (!await c.SendAsync(part))
            {
                break;
            }
        }

        return await Http1.ReadAnswerAsync(c, wait ?? AnswerWithin + TimeSpan.FromSeconds(1));
    }

    private static async Task<Answer> ChunkedAsync(Func<Task<RawConnection>> open, string head, int total)
    {
        await using var c = await open();
        await c.SendAsync(head);
        var chunk = Encoding.ASCII.GetBytes($"{64 * 1024:x}\r\n").Concat(new byte[64 * 1024]).Concat("\r\n"u8.ToArray()).ToArray();
        for (var sent = 0; sent < total; sent += 64 * 1024)
        {
            if (!await c.SendAsync(chunk))
            {
                break;
            }
        }

        await c.SendAsync("0\r\n\r\n");
        return await Http1.ReadAnswerAsync(c, AnswerWithin + TimeSpan.FromSeconds(1));
    }

    private static async Task<Answer> H2Async(Func<Task<RawConnection>> open, byte[][] frames, TimeSpan? wait = null)
    {
        await using var c = await open();
        foreach (var frame in frames)
        {
            if (!await c.SendAsync(frame))
            {
                break;
            }
        }

        return await Http2.ReadAnswerAsync(c, wait ?? AnswerWithin + TimeSpan.FromSeconds(1));
    }

    private static Task<Answer> IceAsync(Func<Task<RawConnection>> open, byte[] bytes, bool shutdown = false, TimeSpan? wait = null) =>
        ClosedAsync(open, bytes, shutdown, wait);

    /// <summary>Sends <paramref name="bytes"/> and reads whatever comes until the server closes or <paramref name="wait"/> passes; an HTTP status is parsed when one came.</summary>
    private static async Task<Answer> ClosedAsync(Func<Task<RawConnection>> open, byte[] bytes, bool shutdown, TimeSpan? wait = null)
    {
        await using var c = await open();
        await c.SendAsync(bytes);
        if (shutdown)
        {
            await c.ShutdownSendAsync();
        }

        var clock = System.Diagnostics.Stopwatch.StartNew();
        var closed = await c.ReadUntilAsync(_ => false, wait ?? AnswerWithin + TimeSpan.FromSeconds(1));
        var text = Encoding.ASCII.GetString(c.Received);
        int? status = text.StartsWith("HTTP/1.", StringComparison.Ordinal) && text.Length >= 12 && int.TryParse(text.AsSpan(9, 3), out var code) ? code : null;
        return new Answer(status, c.Received.Length > 0 && status is null ? $"({c.Received.Length} bytes received)" : "", closed, null, clock.Elapsed);
    }

    private static async Task<Answer> IceReplyAsync(Func<Task<RawConnection>> open, byte[] request)
    {
        await using var c = await open();
        await c.SendAsync(request);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        // The server's validate-connection message comes first, then the reply.
        var closed = await c.ReadUntilAsync(b => b.Length > IceWire.HeaderSize && IceWire.HasMessage(b[IceWire.HeaderSize..]), AnswerWithin);
        var received = c.Received;
        string? protocol = null;
        if (received.Length > IceWire.HeaderSize && IceWire.HasMessage(received[IceWire.HeaderSize..]))
        {
            protocol = $"Ice reply status {IceWire.ReadIntReply(received.AsSpan(IceWire.HeaderSize)).Status}";
        }

        return new Answer(null, "", closed, protocol, clock.Elapsed);
    }
}
