package io.netty.handler.ssl;

import javax.net.ssl.SSLContext;

/**
 * ALPN for Netty's JDK TLS provider on Java 9+, which Debian's Netty 4.1.48 build lacks: Debian removed
 * {@code JdkAlpnApplicationProtocolNegotiator} (it also carried the Jetty ALPN agent support), so any context asking for
 * ALPN throws "JDK provider does not support ALPN protocol", and gRPC over TLS needs ALPN "h2". Netty's own
 * {@link Java9SslEngine} (still in the jar) does ALPN with the JDK's {@code SSLEngine} API; this builds the negotiator
 * the removed class would have built around it, and a client context with it. In Netty's package because the
 * constructors it needs are package-private. Used only by the java driver's gRPC client (dashboard.driver.GrpcClients).
 */
public final class DebianJdkAlpn {
    private DebianJdkAlpn() {
    }

    /**
     * A Netty client context over {@code context} (its key and trust managers: our CA only, our client certificate)
     * that offers {@code protocols} by ALPN and accepts what the server selects (gRPC then checks it is h2).
     */
    public static SslContext clientContext(SSLContext context, String[] tlsVersions, String... protocols) {
        JdkApplicationProtocolNegotiator negotiator = new JdkBaseApplicationProtocolNegotiator(
                (engine, applicationNegotiator, isServer) -> new Java9SslEngine(engine, applicationNegotiator, isServer),
                JdkBaseApplicationProtocolNegotiator.NO_FAIL_SELECTOR_FACTORY,
                JdkBaseApplicationProtocolNegotiator.NO_FAIL_SELECTION_LISTENER_FACTORY,
                protocols);
        return new JdkSslContext(context, true, null, IdentityCipherSuiteFilter.INSTANCE, negotiator, ClientAuth.NONE,
                tlsVersions, false);
    }
}
