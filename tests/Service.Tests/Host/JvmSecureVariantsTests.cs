using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.Json;
using Dashboard.Service.Contracts.Security;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary>
/// The metro secure variants and IceSsl on the wire (docs/security.md), against the real host and its JVM service with the
/// host's own security material: what each answers to the right credentials, and that a refusal is HTTP 401 or a
/// WS-Security SOAP fault with its code and WS-Addressing reply headers, never a stack trace.
/// </summary>
public sealed class JvmSecureVariantsTests(JvmSecureVariantsTests.HostFixture fixture) : IClassFixture<JvmSecureVariantsTests.HostFixture>
{
    private const string Wsse = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    private const string PasswordText = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";
    private const string IntAction = "urn:dashboard:benchmark:2026:Benchmark:IntSimpleRequest";

    [Theory]
    [InlineData("MetroSoap11Basic", "http://", "TransportCredentialOnly", "Basic")]
    [InlineData("MetroSoap11Https", "https://", "Transport", "None")]
    [InlineData("MetroSoap11HttpsBasic", "https://", "Transport", "Basic")]
    [InlineData("MetroSoap12WsaUserNameHttps", "https://", "TransportWithMessageCredential", "UserName")]
    [InlineData("MetroSoap12WsaX509", "http://", "Message", "Certificate")]
    [InlineData("IceSsl", "benchmark:ssl -h ", "Transport", "None")]
    public void Endpoints_SecureVariant_ListedAsTheCatalogueDescribesIt(string variant, string addressStart, string securityMode, string credentialType)
    {
        var endpoint = fixture.Endpoint(variant);
        VariantCatalogue.TryGet(variant, out var catalogued);

        Assert.StartsWith(addressStart, endpoint.Address, StringComparison.Ordinal);
        Assert.Equal(securityMode, endpoint.SecurityMode);
        Assert.Equal(credentialType, endpoint.CredentialType);
        Assert.Equal(catalogued!.Transport, endpoint.Transport);
        Assert.Equal(catalogued.Encoding, endpoint.Encoding);
    }

    [Fact]
    public async Task MetroSoap11Basic_WithoutOrWithWrongCredentials_Answers401WithABasicChallenge()
    {
        var address = new Uri(fixture.Endpoint("MetroSoap11Basic").Address);
        using var http = new HttpClient();

        using var anonymous = await http.SendAsync(Soap11IntRequest(address, null));
        using var wrong = await http.SendAsync(Soap11IntRequest(address, ("bench", "not-the-password")));
        using var right = await http.SendAsync(Soap11IntRequest(address, fixture.User));

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal("Basic", anonymous.Headers.WwwAuthenticate.Single().Scheme);
        Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
        Assert.Equal(HttpStatusCode.OK, right.StatusCode);
        Assert.Contains("<IntSimpleResult>7</IntSimpleResult>", await right.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task MetroSoap11HttpsBasic_ClientTrustingOnlyTheHostCa_AnswersOverTlsWithTheServerCertificate()
    {
        var address = new Uri(fixture.Endpoint("MetroSoap11HttpsBasic").Address);
        X509Certificate2? presented = null;
        using var http = fixture.TrustingHostCa(certificate => presented = certificate);

        using var wrong = await http.SendAsync(Soap11IntRequest(address, ("bench", "not-the-password")));
        using var right = await http.SendAsync(Soap11IntRequest(address, fixture.User));

        Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
        Assert.Equal(HttpStatusCode.OK, right.StatusCode);
        Assert.Equal(fixture.ServerCertificate.Thumbprint, presented?.Thumbprint);
    }

    [Fact]
    public async Task MetroSoap12WsaUserNameHttps_RightPassword_Answers()
    {
        var address = new Uri(fixture.Endpoint("MetroSoap12WsaUserNameHttps").Address);
        using var http = fixture.TrustingHostCa();

        using var reply = await http.SendAsync(Soap12IntRequest(address, UsernameToken(fixture.User.UserName, fixture.User.Password)));

        Assert.Equal(HttpStatusCode.OK, reply.StatusCode);
        Assert.Contains("IntSimpleResult>7<", await reply.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("MetroSoap12WsaUserNameHttps", "wrong password", "FailedAuthentication")]
    [InlineData("MetroSoap12WsaUserNameHttps", "unknown user", "FailedAuthentication")]
    [InlineData("MetroSoap12WsaUserNameHttps", "no security header", "InvalidSecurity")]
    [InlineData("MetroSoap12WsaX509", "no security header", "InvalidSecurity")]
    [InlineData("MetroSoap12WsaX509", "a UsernameToken instead of a signature", "FailedAuthentication")] // no user is known to the X.509 endpoint
    public async Task MessageSecurity_Refused_AnswersAWsSecurityFaultWithAddressingHeadersAndNoStackTrace(string variant, string request, string code)
    {
        var endpoint = fixture.Endpoint(variant);
        var address = new Uri(endpoint.Address);
        var header = request switch
        {
            "wrong password" => UsernameToken(fixture.User.UserName, "not-the-password"),
            "unknown user" => UsernameToken("nobody", fixture.User.Password),
            "a UsernameToken instead of a signature" => UsernameToken(fixture.User.UserName, fixture.User.Password),
            _ => "",
        };
        using var http = address.Scheme == "https" ? fixture.TrustingHostCa() : new HttpClient();

        using var reply = await http.SendAsync(Soap12IntRequest(address, header));
        var body = await reply.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.InternalServerError, reply.StatusCode);
        Assert.Matches($"<[^>]*Subcode><[^>]*Value[^>]*>wsse:{code}</", body);
        Assert.Contains(Wsse, body, StringComparison.Ordinal);
        Assert.Contains(">http://www.w3.org/2005/08/addressing/fault</", body, StringComparison.Ordinal);
        Assert.Contains(">urn:uuid:test-message</", body, StringComparison.Ordinal); // RelatesTo the request's MessageID
        Assert.DoesNotContain("Exception", body, StringComparison.Ordinal);
        Assert.DoesNotContain("at dashboard.", body, StringComparison.Ordinal);
        Assert.Contains("action=\"http://www.w3.org/2005/08/addressing/fault\"", reply.Content.Headers.ContentType?.ToString() ?? "", StringComparison.Ordinal);
    }

    private static string UsernameToken(string user, string password) =>
        $"""<wsse:Security xmlns:wsse="{Wsse}" S:mustUnderstand="true"><wsse:UsernameToken><wsse:Username>{user}</wsse:Username><wsse:Password Type="{PasswordText}">{password}</wsse:Password></wsse:UsernameToken></wsse:Security>""";

    private static HttpRequestMessage Soap11IntRequest(Uri address, (string UserName, string Password)? basic)
    {
        const string envelope = """<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><IntSimple xmlns="urn:dashboard:benchmark:2026"><value>7</value></IntSimple></S:Body></S:Envelope>""";
        var request = new HttpRequestMessage(HttpMethod.Post, address) { Content = new StringContent(envelope, Encoding.UTF8, "text/xml") };
        request.Headers.Add("SOAPAction", "\"\"");
        if (basic is { } b)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes($"{b.UserName}:{b.Password}")));
        }

