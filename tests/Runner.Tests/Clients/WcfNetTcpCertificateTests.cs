using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Runner.Load;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Clients;

/// <summary>
/// <c>WcfNetTcpCert</c> (NetTcpBinding, Transport, TcpClientCredentialType.Certificate; thesis TcpTptEncCert) against the
/// built host without a JVM, called by the real WCF client: with the host's client certificate every sample succeeds;
/// with a certificate the host's CA did not issue, the TLS handshake is refused and the cell fails with the reason.
/// </summary>
public sealed class WcfNetTcpCertificateTests(WcfBindingsDriverTests.JvmFreeHost host) : IClassFixture<WcfBindingsDriverTests.JvmFreeHost>, IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("wcf-nettcp-cert-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Theory]
    [InlineData("Int")]
    [InlineData("UDTypeArray1000")]
    public async Task RunLevel_HostClientCertificate_EverySampleSucceeds(string payloadId)
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == "WcfNetTcpCert");
        PayloadCatalogue.TryGet(payloadId, out var payload);
        var security = HostSecurity.For(host.Host, endpoint);
        Assert.NotNull(security.Credentials?.Certificate);

        await using var session = await new WcfDriver(TimeSpan.FromSeconds(10)).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
        foreach (var clients in new[] { 1, 3 })
        {
            var result = await session.RunLevelAsync(new LevelPlan(clients, 1, 5, null), CancellationToken.None);

            Assert.Equal(clients * 6, result.Samples.Length);
            Assert.All(result.Samples, s => Assert.Equal(SampleOutcome.Success, s.Outcome));
        }
    }

    [Fact]
    public async Task RunLevel_CertificateOfAnotherIssuer_SessionRefusedWithTheReason()
    {
        var endpoint = (await host.Host.GetEndpointsAsync()).Single(e => e.Name == "WcfNetTcpCert");
        PayloadCatalogue.TryGet("Int", out var payload);
        var security = HostSecurity.For(host.Host, endpoint);
        var foreign = Path.Combine(_folder, "foreign.p12");
        using (var key = RSA.Create(2048))
        {
            var request = new CertificateRequest("CN=benchmark-client", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
            request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], critical: false));
            using var selfSigned = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
            await File.WriteAllBytesAsync(foreign, selfSigned.Export(X509ContentType.Pkcs12, security.Credentials!.Password));
        }

        security = security with { Credentials = security.Credentials with { Certificate = foreign } };

        // The host refuses the handshake (its CA did not issue the certificate), as WCF's SSL stream upgrade does: the
        // session is never established, so the cell fails with the WCF client's reason and no sample is recorded.
        var refused = await Assert.ThrowsAsync<LoadClientException>(async () =>
        {
            await using var session = await new WcfDriver(TimeSpan.FromSeconds(10)).OpenCellAsync(endpoint, payload!, security, CancellationToken.None);
            await session.RunLevelAsync(new LevelPlan(2, 1, 3, null), CancellationToken.None);
        });

        Assert.Contains("rejected the session-establishment request", refused.Message, StringComparison.Ordinal);
    }
}
