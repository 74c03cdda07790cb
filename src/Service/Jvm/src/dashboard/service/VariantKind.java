package dashboard.service;

import dashboard.common.Catalogue;
import java.util.List;
import java.util.Optional;

/**
 * A variant this JVM can serve: a metro or ice variant of the catalogue (dashboard.common.Catalogue,
 * docs/service-contract.md), with how it is built (docs/security.md) read from the catalogue's keys: TLS, the
 * credential type, the codec. Nothing here names a variant.
 */
final class VariantKind {
    /** WS-Security in the SOAP header, checked by {@link UsernameTokenHandler} or {@link ServerSecurityHandler}. */
    enum MessageSecurity {
        NONE, USERNAME_TOKEN, X509
    }

    private final Catalogue.Variant variant;
    /** TLS with server.p12 (HTTPS or IceSSL). */
    final boolean tls;
    /** HTTP Basic checked against credentials.json. */
    final boolean basic;
    /** SOAP 1.2 with WS-Addressing required. */
    final boolean soap12Addressing;
    /** SOAP 1.1 with the FastInfoset encoding. */
    final boolean fastInfoset;
    final MessageSecurity messageSecurity;

    private VariantKind(Catalogue.Variant variant) {
        this.variant = variant;
        this.tls = variant.tls();
        this.basic = "Basic".equals(variant.credentialType());
        this.soap12Addressing = "soap12-wsa".equals(variant.codec());
        this.fastInfoset = "soap11-fastinfoset".equals(variant.codec());
        this.messageSecurity = "UserName".equals(variant.credentialType()) ? MessageSecurity.USERNAME_TOKEN
                : "Message".equals(variant.securityMode()) && "Certificate".equals(variant.credentialType()) ? MessageSecurity.X509
                : MessageSecurity.NONE;
    }

    /** The catalogue's metro and ice variants, in catalogue order. */
    static List<VariantKind> values() {
        return Catalogue.variants().stream().filter(v -> v.available() && ("metro".equals(v.stack()) || "ice".equals(v.stack())))
                .map(VariantKind::new).toList();
    }

    static Optional<VariantKind> parse(String name) {
        return values().stream().filter(v -> v.name().equals(name)).findFirst();
    }

    String name() {
        return variant.name();
    }

    /** True when the variant needs the security material (--security-dir). */
    boolean isSecure() {
        return variant.isSecure();
    }

    boolean isIce() {
        return "ice".equals(variant.stack());
    }

    HostEndpoint endpoint(String address, String wsdl) {
        return new HostEndpoint(variant.name(), variant.stack(), address, variant.transport(), variant.encoding(),
                variant.securityMode(), variant.credentialType(), wsdl);
    }

    @Override
    public String toString() {
        return variant.name();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VariantKind k && k.name().equals(name());
    }

    @Override
    public int hashCode() {
        return name().hashCode();
    }
}