        return request;
    }

    private static HttpRequestMessage Soap12IntRequest(Uri address, string securityHeader)
    {
        var envelope = $"""<S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing"><S:Header>{securityHeader}<a:Action S:mustUnderstand="true">{IntAction}</a:Action><a:MessageID>urn:uuid:test-message</a:MessageID><a:To>{address}</a:To><a:ReplyTo><a:Address>http://www.w3.org/2005/08/addressing/anonymous</a:Address></a:ReplyTo></S:Header><S:Body><IntSimple xmlns="urn:dashboard:benchmark:2026"><value>7</value></IntSimple></S:Body></S:Envelope>""";
        var content = new StringContent(envelope, Encoding.UTF8);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse($"application/soap+xml; charset=utf-8; action=\"{IntAction}\"");
        return new HttpRequestMessage(HttpMethod.Post, address) { Content = content };
    }

    /// <summary>One host with its JVM service and its own security material for the class.</summary>
    public sealed class HostFixture : IAsyncLifetime
    {
        private ServiceHostProcess? _host;
        private HostEndpoint[] _endpoints = [];

        /// <summary>The profile <c>bench</c> from the host's credentials.json.</summary>
        public (string UserName, string Password) User { get; private set; }

        /// <summary>The host's CA certificate (ca.crt).</summary>
        public X509Certificate2 CaCertificate { get; private set; } = null!;

        /// <summary>The host's server certificate (server.crt).</summary>
        public X509Certificate2 ServerCertificate { get; private set; } = null!;

        /// <summary>The endpoint of <paramref name="variant"/> as the host lists it.</summary>
        public HostEndpoint Endpoint(string variant) => _endpoints.Single(e => e.Name == variant);

        /// <summary>An HTTP client that trusts only the host's CA (host name checked); <paramref name="presented"/> sees the server's certificate.</summary>
        public HttpClient TrustingHostCa(Action<X509Certificate2>? presented = null)
        {
            var handler = new SocketsHttpHandler();
            handler.SslOptions.RemoteCertificateValidationCallback = (_, certificate, _, errors) =>
            {
                if (certificate is null || (errors & ~System.Net.Security.SslPolicyErrors.RemoteCertificateChainErrors) != 0)
                {
                    return false;
                }

                using var chain = new X509Chain();
                chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
                chain.ChainPolicy.CustomTrustStore.Add(CaCertificate);
                chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
                var leaf = certificate as X509Certificate2 ?? X509CertificateLoader.LoadCertificate(certificate.GetRawCertData());
                presented?.Invoke(leaf);
                return chain.Build(leaf);
            };
            return new HttpClient(handler, disposeHandler: true);
        }

        /// <inheritdoc />
        public async Task InitializeAsync()
        {
            _host = await ServiceHostProcess.StartAsync(jvm: true);
            await _host.WaitForEndpointAsync("IceSsl", TimeSpan.FromSeconds(90));
            _endpoints = await _host.GetEndpointsAsync();
            var profiles = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(_host.SecurityDirectory, SecurityFiles.Credentials)));
            var bench = profiles.RootElement.GetProperty("profiles").GetProperty("bench");
            User = (bench.GetProperty("userName").GetString()!, bench.GetProperty("password").GetString()!);
            CaCertificate = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(_host.SecurityDirectory, SecurityFiles.CaCertificate));
            ServerCertificate = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(_host.SecurityDirectory, SecurityFiles.ServerCertificate));
        }

        /// <inheritdoc />
        public async Task DisposeAsync()
        {
            CaCertificate?.Dispose();
            ServerCertificate?.Dispose();
            await _host!.DisposeAsync();
        }
    }
}
