package dashboard.service;

import java.util.Arrays;
import java.util.Optional;

/**
 * The variants this JVM can serve, with the catalogue's transport, encoding, security mode and client credential type
 * (VariantCatalogue.cs, docs/service-contract.md) and how each is built (docs/security.md).
 */
enum VariantKind {
    MetroSoap11("metro", "HTTP/1.1", "SOAP 1.1 text XML", "None", "None", false, false, false, MessageSecurity.NONE),
    MetroSoap11Basic("metro", "HTTP/1.1", "SOAP 1.1 text XML", "TransportCredentialOnly", "Basic", false, true, false, MessageSecurity.NONE),
    MetroSoap11Https("metro", "HTTP/1.1 over TLS", "SOAP 1.1 text XML", "Transport", "None", true, false, false, MessageSecurity.NONE),
    MetroSoap11HttpsBasic("metro", "HTTP/1.1 over TLS", "SOAP 1.1 text XML", "Transport", "Basic", true, true, false, MessageSecurity.NONE),
    MetroSoap11FastInfoset("metro", "HTTP/1.1", "SOAP 1.1 FastInfoset (binary XML)", "None", "None", false, false, false, MessageSecurity.NONE),
    MetroSoap12Wsa("metro", "HTTP/1.1", "SOAP 1.2 + WS-Addressing, text XML", "None", "None", false, false, true, MessageSecurity.NONE),
    MetroSoap12WsaUserNameHttps("metro", "HTTP/1.1 over TLS", "SOAP 1.2 + WS-Addressing + WS-Security UsernameToken",
            "TransportWithMessageCredential", "UserName", true, false, true, MessageSecurity.USERNAME_TOKEN),
    MetroSoap12WsaX509("metro", "HTTP/1.1", "SOAP 1.2 + WS-Addressing + WS-Security X.509 sign + encrypt", "Message", "Certificate",
            false, false, true, MessageSecurity.X509),
    IceTcp("ice", "Ice protocol over TCP", "Ice binary encoding 1.1", "None", "None", false, false, false, MessageSecurity.NONE),
    IceSsl("ice", "Ice protocol over TLS (IceSSL)", "Ice binary encoding 1.1", "Transport", "None", true, false, false, MessageSecurity.NONE);

    /** WS-Security in the SOAP header, checked by {@link UsernameTokenHandler} or {@link ServerSecurityHandler}. */
    enum MessageSecurity {
        NONE, USERNAME_TOKEN, X509
    }

    final String stack;
    final String transport;
    final String encoding;
    final String securityMode;
    final String credentialType;
    /** TLS with server.p12 (HTTPS or IceSSL). */
    final boolean tls;
    /** HTTP Basic checked against credentials.json. */
    final boolean basic;
    /** SOAP 1.2 with WS-Addressing required. */
    final boolean soap12Addressing;
    final MessageSecurity messageSecurity;

    VariantKind(String stack, String transport, String encoding, String securityMode, String credentialType, boolean tls,
            boolean basic, boolean soap12Addressing, MessageSecurity messageSecurity) {
        this.stack = stack;
        this.transport = transport;
        this.encoding = encoding;
        this.securityMode = securityMode;
        this.credentialType = credentialType;
        this.tls = tls;
        this.basic = basic;
        this.soap12Addressing = soap12Addressing;
        this.messageSecurity = messageSecurity;
    }

    static Optional<VariantKind> parse(String name) {
        return Arrays.stream(values()).filter(v -> v.name().equals(name)).findFirst();
    }

    /** True when the variant needs the security material (--security-dir). */
    boolean isSecure() {
        return !"None".equals(securityMode);
    }

    boolean isIce() {
        return "ice".equals(stack);
    }

    HostEndpoint endpoint(String address, String wsdl) {
        return new HostEndpoint(name(), stack, address, transport, encoding, securityMode, credentialType, wsdl);
    }
}
