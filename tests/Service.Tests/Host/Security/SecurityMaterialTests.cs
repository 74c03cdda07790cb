using System.Diagnostics;
using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Dashboard.Service.Contracts.Security;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host.Security;

#pragma warning disable CA1416 // File modes: the host and its tests run on Linux only (the host assembly says so).

/// <summary>The security material a real host makes in its data folder (docs/security.md), and what it serves about it.</summary>
public sealed class SecurityMaterialTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>, IDisposable
{
    private const UnixFileMode Private = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    private readonly ServiceHostProcess _host = fixture.Host;
    private readonly HttpClient _http = new();

    public void Dispose() => _http.Dispose();

    [Fact]
    public void LoadOrCreate_FirstStart_MakesEveryFileWithOwnerOnlyModes()
    {
        var folder = _host.SecurityDirectory;

        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(folder));
        foreach (var file in SecurityFiles.Private)
        {
            Assert.True(File.Exists(Path.Combine(folder, file)), file);
            Assert.Equal(Private, File.GetUnixFileMode(Path.Combine(folder, file)));
        }

        foreach (var file in new[] { SecurityFiles.CaCertificate, SecurityFiles.ServerCertificate, SecurityFiles.ClientCertificate })
        {
            Assert.StartsWith("-----BEGIN CERTIFICATE-----", File.ReadAllText(Path.Combine(folder, file)), StringComparison.Ordinal);
        }

