using System.Diagnostics;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.External;

/// <summary>
/// The same conformance checks for every client driver (docs/driver-protocol.md, "Conformance"), against the real
/// service host with its JVM service: every payload gives the right reply, request counts are exact, a wrong reply,
/// a server fault and a refused connection are counted by kind, cancel keeps the samples taken.
/// </summary>
[Collection(JvmHostGroup.Name)]
public sealed class DriverConformanceTests(JvmHostFixture host)
{
    private static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Per-request timeout of the every-payload check: generous, because it checks replies, counts and bytes, not
    /// speed, so a call that takes it is a hang, not a busy machine. CI of 2026-11-28 had one <c>dotnet</c> ×
    /// <c>AspNetGrpc</c> UDTypeArray1000 call pass the former 10 s once in a parallel test run; the whole case took 6 s
    /// here under a load average of 13, and 5 runs in a row passed.
    /// </summary>
    private static readonly TimeSpan ConformanceTimeout = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan MessageSecurityTimeout = TimeSpan.FromSeconds(90);
    private static readonly JsonSerializerOptions WebJson = new(JsonSerializerDefaults.Web);

    /// <summary>
    /// Payloads every driver × variant pair is checked with: one of each shape (void, number, text, struct, array of
    /// structs, nested orders, bulk bytes both ways). The full catalogue runs on one variant per stack and driver; each
    /// payload is a cell with its own driver process, so these lists set most of the suite's time.
    /// </summary>
    private static readonly string[] Representative = ["Empty", "Double", "String500", "UDType", "UDTypeArray1000", "Orders10", "Bytes256K", "Get256Bytes"];

    /// <summary>
    /// Payloads for a secure variant whose message encoding the same driver already passes over the unsecure
    /// variant, on the whole catalogue or one payload of each shape (SOAP 1.1 under Basic or TLS, a UsernameToken
    /// header, Ice over TLS, gRPC over TLS, JSON under TLS + Basic): text, a large array of structs and bulk bytes, so
    /// the security layer carries small and large messages; three, so an external driver starts them at once. Message
    /// security (X.509) signs and encrypts the body itself and keeps <see cref="Representative"/>.
    /// </summary>
    private static readonly string[] SecurityLayer = ["String500", "UDTypeArray1000", "Bytes256K"];

    public static TheoryData<string, string, PayloadSet> Pairs => new()
    {
        { "java", "MetroSoap11", PayloadSet.Catalogue },
        { "java", "MetroSoap11FastInfoset", PayloadSet.Shapes },
        { "java", "MetroSoap12Wsa", PayloadSet.Shapes },
        { "java", "IceTcp", PayloadSet.Catalogue },
        { "java", "MetroSoap11Basic", PayloadSet.SecurityLayer },
        { "java", "MetroSoap11Https", PayloadSet.SecurityLayer },
        { "java", "MetroSoap11HttpsBasic", PayloadSet.SecurityLayer },
        { "java", "MetroSoap12WsaUserNameHttps", PayloadSet.SecurityLayer },
        { "java", "MetroSoap12WsaX509", PayloadSet.Shapes },
        { "java", "IceSsl", PayloadSet.SecurityLayer },
        { "node", "MetroSoap11", PayloadSet.Catalogue },
        { "node", "MetroSoap12Wsa", PayloadSet.Shapes },
        { "node", "AspNetHttpJson", PayloadSet.Catalogue },
        { "node", "AspNetHttpsJson", PayloadSet.Catalogue },
        { "node", "AspNetHttpsJsonBasic", PayloadSet.SecurityLayer },
        { "dotnet", "MetroSoap11", PayloadSet.Catalogue },
        { "dotnet", "MetroSoap12Wsa", PayloadSet.Shapes },
        { "dotnet", "MetroSoap11Basic", PayloadSet.Shapes },
        { "dotnet", "MetroSoap11Https", PayloadSet.Shapes },
        { "dotnet", "MetroSoap11HttpsBasic", PayloadSet.Shapes },
        { "node", "MetroSoap11Basic", PayloadSet.SecurityLayer },
        { "node", "MetroSoap11Https", PayloadSet.SecurityLayer },
        { "node", "MetroSoap11HttpsBasic", PayloadSet.SecurityLayer },
        { "node", "MetroSoap12WsaUserNameHttps", PayloadSet.SecurityLayer },
        { "wcf", "MetroSoap11", PayloadSet.Catalogue },
        { "wcf", "MetroSoap11Basic", PayloadSet.Shapes },
        { "wcf", "MetroSoap11Https", PayloadSet.Shapes },
        { "wcf", "MetroSoap11HttpsBasic", PayloadSet.Shapes },
        { "wcf", "MetroSoap12Wsa", PayloadSet.Shapes },
        { "wcf", "MetroSoap12WsaUserNameHttps", PayloadSet.Shapes },
        { "dotnet", "AspNetGrpc", PayloadSet.Catalogue },
        { "dotnet", "AspNetGrpcTls", PayloadSet.Catalogue },
        { "java", "AspNetGrpc", PayloadSet.Catalogue },
        { "java", "AspNetGrpcTls", PayloadSet.SecurityLayer },
        { "node", "AspNetGrpc", PayloadSet.Catalogue },
        { "node", "AspNetGrpcTls", PayloadSet.SecurityLayer },
    };

