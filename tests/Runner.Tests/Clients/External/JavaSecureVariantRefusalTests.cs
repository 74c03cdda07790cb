using System.Diagnostics;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.External;

/// <summary>
/// Refusals on the real host's metro secure variants and IceSsl with the java driver (docs/security.md, "Refusals are
/// errors of kind auth"): a wrong password (Basic, UsernameToken), a client certificate of another CA and a signature
/// that no longer matches the body (WS-Security X.509), a server certificate the client's CA did not issue (HTTPS,
/// IceSSL, the X.509 reply's signature) give outcome Authentication on every sample, and the level ends (no hang).
/// Each refusal has its control: the same call with the host's own material succeeds.
/// </summary>
[Collection(JvmHostGroup.Name)]
public sealed class JavaSecureVariantRefusalTests(JvmHostFixture host) : IDisposable
{
    private const int Clients = 2;
    private const int Requests = 2;
    private static readonly TimeSpan NoHang = TimeSpan.FromSeconds(90);
    private readonly string _scratch = Directory.CreateTempSubdirectory("java-refusals-").FullName;

    public void Dispose() => Directory.Delete(_scratch, recursive: true);

    [Theory]
    [InlineData("MetroSoap11Basic")]
    [InlineData("MetroSoap11HttpsBasic")]
    [InlineData("MetroSoap12WsaUserNameHttps")]
    public async Task Call_WrongPassword_EverySampleIsAuthentication(string variant)
    {
        var endpoint = Endpoint(variant);
        var right = HostSecurity.For(host.Host, endpoint);
        var wrong = right with { Credentials = right.Credentials! with { Password = "not-the-password" } };

        AssertAllAuthentication(await RunAsync(endpoint, wrong));
        AssertAllSuccess(await RunAsync(endpoint, right));
    }

    [Fact]
    public async Task Call_X509ClientCertificateOfAnotherCa_EverySampleIsAuthentication()
    {
        var endpoint = Endpoint("MetroSoap12WsaX509");
        using var otherCa = SelfSignedCa("CN=Some other CA");
        var right = HostSecurity.For(host.Host, endpoint);
        var untrusted = right with { Credentials = right.Credentials! with { Certificate = ClientKeyStore(otherCa), Password = "test-password" } };

        AssertAllAuthentication(await RunAsync(endpoint, untrusted));
    }

    [Fact]
    public async Task Call_X509BodyChangedAfterSigning_EverySampleIsAuthentication()
    {
        // The driver's test switch changes the signed Body before encrypting it: the service decrypts a body whose
        // signature no longer matches and answers wsse:FailedCheck.
        var endpoint = Endpoint("MetroSoap12WsaX509");
        var security = HostSecurity.For(host.Host, endpoint);
        var java = DriverCommand.Java(RepositoryPaths.JavaDriver);
        var tampering = java with { Arguments = ["-Ddashboard.driver.alterSignedBody=true", .. java.Arguments] };

        AssertAllAuthentication(await RunAsync(endpoint, security, tampering));
        AssertAllSuccess(await RunAsync(endpoint, security));
    }

    [Fact]
    public async Task Call_X509ReplySignedByAServerTheGivenCaDidNotIssue_EverySampleIsAuthentication()
    {
        // The service accepts each request (the client's certificate is the host's) and answers it signed with its own
        // key; the driver, given another CA, refuses the reply's signature (ClientSecurityHandler.ReplyRefusedException).
        var endpoint = Endpoint("MetroSoap12WsaX509");
        using var otherCa = SelfSignedCa("CN=Not the host's CA");
        var pem = Path.Combine(_scratch, "other-ca-x509.crt");
        await File.WriteAllTextAsync(pem, otherCa.ExportCertificatePem());
        var right = HostSecurity.For(host.Host, endpoint);

        AssertAllAuthentication(await RunAsync(endpoint, right with { CaCertificate = pem }));
        AssertAllSuccess(await RunAsync(endpoint, right));
    }

    [Theory]
    [InlineData("MetroSoap11Https")]
    [InlineData("IceSsl")]
    public async Task Call_ServerCertificateNotIssuedByTheGivenCa_EverySampleIsAuthentication(string variant)
    {
        var endpoint = Endpoint(variant);
        using var otherCa = SelfSignedCa("CN=Not the host's CA");
        var pem = Path.Combine(_scratch, $"other-ca-{variant}.crt");
        await File.WriteAllTextAsync(pem, otherCa.ExportCertificatePem());

        AssertAllAuthentication(await RunAsync(endpoint, new ClientSecurity(pem, null)));
        AssertAllSuccess(await RunAsync(endpoint, HostSecurity.For(host.Host, endpoint)));
    }

    private HostEndpoint Endpoint(string variant) => host.Endpoints.Single(e => e.Name == variant);

    private static X509Certificate2 SelfSignedCa(string subject)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign, true));
        return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
    }

    /// <summary>A PKCS#12 file (password <c>test-password</c>) with a client key and a certificate <paramref name="issuer"/> signed.</summary>
    private string ClientKeyStore(X509Certificate2 issuer)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=dashboard-client", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyEncipherment, true));
        using var issued = request.Create(issuer, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddDays(10), RandomNumberGenerator.GetBytes(8));
        using var withKey = issued.CopyWithPrivateKey(key);
        var path = Path.Combine(_scratch, $"client-{Guid.NewGuid():N}.p12");
        File.WriteAllBytes(path, withKey.Export(X509ContentType.Pkcs12, "test-password"));
        return path;
    }

    private static async Task<LevelResult> RunAsync(HostEndpoint endpoint, ClientSecurity security, DriverCommand? command = null)
    {
        PayloadCatalogue.TryGet("Int", out var payload);
        var driver = new ExternalProcessDriver(command ?? DriverCommand.Java(RepositoryPaths.JavaDriver), TimeSpan.FromSeconds(30));
        var watch = Stopwatch.StartNew();
        using var bound = new CancellationTokenSource(NoHang);
        await using var session = await driver.OpenCellAsync(endpoint, payload!, security, bound.Token);
        var result = await session.RunLevelAsync(new LevelPlan(Clients, 0, Requests, null), bound.Token);
        Assert.False(result.Cancelled, $"the level did not end within {NoHang}");
        Assert.True(watch.Elapsed < NoHang, $"the level took {watch.Elapsed}");
        return result;
    }

    private static void AssertAllAuthentication(LevelResult result)
    {
        Assert.Equal(Clients * Requests, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Authentication, s.Outcome));
    }

    private static void AssertAllSuccess(LevelResult result)
    {
        Assert.Equal(Clients * Requests, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
    }
}