        Assert.Empty(Directory.EnumerateFiles(folder, "*.tmp"));
        var credentials = CredentialsDocument.Read(Path.Combine(folder, SecurityFiles.Credentials));
        var bench = Assert.Single(credentials.Profiles);
        Assert.Equal(("bench", "bench"), (bench.Key, bench.Value.UserName));
        Assert.True(bench.Value.Password.Length >= 24, "a random password of at least 24 characters");
    }

    [Fact]
    public void ServerKeyStore_LoadedWithThePassword_ChainsToTheCaAndCoversLocalhost()
    {
        var folder = _host.SecurityDirectory;
        var password = File.ReadAllText(Path.Combine(folder, SecurityFiles.KeyStorePassword)).Trim();
        using var ca = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(folder, SecurityFiles.CaCertificate));
        var server = X509CertificateLoader.LoadPkcs12CollectionFromFile(Path.Combine(folder, SecurityFiles.ServerKeyStore), password);
        var leaf = server.Single(c => c.HasPrivateKey);

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(ca);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        var built = chain.Build(leaf);
        var san = leaf.Extensions.OfType<X509SubjectAlternativeNameExtension>().Single();

        Assert.True(built, string.Join("; ", chain.ChainStatus.Select(s => s.StatusInformation)));
        Assert.Equal(ca.Thumbprint, chain.ChainElements[^1].Certificate.Thumbprint);
        Assert.Contains("localhost", san.EnumerateDnsNames());
        Assert.Contains(Environment.MachineName, san.EnumerateDnsNames());
        Assert.Contains(IPAddress.Loopback, san.EnumerateIPAddresses());
        Assert.Contains(IPAddress.IPv6Loopback, san.EnumerateIPAddresses());
        Assert.Contains(server, c => c.Thumbprint == ca.Thumbprint);
        Assert.True(leaf.MatchesHostname("localhost"));
        Assert.Contains(leaf.Extensions.OfType<X509EnhancedKeyUsageExtension>().Single().EnhancedKeyUsages.Cast<Oid>(), o => o.Value == "1.3.6.1.5.5.7.3.1");
    }

    [Fact]
    public void ClientKeyStore_LoadedWithThePassword_IsDashboardClientForClientAuthentication()
    {
        var folder = _host.SecurityDirectory;
        var password = File.ReadAllText(Path.Combine(folder, SecurityFiles.KeyStorePassword)).Trim();
        using var ca = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(folder, SecurityFiles.CaCertificate));

        var client = X509CertificateLoader.LoadPkcs12CollectionFromFile(Path.Combine(folder, SecurityFiles.ClientKeyStore), password).Single(c => c.HasPrivateKey);

        Assert.Equal("dashboard-client", client.GetNameInfo(X509NameType.SimpleName, forIssuer: false));
        Assert.Equal(ca.Subject, client.Issuer);
        Assert.Contains(client.Extensions.OfType<X509EnhancedKeyUsageExtension>().Single().EnhancedKeyUsages.Cast<Oid>(), o => o.Value == "1.3.6.1.5.5.7.3.2");
    }

    [Theory]
    [InlineData(SecurityFiles.ServerKeyStore, "server")]
    [InlineData(SecurityFiles.ClientKeyStore, "client")]
    public async Task KeyStore_ListedByJavaKeytool_HasItsAlias(string file, string alias)
    {
        var password = File.ReadAllText(Path.Combine(_host.SecurityDirectory, SecurityFiles.KeyStorePassword)).Trim();
        var start = new ProcessStartInfo("keytool") { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "-list", "-storetype", "PKCS12", "-keystore", Path.Combine(_host.SecurityDirectory, file), "-storepass", password })
        {
            start.ArgumentList.Add(argument);
        }

        using var keytool = Process.Start(start)!;
        var output = await keytool.StandardOutput.ReadToEndAsync();
        await keytool.WaitForExitAsync();

        Assert.Equal(0, keytool.ExitCode);
        Assert.Contains($"{alias}, ", output, StringComparison.Ordinal);
        Assert.Contains("PrivateKeyEntry", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SecurityApi_HostStarted_NamesTheCaAndProfilesAndNoPassword()
    {
        using var http = _host.CreateControlClient();
        var body = await http.GetStringAsync(new Uri(_host.ControlAddress, "security"));
        var pem = await http.GetStringAsync(new Uri(_host.ControlAddress, "security/ca.crt"));
        using var json = JsonDocument.Parse(body);
        var root = json.RootElement;

        Assert.Equal(File.ReadAllText(Path.Combine(_host.SecurityDirectory, SecurityFiles.CaCertificate)), pem);
        Assert.Equal("/security/ca.crt", root.GetProperty("caCertificate").GetProperty("url").GetString());
        Assert.Equal(Path.Combine(_host.SecurityDirectory, SecurityFiles.CaCertificate), root.GetProperty("caCertificate").GetProperty("path").GetString());
        Assert.Equal(["bench"], root.GetProperty("profiles").EnumerateArray().Select(p => p.GetString()));
        Assert.Contains(root.GetProperty("noEquivalent").EnumerateArray(), e => e.GetProperty("scenarios").EnumerateArray().Any(s => s.GetString() == "PipeTptSgnWin"));
        foreach (var secret in Secrets(_host.SecurityDirectory))
        {
            Assert.DoesNotContain(secret, body, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Output_HostStarted_HasNoPassword()
    {
        var output = string.Join("\n", _host.Output);

        Assert.Contains("Security material in", output, StringComparison.Ordinal);
        foreach (var secret in Secrets(_host.SecurityDirectory))
        {
            Assert.DoesNotContain(secret, output, StringComparison.Ordinal);
        }
    }

    internal static IEnumerable<string> Secrets(string folder) =>
        CredentialsDocument.Read(Path.Combine(folder, SecurityFiles.Credentials)).Profiles.Values.Select(p => p.Password)
            .Append(File.ReadAllText(Path.Combine(folder, SecurityFiles.KeyStorePassword)).Trim());
}

/// <summary>Restarts on the same data folder: what is reused, what is made again.</summary>
public sealed class SecurityMaterialRestartTests : IDisposable
{
    private readonly string _data = Directory.CreateTempSubdirectory("host-data-restart-").FullName;

    public void Dispose() => Directory.Delete(_data, recursive: true);

    /// <remarks>
    /// The server certificate names every address of the machine, so an interface that appears between the two starts
    /// (the network-namespace tests of other test assemblies add veth pairs while this one runs) rightly remakes it:
    /// such an attempt is repeated, and the assertion is made on a restart during which the addresses stayed the same.
    /// </remarks>
    [Fact]
    public async Task LoadOrCreate_Restart_ReusesEveryFile()
    {
        for (var attempt = 1; ; attempt++)
        {
            var addresses = MachineAddresses();
            await using (await ServiceHostProcess.StartWithDataDirectoryAsync(_data))
            {
            }

            var before = Snapshot();
            var between = MachineAddresses();
            await using var second = await ServiceHostProcess.StartWithDataDirectoryAsync(_data);
            var after = Snapshot();
            if (attempt < 5 && (addresses != between || between != MachineAddresses()))
            {
                continue;
            }

            Assert.Equal(before, after);
            Assert.Contains(second.Output, line => line.Contains("all reused", StringComparison.Ordinal));
            return;
        }
    }

    private static string MachineAddresses() => string.Join(",", System.Net.NetworkInformation.NetworkInterface.GetAllNetworkInterfaces()
        .SelectMany(n => n.GetIPProperties().UnicastAddresses.Select(u => u.Address.ToString())).Order(StringComparer.Ordinal));

    [Fact]
    public async Task LoadOrCreate_AdvertisedHostChanged_RemakesTheServerCertificateAndKeepsTheCa()
    {
        await using (await ServiceHostProcess.StartWithDataDirectoryAsync(_data))
        {
        }

        var before = Snapshot();
        await using var second = await ServiceHostProcess.StartWithDataDirectoryAsync(_data, false, "--ServiceHost:AdvertisedHost=bench-host.example");
        var after = Snapshot();
        using var server = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(second.SecurityDirectory, SecurityFiles.ServerCertificate));

        Assert.Equal(before[SecurityFiles.CaKeyStore], after[SecurityFiles.CaKeyStore]);
        Assert.Equal(before[SecurityFiles.ClientKeyStore], after[SecurityFiles.ClientKeyStore]);
        Assert.Equal(before[SecurityFiles.Credentials], after[SecurityFiles.Credentials]);
        Assert.NotEqual(before[SecurityFiles.ServerKeyStore], after[SecurityFiles.ServerKeyStore]);
        Assert.Contains("bench-host.example", server.Extensions.OfType<X509SubjectAlternativeNameExtension>().Single().EnumerateDnsNames());
    }

    [Fact]
    public async Task LoadOrCreate_PublicNameAdded_NewCertificateKeepsOldNamesAndKeyAndNamesTheMachineAddresses()
    {
        await using (await ServiceHostProcess.StartWithDataDirectoryAsync(_data, false, "--ServiceHost:PublicName=first.example"))
        {
        }

        var folder = Path.Combine(_data, "security");
        using var first = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(folder, SecurityFiles.ServerCertificate));
        await using var second = await ServiceHostProcess.StartWithDataDirectoryAsync(_data, false, "--ServiceHost:PublicName=second.example");
        using var server = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(folder, SecurityFiles.ServerCertificate));
        var san = server.Extensions.OfType<X509SubjectAlternativeNameExtension>().Single();

        Assert.NotEqual(first.Thumbprint, server.Thumbprint);
        Assert.Contains("first.example", san.EnumerateDnsNames());
        Assert.Contains("second.example", san.EnumerateDnsNames());
        // The same key: a host still running with the first certificate decrypts what clients encrypt to server.crt.
        Assert.Equal(first.GetPublicKeyString(), server.GetPublicKeyString());
        var machineAddresses = System.Net.NetworkInformation.NetworkInterface.GetAllNetworkInterfaces()
            .Where(n => n.OperationalStatus == System.Net.NetworkInformation.OperationalStatus.Up)
            .SelectMany(n => n.GetIPProperties().UnicastAddresses).Select(u => u.Address)
            .Where(a => a.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork);
        Assert.All(machineAddresses, a => Assert.Contains(a, san.EnumerateIPAddresses()));
    }

    [Fact]
    public async Task LoadOrCreate_ServerCertificateExpired_RemakesItUnderTheSameCa()
    {
        await using (await ServiceHostProcess.StartWithDataDirectoryAsync(_data))
        {
        }

        var folder = Path.Combine(_data, "security");
        var password = File.ReadAllText(Path.Combine(folder, SecurityFiles.KeyStorePassword)).Trim();
        var ca = X509CertificateLoader.LoadPkcs12CollectionFromFile(Path.Combine(folder, SecurityFiles.CaKeyStore), password).Single(c => c.HasPrivateKey);
        using (var key = RSA.Create(2048))
        {
            var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
            request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
            using var expired = request.Create(ca, DateTimeOffset.UtcNow.AddHours(-20), DateTimeOffset.UtcNow.AddHours(-1), [1, 2, 3]);
            using var withKey = expired.CopyWithPrivateKey(key);
            File.WriteAllBytes(Path.Combine(folder, SecurityFiles.ServerKeyStore), withKey.Export(X509ContentType.Pkcs12, password));
        }

        var before = Snapshot();
        await using var second = await ServiceHostProcess.StartWithDataDirectoryAsync(_data);
        using var server = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(folder, SecurityFiles.ServerCertificate));

        Assert.NotEqual(before[SecurityFiles.ServerKeyStore], Snapshot()[SecurityFiles.ServerKeyStore]);
        Assert.Equal(before[SecurityFiles.CaKeyStore], Snapshot()[SecurityFiles.CaKeyStore]);
        Assert.True(server.NotAfter > DateTime.Now.AddDays(30));
        Assert.Equal(ca.Subject, server.Issuer);
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(Path.Combine(folder, SecurityFiles.ServerKeyStore)));
    }

    [Fact]
    public async Task LoadOrCreate_ProfileWithConfiguredPassword_IsWrittenBesideTheGeneratedOne()
    {
        await using var host = await ServiceHostProcess.StartWithDataDirectoryAsync(_data, false,
            "--ServiceHost:CredentialProfiles:alice:UserName=alice", "--ServiceHost:CredentialProfiles:alice:Password=configured-secret-1");

        var profiles = CredentialsDocument.Read(Path.Combine(host.SecurityDirectory, SecurityFiles.Credentials)).Profiles;

        Assert.Equal(["alice", "bench"], profiles.Keys.Order());
        Assert.Equal(new CredentialProfile("alice", "configured-secret-1"), profiles["alice"]);
        Assert.DoesNotContain(host.Output, line => line.Contains("configured-secret-1", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("--ServiceHost:DataDirectory=relative/folder", "ServiceHost:DataDirectory must be an absolute path")]
    [InlineData("--ServiceHost:CredentialProfiles:x:UserName=a:b", "ServiceHost:CredentialProfiles:x:UserName")]
    [InlineData("--ServiceHost:PeerUids:0=-5", "ServiceHost:PeerUids")]
    public async Task Start_InvalidSecurityOptions_ExitsNamingTheKey(string argument, string expected)
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => ServiceHostProcess.StartWithDataDirectoryAsync(_data, false, argument));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    private Dictionary<string, string> Snapshot() =>
        Directory.EnumerateFiles(Path.Combine(_data, "security"), "*", SearchOption.TopDirectoryOnly)
            .Where(f => !Path.GetFileName(f).StartsWith('.'))
            .ToDictionary(f => Path.GetFileName(f), f => Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(f))));
}