    [Theory]
    [InlineData("node", "AspNetHttpsJsonBasic")]
    [InlineData("dotnet", "AspNetHttpsJsonBasic")]
    [InlineData("dotnet", "MetroSoap11Basic")]
    [InlineData("node", "MetroSoap12WsaUserNameHttps")]
    [InlineData("node", "MetroSoap11Basic")]
    [InlineData("node", "MetroSoap11HttpsBasic")]
    [InlineData("java", "MetroSoap11HttpsBasic")]
    [InlineData("wcf", "MetroSoap11Basic")]
    [InlineData("wcf", "MetroSoap11HttpsBasic")]
    [InlineData("wcf", "MetroSoap12WsaUserNameHttps")]
    public async Task WrongPassword_EverySampleIsAuthentication(string client, string variant)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == variant);
        var security = HostSecurity.For(host.Host, endpoint);
        security = security with { Credentials = security.Credentials! with { Password = "not-the-password" } };
        PayloadCatalogue.TryGet("Int", out var payload);
        var watch = Stopwatch.StartNew();

        await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
        var result = await session.RunLevelAsync(new LevelPlan(2, 1, 3, null), CancellationToken.None);

        Assert.Equal(8, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Authentication, s.Outcome));
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(30), $"took {watch.Elapsed}");
    }

    [Theory]
    [MemberData(nameof(Pairs))]
    public async Task EveryPayload_RightReplyExactCountsAndBytes(string client, string variant, PayloadSet payloadSet)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == variant);
        var security = HostSecurity.For(host.Host, endpoint);
        var driver = Driver(client, IsMessageSecurity(endpoint) ? MessageSecurityTimeout : ConformanceTimeout);
        var payloads = payloadSet switch
        {
            PayloadSet.Catalogue => PayloadCatalogue.Ids.ToArray(),
            PayloadSet.Shapes => Representative,
            _ => SecurityLayer,
        };
        var failures = new List<string>();

        // Up to three driver processes at a time: each payload is its own cell, as in a run.
        await Parallel.ForEachAsync(payloads, new ParallelOptions { MaxDegreeOfParallelism = 3 }, async (id, ct) =>
        {
            PayloadCatalogue.TryGet(id, out var payload);
            await using var session = await driver.OpenCellAsync(endpoint, payload!, security, ct);
            foreach (var clients in new[] { 1, 3 })
            {
                var result = await session.RunLevelAsync(new LevelPlan(clients, 1, 2, null), ct);
                lock (failures)
                {
                    if (result.Samples.Length != clients * 3 || result.Samples.Count(s => s.IsWarmup) != clients)
                    {
                        failures.Add($"{id} × {clients} clients: {result.Samples.Length} samples");
                    }

                    failures.AddRange(result.Samples.Where(s => !s.IsSuccess).Select(s =>
                        $"{id} × {clients} clients, client {s.ClientIndex}: {s.Outcome} after {s.LatencyUs / 1000} ms, started at {s.StartOffsetUs / 1000} ms"));
                    if (client is "java" or "dotnet" or "wcf" && result.Samples.Any(s => s.RequestBytes <= 0 || s.ResponseBytes <= 0))
                    {
                        failures.Add($"{id}: bytes not counted");
                    }
                }
            }
        });

        Assert.Empty(failures);
    }

    [Theory]
    [InlineData("java")]
    [InlineData("node")]
    [InlineData("dotnet")]
    [InlineData("wcf")]
    public async Task MetroSoap11_ServerAnswersAnotherValue_CountsWrongReply(string client)
    {
        await using var fake = new JsonHttpServer(SoapIntResponse("5"), "text/xml; charset=utf-8");
        var result = await RunAgainstAsync(client, fake.Port, "Int");

        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.WrongReply, s.Outcome));
        Assert.Equal(4, result.Samples.Length);
    }

    [Theory]
    [InlineData("java")]
    [InlineData("node")]
    [InlineData("dotnet")]
    [InlineData("wcf")]
    public async Task MetroSoap11_ServerAnswersAFault_CountsFault(string client)
    {
        const string fault = """<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>boom</faultstring></S:Fault></S:Body></S:Envelope>""";
        await using var fake = new JsonHttpServer(fault, "text/xml; charset=utf-8", 500);

        // A driver that probes its connection first (node, like dotnet) fails the cell with the fault; one that does
        // not (java) counts every request as a fault.
        try
        {
            var result = await RunAgainstAsync(client, fake.Port, "Int");
            Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Fault, s.Outcome));
            Assert.Equal(4, result.Samples.Length);
        }
        catch (LoadClientException e)
        {
            Assert.Contains("boom", e.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("java", "MetroSoap11")]
    [InlineData("java", "IceTcp")]
    [InlineData("node", "MetroSoap11")]
    [InlineData("node", "AspNetHttpJson")]
    [InlineData("dotnet", "MetroSoap11")]
    [InlineData("wcf", "MetroSoap11")]
    [InlineData("java", "AspNetGrpc")]
    [InlineData("node", "AspNetGrpc")]
    [InlineData("dotnet", "AspNetGrpc")]
    public async Task EndpointRefusesConnections_CountsConnectionErrorsOrFailsTheCell(string client, string variant)
    {
        var port = JsonHttpServer.FreePort();
        var endpoint = host.Endpoints.Single(e => e.Name == variant);
        endpoint = endpoint with { Address = variant == "IceTcp" ? $"benchmark:tcp -h 127.0.0.1 -p {port}" : ReplacePort(endpoint.Address, port) };
        PayloadCatalogue.TryGet("Int", out var payload);

        try
        {
            await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, CancellationToken.None);
            var result = await session.RunLevelAsync(new LevelPlan(2, 0, 2, null), CancellationToken.None);
            Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Connection, s.Outcome));
            Assert.Equal(4, result.Samples.Length);
        }
        catch (LoadClientException e)
        {
            Assert.Contains(port.ToString(System.Globalization.CultureInfo.InvariantCulture), e.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("java", "MetroSoap11")]
    [InlineData("java", "IceTcp")]
    [InlineData("node", "AspNetHttpJson")]
    [InlineData("wcf", "MetroSoap11")]
    [InlineData("wcf", "MetroSoap12WsaUserNameHttps")]
    [InlineData("java", "AspNetGrpc")]
    [InlineData("node", "AspNetGrpc")]
    public async Task Cancel_DuringADurationLevel_KeepsTheSamplesTakenAndTheDriverGoesOn(string client, string variant)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == variant);
        PayloadCatalogue.TryGet("Int", out var payload);
        await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, HostSecurity.For(host.Host, endpoint), CancellationToken.None);
        // A first level warms the driver (a cold JVM proxy can take longer than the cancel delay on a loaded machine:
        // the cancelled level then had no sample yet), so the cancelled level is sure to have taken some.
        var warm = await session.RunLevelAsync(new LevelPlan(2, 0, 3, null), CancellationToken.None);
        Assert.Equal(6, warm.Samples.Count(s => s.IsSuccess));
        using var cancellation = new CancellationTokenSource(TimeSpan.FromSeconds(3));
        var watch = Stopwatch.StartNew();

        var cancelled = await session.RunLevelAsync(new LevelPlan(2, 0, null, TimeSpan.FromSeconds(60)), cancellation.Token);
        var next = await session.RunLevelAsync(new LevelPlan(1, 0, 3, null), CancellationToken.None);

        Assert.True(cancelled.Cancelled);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(30), $"cancel took {watch.Elapsed}");
        Assert.NotEmpty(cancelled.Samples);
        Assert.All(cancelled.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
        Assert.Equal(3, next.Samples.Count(s => s.IsSuccess));
    }

    [Theory]
    [InlineData("dotnet", "other CA")]
    [InlineData("java", "other CA")]
    [InlineData("node", "other CA")]
    [InlineData("dotnet", "none")]
    [InlineData("java", "none")]
    [InlineData("node", "none")]
    public async Task GrpcTls_ClientCertificateNotOfTheHostsCa_EverySampleIsAuthentication(string client, string certificate)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == "AspNetGrpcTls");
        var security = HostSecurity.For(host.Host, endpoint);
        var scratch = Directory.CreateTempSubdirectory("grpc-refusal-").FullName;
        try
        {
            security = certificate == "none"
                ? security with { Credentials = null }
                : security with { Credentials = security.Credentials! with { Certificate = CertificateOfAnotherCa(scratch), Password = "test-password" } };
            PayloadCatalogue.TryGet("Int", out var payload);
            var watch = Stopwatch.StartNew();

            await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
            var result = await session.RunLevelAsync(new LevelPlan(2, 1, 3, null), CancellationToken.None);

            Assert.Equal(8, result.Samples.Length);
            Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Authentication, s.Outcome));
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(60), $"took {watch.Elapsed}");
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
    }

    [Theory]
    [InlineData("java")]
    [InlineData("node")]
    public async Task Grpc_SigintDuringALevel_WritesTheSamplesTakenAndExits130(string client)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == "AspNetGrpc");
        var command = client == "java" ? DriverCommand.Java(RepositoryPaths.JavaDriver) : DriverCommand.Node(RepositoryPaths.NodeDriver);
        var start = command.CreateStartInfo();
        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        var job = JsonSerializer.Serialize(new { type = "job", protocol = 1, endpoint, payload = "Int", timeoutMs = 10_000, credentials = (object?)null, caCertificate = (string?)null }, WebJson);
        await process.StandardInput.WriteLineAsync(job);
        await process.StandardInput.WriteLineAsync("""{"type":"level","index":0,"clients":2,"warmup":0,"requests":null,"durationMs":60000}""");
        await process.StandardInput.FlushAsync();
        Assert.StartsWith("ready ", await process.StandardOutput.ReadLineAsync(), StringComparison.Ordinal);

        await Task.Delay(TimeSpan.FromSeconds(4)); // the level's clients are calling (stdin stays open)
        ServiceHostProcess.Signal(process.Id, 2);
        var lines = (await process.StandardOutput.ReadToEndAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await process.WaitForExitAsync(timeout.Token);

        Assert.True(130 == process.ExitCode, $"exit {process.ExitCode}: {await stderr}");
        var samples = lines.Where(l => l.StartsWith("s ", StringComparison.Ordinal)).ToArray();
        Assert.NotEmpty(samples);
        Assert.All(samples, s => Assert.Equal("0", s.Split(' ')[4]));
        Assert.Contains(lines, l => l.StartsWith("level ", StringComparison.Ordinal) && l.Contains("\"cancelled\":true", StringComparison.Ordinal));
    }

    /// <summary>A PKCS#12 client certificate (clientAuth, password <c>test-password</c>) issued by a CA the host does not know.</summary>
    private static string CertificateOfAnotherCa(string directory)
    {
        using var caKey = RSA.Create(2048);
        var caRequest = new CertificateRequest("CN=Some other CA", caKey, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        caRequest.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        caRequest.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign, true));
        using var ca = caRequest.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=dashboard-client", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false));
        using var issued = request.Create(ca, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddDays(10), RandomNumberGenerator.GetBytes(8));
        using var withKey = issued.CopyWithPrivateKey(key);
        var path = Path.Combine(directory, "other-ca-client.p12");
        File.WriteAllBytes(path, withKey.Export(X509ContentType.Pkcs12, "test-password"));
        return path;
    }

    private async Task<LevelResult> RunAgainstAsync(string client, int port, string payloadId)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == "MetroSoap11");
        endpoint = endpoint with { Address = ReplacePort(endpoint.Address, port) };
        PayloadCatalogue.TryGet(payloadId, out var payload);
        await using var session = await Driver(client).OpenCellAsync(endpoint, payload!, CancellationToken.None);
        return await session.RunLevelAsync(new LevelPlan(2, 0, 2, null), CancellationToken.None);
    }

    private static string ReplacePort(string address, int port) => new UriBuilder(address) { Host = "127.0.0.1", Port = port }.Uri.ToString();

    private static string SoapIntResponse(string value) =>
        $"""<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><IntSimpleResponse xmlns="urn:dashboard:benchmark:2026"><IntSimpleResult>{value}</IntSimpleResult></IntSimpleResponse></S:Body></S:Envelope>""";

    [Theory]
    [InlineData("java", "MetroSoap11")]
    [InlineData("node", "AspNetHttpJson")]
    [InlineData("dotnet", "MetroSoap11")]
    public async Task DurationLevel_ReportsProgressAtLeastOnceASecond(string client, string variant)
    {
        var endpoint = host.Endpoints.Single(e => e.Name == variant);
        PayloadCatalogue.TryGet("Int", out var payload);
        var reports = new RecordingSink();
        IClientDriver driver = client switch
        {
            "java" => new ExternalProcessDriver(DriverCommand.Java(RepositoryPaths.JavaDriver), RequestTimeout) { Progress = reports },
            "node" => new ExternalProcessDriver(DriverCommand.Node(RepositoryPaths.NodeDriver), RequestTimeout) { Progress = reports },
            _ => new DotNetDriver(RequestTimeout) { Progress = reports },
        };
        await using var session = await driver.OpenCellAsync(endpoint, payload!, CancellationToken.None);

        var result = await session.RunLevelAsync(new LevelPlan(2, 1, null, TimeSpan.FromSeconds(3.5)), CancellationToken.None);

        // A 3.5 s level: a report at 1, 2 and 3 s (one may be lost to timer slack), requests never going down, a rate.
        var seen = reports.Snapshot();
        Assert.True(seen.Count >= 2, $"{seen.Count} progress reports in a 3.5 s level");
        Assert.All(seen, r => Assert.Equal((variant, client, "Int", 2), (r.Variant, r.Client, r.Payload, r.Clients)));
        Assert.Equal(seen.Select(r => r.Requests).Order(), seen.Select(r => r.Requests));
        Assert.True(seen[^1].Requests > 0 && seen[^1].Requests <= result.Samples.Count(s => !s.IsWarmup), $"last report {seen[^1].Requests}");
        Assert.Contains(seen, r => r.RateRps > 0);
    }

    private sealed class RecordingSink : ILevelProgressSink
    {
        private readonly List<(string Variant, string Client, string Payload, int Clients, long Requests, double RateRps)> _reports = [];

        public void Report(string variant, string client, string payload, int clients, long requests, long? errors, double rateRps)
        {
            lock (_reports)
            {
                _reports.Add((variant, client, payload, clients, requests, rateRps));
            }
        }

        public List<(string Variant, string Client, string Payload, int Clients, long Requests, double RateRps)> Snapshot()
        {
            lock (_reports)
            {
                return [.. _reports];
            }
        }
    }

    private static IClientDriver Driver(string client) => Driver(client, RequestTimeout);

    private static IClientDriver Driver(string client, TimeSpan requestTimeout) => client switch
    {
        "java" => new ExternalProcessDriver(DriverCommand.Java(RepositoryPaths.JavaDriver), requestTimeout),
        "node" => new ExternalProcessDriver(DriverCommand.Node(RepositoryPaths.NodeDriver), requestTimeout),
        "wcf" => new WcfDriver(requestTimeout),
        _ => new DotNetDriver(requestTimeout),
    };

    /// <summary>
    /// WS-Security variants copy, sign, encrypt, verify and decrypt 350 KB envelopes (UDTypeArray1000) on both sides:
    /// seconds per request on this shared machine, so a longer request timeout (the level is still bounded).
    /// </summary>
    /// <summary>Which payloads <see cref="EveryPayload_RightReplyExactCountsAndBytes"/> checks a pair with.</summary>
    public enum PayloadSet
    {
        /// <summary>Every payload of the catalogue.</summary>
        Catalogue,

        /// <summary><see cref="Representative"/>: one payload of each shape.</summary>
        Shapes,

        /// <summary><see cref="SecurityLayer"/>: text, a large array and bulk bytes.</summary>
        SecurityLayer,
    }

    private static bool IsMessageSecurity(HostEndpoint endpoint) => endpoint.SecurityMode is "Message" or "TransportWithMessageCredential";
}

/// <summary>One service host with its JVM service for every test class that needs metro or ice.</summary>
public sealed class JvmHostFixture : IAsyncLifetime
{
    private ServiceHostProcess? _host;

    /// <summary>What the host serves.</summary>
    public HostEndpoint[] Endpoints { get; private set; } = [];

    /// <summary>The host.</summary>
    public ServiceHostProcess Host => _host!;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        _host = await ServiceHostProcess.StartAsync(jvm: true);
        Endpoints = await _host.GetEndpointsAsync();
    }

    /// <inheritdoc />
    public async Task DisposeAsync() => await _host!.DisposeAsync();
}

/// <summary>The test collection that shares <see cref="JvmHostFixture"/>.</summary>
[CollectionDefinition(Name)]
public sealed class JvmHostGroup : ICollectionFixture<JvmHostFixture>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "JVM service host";
}
