using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Clients.Wcf;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.WcfBindings;

/// <summary>
/// <c>WcfNetTcpTls</c> (net.tcp with Transport security: the framing's <c>application/ssl-tls</c> upgrade, TLS with the
/// host's server certificate, client credential None) called by the runner's WCF client (NetTcpBinding, Transport):
/// replies checked; a client that trusts another CA refuses the server (Authentication); a client that skips the upgrade
/// gets the framing fault UpgradeInvalid and the host keeps serving.
/// </summary>
public sealed class NetTcpTlsVariantTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>
{
    private const string Variant = "WcfNetTcpTls";
    private readonly HostEndpoint _endpoint = fixture.Endpoint(Variant);

    [Theory]
    [InlineData("Int")]
    [InlineData("String1000")]
    [InlineData("UDTypeArray1000")]
    public async Task Call_HostCa_ReplyIsTheContractValue(string payloadId)
    {
        Assert.StartsWith("net.tcp://", _endpoint.Address, StringComparison.Ordinal);
        var outcomes = await CallAsync(payloadId, Path.Combine(fixture.Host.SecurityDirectory, SecurityFiles.CaCertificate), calls: 5);

        Assert.Equal(Enumerable.Repeat(SampleOutcome.Success, 5), outcomes);
    }

    [Fact]
    public async Task Call_AnotherCa_EveryCallIsAuthentication()
    {
        var otherCa = Path.Combine(Path.GetTempPath(), $"other-ca-{Guid.NewGuid():N}.crt");
        using (var key = RSA.Create(2048))
        {
            var request = new CertificateRequest("CN=Not the host's CA", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
            request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
            using var ca = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
            await File.WriteAllTextAsync(otherCa, ca.ExportCertificatePem());
        }

        try
        {
            var outcomes = await CallAsync("Int", otherCa, calls: 2);

            Assert.Equal([SampleOutcome.Authentication, SampleOutcome.Authentication], outcomes);
        }
        finally
        {
            File.Delete(otherCa);
        }
    }

    [Fact]
    public async Task PreambleWithoutUpgrade_UpgradeInvalidFault_AndTheHostKeepsServing()
    {
        var address = new Uri(_endpoint.Address);
        var via = Encoding.UTF8.GetBytes(_endpoint.Address);
        using (var client = new TcpClient())
        {
            await client.ConnectAsync(address.Host, address.Port);
            var stream = client.GetStream();
            byte[] preamble = [0x00, 0x01, 0x00, 0x01, 0x02, 0x02, (byte)via.Length, .. via, 0x03, 0x08, 0x0C];
            await stream.WriteAsync(preamble);
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            using var answer = new MemoryStream();
            await stream.CopyToAsync(answer, timeout.Token);

            var expected = "http://schemas.microsoft.com/ws/2006/05/framing/faults/UpgradeInvalid";
            byte[] record = [0x08, (byte)expected.Length, .. Encoding.UTF8.GetBytes(expected)];
            Assert.Equal(record, answer.ToArray());
        }

        Assert.Equal([SampleOutcome.Success], await CallAsync("Int", Path.Combine(fixture.Host.SecurityDirectory, SecurityFiles.CaCertificate), calls: 1));
    }

    private async Task<SampleOutcome[]> CallAsync(string payloadId, string caFile, int calls)
    {
        PayloadCatalogue.TryGet(payloadId, out var payload);
        using var security = DotNetSecurity.For(_endpoint, new ClientSecurity(caFile, null));
        await using var client = new WcfLoadClient(_endpoint, payload!, TimeSpan.FromSeconds(10), security, null);
        await client.OpenAsync(CancellationToken.None);
        var outcomes = new SampleOutcome[calls];
        for (var i = 0; i < calls; i++)
        {
            outcomes[i] = (await client.CallAsync(CancellationToken.None)).Outcome;
        }

        return outcomes;
    }
}
