using System.Diagnostics;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients.DotNet;

/// <summary>
/// Refusals on the real host's secure aspnet variants (docs/security.md, "Refusals are errors of kind auth"): a wrong
/// password, a missing, untrusted or expired client certificate and a peer uid not allowed give outcome Authentication on
/// every sample, and the level ends (no hang).
/// </summary>
public sealed class SecureVariantRefusalTests(DotNetDriverTests.HostFixture fixture) : IClassFixture<DotNetDriverTests.HostFixture>, IDisposable
{
    private static readonly TimeSpan NoHang = TimeSpan.FromSeconds(20);
    private readonly string _scratch = Directory.CreateTempSubdirectory("refusal-certs-").FullName;

    public void Dispose() => Directory.Delete(_scratch, recursive: true);

    [Fact]
    public async Task Call_BasicWithWrongPassword_EverySampleIsAuthentication()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetHttpsJsonBasic");
        var right = HostSecurity.For(fixture.Host, endpoint);
        var wrong = right with { Credentials = right.Credentials! with { Password = "not-the-password" } };

        var result = await RunAsync(endpoint, wrong);

        AssertAllAuthentication(result);
    }

    [Fact]
    public async Task Call_BasicWithoutCredentials_EverySampleIsAuthentication()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetHttpsJsonBasic");
        var anonymous = HostSecurity.For(fixture.Host, endpoint) with { Credentials = null };

        AssertAllAuthentication(await RunAsync(endpoint, anonymous));
    }

    [Fact]
    public async Task Call_MutualTlsWithoutClientCertificate_EverySampleIsAuthentication()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetH2TlsBinXmlCert");
        var noCertificate = HostSecurity.For(fixture.Host, endpoint) with { Credentials = null };

        AssertAllAuthentication(await RunAsync(endpoint, noCertificate));
    }

    [Fact]
    public async Task Call_MutualTlsWithCertificateOfAnotherCa_EverySampleIsAuthentication()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetH2TlsBinXmlCert");
        using var otherCaKey = RSA.Create(2048);
        var caRequest = new CertificateRequest("CN=Some other CA", otherCaKey, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        caRequest.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        caRequest.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign, true));
        using var otherCa = caRequest.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));

        var security = WithClientCertificate(endpoint, otherCa, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddDays(10));

        AssertAllAuthentication(await RunAsync(endpoint, security));
    }

    [Fact]
    public async Task Call_MutualTlsWithExpiredCertificateOfOurCa_EverySampleIsAuthentication()
    {
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetH2TlsBinXmlCert");
        var password = File.ReadAllText(Path.Combine(fixture.Host.SecurityDirectory, SecurityFiles.KeyStorePassword)).Trim();
        using var ca = X509CertificateLoader.LoadPkcs12FromFile(Path.Combine(fixture.Host.SecurityDirectory, SecurityFiles.CaKeyStore), password);

        var security = WithClientCertificate(endpoint, ca, DateTimeOffset.UtcNow.AddHours(-20), DateTimeOffset.UtcNow.AddHours(-1));

        AssertAllAuthentication(await RunAsync(endpoint, security));
    }

    [Fact]
    public async Task Call_MutualTlsWithFreshCertificateOfOurCa_Succeeds()
    {
        // The control for the two tests above: the same code path with a certificate the host must accept.
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetH2TlsBinXmlCert");
        var password = File.ReadAllText(Path.Combine(fixture.Host.SecurityDirectory, SecurityFiles.KeyStorePassword)).Trim();
        using var ca = X509CertificateLoader.LoadPkcs12FromFile(Path.Combine(fixture.Host.SecurityDirectory, SecurityFiles.CaKeyStore), password);

        var security = WithClientCertificate(endpoint, ca, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddDays(1));
        var result = await RunAsync(endpoint, security);

        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
    }

    [Fact]
    public async Task Call_ServerCertificateNotIssuedByTheGivenCa_EverySampleIsAuthentication()
    {
        // The client trusts only the CA it is given: a host whose certificate another CA issued is refused in the handshake.
        var endpoint = fixture.Endpoints.Single(e => e.Name == "AspNetHttpsJson");
        using var otherKey = RSA.Create(2048);
        using var otherCa = new CertificateRequest("CN=Not the host's CA", otherKey, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1)
            .CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        var pem = Path.Combine(_scratch, "other-ca.crt");
        await File.WriteAllTextAsync(pem, otherCa.ExportCertificatePem());

        AssertAllAuthentication(await RunAsync(endpoint, new ClientSecurity(pem, null)));
    }

    [Fact]
    public async Task Call_PeerUidNotAllowed_EverySampleIsAuthentication()
    {
        var uid = int.Parse(File.ReadLines("/proc/self/status").First(l => l.StartsWith("Uid:", StringComparison.Ordinal)).Split('\t', StringSplitOptions.RemoveEmptyEntries)[2], System.Globalization.CultureInfo.InvariantCulture);
        await using var host = await ServiceHostProcess.StartAsync(false, $"--ServiceHost:PeerUids:0={uid + 4242}");
        var endpoint = (await host.GetEndpointsAsync()).Single(e => e.Name == "AspNetUdsBinXmlPeer");

        AssertAllAuthentication(await RunAsync(endpoint, ClientSecurity.None));
    }

    private ClientSecurity WithClientCertificate(HostEndpoint endpoint, X509Certificate2 issuer, DateTimeOffset notBefore, DateTimeOffset notAfter)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=dashboard-client", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false));
        using var issued = request.Create(issuer, notBefore, notAfter, RandomNumberGenerator.GetBytes(8));
        using var withKey = issued.CopyWithPrivateKey(key);
        var path = Path.Combine(_scratch, $"client-{Guid.NewGuid():N}.p12");
        File.WriteAllBytes(path, withKey.Export(X509ContentType.Pkcs12, "test-password"));
        var security = HostSecurity.For(fixture.Host, endpoint);
        return security with { Credentials = security.Credentials! with { Certificate = path, Password = "test-password" } };
    }

    private static async Task<LevelResult> RunAsync(HostEndpoint endpoint, ClientSecurity security)
    {
        PayloadCatalogue.TryGet("Int", out var payload);
        await using var factory = new DotNetDriver(TimeSpan.FromSeconds(10)).CreateFactory(endpoint, payload!, security);
        var watch = Stopwatch.StartNew();
        var result = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(2, 1, 3, null), CancellationToken.None);
        Assert.True(watch.Elapsed < NoHang, $"the level took {watch.Elapsed}");
        return result;
    }

    private static void AssertAllAuthentication(LevelResult result)
    {
        Assert.Equal(2 * 4, result.Samples.Length);
        Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Authentication, s.Outcome));
    }
}
