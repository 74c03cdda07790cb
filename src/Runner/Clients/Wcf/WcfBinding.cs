using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.Wcf;

/// <summary>
/// Which WCF binding the <c>wcf</c> client uses for each Metro SOAP variant (the thesis's Table 7.2 names in brackets), and
/// why it refuses the others. Every binding takes messages up to 64 MiB and the reader quotas' maxima (the largest payload,
/// <c>Bytes256K</c>, is ~350 KB of base64, above WCF's 64 KB default).
/// </summary>
public static class WcfBinding
{
    private const long MaxMessageBytes = 64L * 1024 * 1024;

    /// <summary>Why the <c>wcf</c> client refuses a variant: variant id → one line (the catalogue's, also shown by the scenario validator).</summary>
    public static IReadOnlyDictionary<string, string> Refusals { get; } = ClientTechnology.Get("wcf").Refusals ?? new Dictionary<string, string>();

    /// <summary>The variants the <c>wcf</c> client calls (the catalogue's).</summary>
    public static IReadOnlySet<string> Callable { get; } = ClientTechnology.Get("wcf").Callable;

    /// <summary>
    /// The binding of <paramref name="variant"/>: <c>MetroSoap11</c> BasicHttpBinding (HttpNoSec); <c>MetroSoap11Basic</c>
    /// BasicHttpBinding TransportCredentialOnly + Basic (WTCOBasic); <c>MetroSoap11Https</c> BasicHttpsBinding Transport
    /// (HttpsTpt); <c>MetroSoap11HttpsBasic</c> BasicHttpsBinding Transport + Basic (HttpsTptBasic); <c>MetroSoap12Wsa</c>
    /// WSHttpBinding with security None (WsNoSec: SOAP 1.2 + WS-Addressing 1.0, no reliable session);
    /// <c>MetroSoap12WsaUserNameHttps</c> a CustomBinding of UserNameOverTransport (a UsernameToken with the password as
    /// text and a Timestamp in <c>wsse:Security</c>, no security context token), SOAP 1.2 + WS-Addressing 1.0 text, HTTPS
    /// (WsMixUName: WSHttpBinding TransportWithMessageCredential/UserName with <c>establishSecurityContext=false</c>);
    /// <c>WcfWsHttp</c> as <c>MetroSoap12Wsa</c> (WSHttpBinding, security None); <c>WcfBinaryHttp</c> a CustomBinding of
    /// WCF's sessionless binary encoder on HTTP (<c>application/soap+msbin1</c>: the Ice paper's "binary WCF");
    /// <c>WcfNetTcp</c> NetTcpBinding with security None (TcpNoSec: [MC-NMF] duplex session, binary session encoding);
    /// <c>WcfNetTcpTls</c> NetTcpBinding with Transport security and client credential None (TLS after the framing's
    /// <c>application/ssl-tls</c> upgrade, the server's certificate checked against the host's CA); <c>WcfNetTcpCert</c> the
    /// same with client credential Certificate (TcpTptEncCert: the client certificate of the scenario's profile presented
    /// in the TLS handshake).
    /// </summary>
    /// <exception cref="ArgumentException">The wcf client cannot call <paramref name="variant"/>; the message says why.</exception>
    public static Binding For(string variant, TimeSpan timeout)
    {
        if (!Callable.Contains(variant) || !VariantCatalogue.TryGet(variant, out var catalogued))
        {
            throw Refused(variant);
        }

        // Keyed by the catalogue's properties (codec, TLS, credential), not by variant name.
        Binding binding = (catalogued.Codec, catalogued.Tls, catalogued.CredentialType) switch
        {
            ("soap11", false, "None") => Sized(new BasicHttpBinding(BasicHttpSecurityMode.None)),
            ("soap11", false, "Basic") => Basic(Sized(new BasicHttpBinding(BasicHttpSecurityMode.TransportCredentialOnly))),
            ("soap11", true, "None") => Sized(new BasicHttpsBinding(BasicHttpsSecurityMode.Transport)),
            ("soap11", true, "Basic") => Basic(Sized(new BasicHttpsBinding(BasicHttpsSecurityMode.Transport))),
            ("soap12-wsa", false, "None") => Sized(new WSHttpBinding(SecurityMode.None) { ReliableSession = { Enabled = false } }),
            ("soap12-wsa", true, "UserName") => UserNameOverTransport(),
            ("msbin", false, "None") => BinaryOverHttp(),
            ("msbin-session", false, "None") => Sized(new NetTcpBinding(SecurityMode.None)),
            ("msbin-session", true, "None") => Sized(new NetTcpBinding(SecurityMode.Transport) { Security = { Transport = { ClientCredentialType = TcpClientCredentialType.None } } }),
            ("msbin-session", true, "Certificate") => Sized(new NetTcpBinding(SecurityMode.Transport) { Security = { Transport = { ClientCredentialType = TcpClientCredentialType.Certificate } } }),
            _ => throw Refused(variant),
        };
        binding.OpenTimeout = binding.SendTimeout = binding.ReceiveTimeout = binding.CloseTimeout = timeout;
        return binding;
    }

    private static ArgumentException Refused(string variant) => new(
        $"the wcf client cannot call {variant}: {Refusals.GetValueOrDefault(variant) ?? "it calls only the Metro SOAP and wcfbindings variants " + string.Join(", ", Callable.Order(StringComparer.Ordinal))}",
        nameof(variant));

    /// <summary>True when <paramref name="endpoint"/> is reached over TLS (<c>https://</c>, or net.tcp with Transport security).</summary>
    public static bool IsTls(HostEndpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        return endpoint.Address.StartsWith("https:", StringComparison.OrdinalIgnoreCase)
            || (endpoint.Address.StartsWith("net.tcp:", StringComparison.OrdinalIgnoreCase) && endpoint.SecurityMode == "Transport");
    }

    private static T Sized<T>(T binding)
        where T : Binding
    {
        switch (binding)
        {
            case BasicHttpBinding basic:
                basic.MaxReceivedMessageSize = MaxMessageBytes;
                basic.MaxBufferSize = (int)MaxMessageBytes;
                basic.ReaderQuotas = XmlDictionaryReaderQuotas.Max;
                break;
            case BasicHttpsBinding basic:
                basic.MaxReceivedMessageSize = MaxMessageBytes;
                basic.MaxBufferSize = (int)MaxMessageBytes;
                basic.ReaderQuotas = XmlDictionaryReaderQuotas.Max;
                break;
            case NetTcpBinding tcp:
                tcp.MaxReceivedMessageSize = MaxMessageBytes;
                tcp.MaxBufferSize = (int)MaxMessageBytes;
                tcp.ReaderQuotas = XmlDictionaryReaderQuotas.Max;
                break;
            case WSHttpBinding ws:
                ws.MaxReceivedMessageSize = MaxMessageBytes;
                ws.ReaderQuotas = XmlDictionaryReaderQuotas.Max;
                break;
        }

        return binding;
    }

    private static BasicHttpBinding Basic(BasicHttpBinding binding)
    {
        binding.Security.Transport.ClientCredentialType = HttpClientCredentialType.Basic;
        return binding;
    }

    private static BasicHttpsBinding Basic(BasicHttpsBinding binding)
    {
        binding.Security.Transport.ClientCredentialType = HttpClientCredentialType.Basic;
        return binding;
    }

    private static CustomBinding BinaryOverHttp() => new(
        new BinaryMessageEncodingBindingElement { ReaderQuotas = XmlDictionaryReaderQuotas.Max },
        new HttpTransportBindingElement { MaxReceivedMessageSize = MaxMessageBytes, MaxBufferSize = (int)MaxMessageBytes });

    private static CustomBinding UserNameOverTransport()
    {
        var security = SecurityBindingElement.CreateUserNameOverTransportBindingElement();
        security.EnableUnsecuredResponse = true;
        security.MessageSecurityVersion = MessageSecurityVersion.WSSecurity10WSTrustFebruary2005WSSecureConversationFebruary2005WSSecurityPolicy11BasicSecurityProfile10;
        var encoding = new TextMessageEncodingBindingElement(MessageVersion.Soap12WSAddressing10, System.Text.Encoding.UTF8)
        {
            ReaderQuotas = XmlDictionaryReaderQuotas.Max,
        };
        var transport = new HttpsTransportBindingElement { MaxReceivedMessageSize = MaxMessageBytes, MaxBufferSize = (int)MaxMessageBytes };
        return new CustomBinding(security, encoding, transport);
    }
}
