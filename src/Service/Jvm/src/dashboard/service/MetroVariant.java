package dashboard.service;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import com.sun.xml.ws.api.fastinfoset.FastInfosetFeature;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.ws.Endpoint;
import javax.xml.ws.WebServiceFeature;
import javax.xml.ws.handler.Handler;
import javax.xml.ws.soap.AddressingFeature;
import javax.xml.ws.soap.SOAPBinding;

/**
 * A Metro (JAX-WS RI) variant on its own JDK HTTP server and port, at path /benchmark: HTTP or HTTPS (server.p12),
 * HTTP Basic against the credential profiles, WS-Security through {@link UsernameTokenHandler} and {@link ServerSecurityHandler} (docs/security.md).
 */
final class MetroVariant implements RunningVariant {
    static final String PATH = "/benchmark";
    /** Worker threads per variant: one per concurrent client of the thesis sweep (1..300). */
    static final int WORKERS = 300;
    private static final int BACKLOG = 1024;

    private final HttpServer server;
    private final Endpoint endpoint;
    private final ThreadPoolExecutor workers;
    private final HostEndpoint info;
    private final AtomicInteger closed = new AtomicInteger();

    private MetroVariant(HttpServer server, Endpoint endpoint, ThreadPoolExecutor workers, HostEndpoint info) {
        this.server = server;
        this.endpoint = endpoint;
        this.workers = workers;
        this.info = info;
    }

    static MetroVariant start(VariantKind kind, ServiceOptions options, SecurityMaterial security, int port) throws IOException {
        InetSocketAddress bindAddress = new InetSocketAddress(options.bind(), port);
        HttpServer server;
        if (kind.tls) {
            HttpsServer https = HttpsServer.create(bindAddress, BACKLOG);
            https.setHttpsConfigurator(new HttpsConfigurator(security.tls())); // no client certificate asked for
            server = https;
        } else {
            server = HttpServer.create(bindAddress, BACKLOG);
        }
        ThreadPoolExecutor workers = workerPool(kind.name());
        server.setExecutor(workers);
        Endpoint endpoint;
        try {
            HttpContext context = server.createContext(PATH);
            context.getFilters().add(RequestLimits.bodyFilter());
            if (kind.basic) {
                context.setAuthenticator(new ProfileAuthenticator(security));
            }
            endpoint = Endpoint.create(bindingId(kind), new BenchmarkService(), features(kind));
            if (kind.messageSecurity != VariantKind.MessageSecurity.NONE) {
                @SuppressWarnings("rawtypes")
                List<Handler> chain = new ArrayList<>(endpoint.getBinding().getHandlerChain());
                chain.add(kind.messageSecurity == VariantKind.MessageSecurity.X509
                        ? new ServerSecurityHandler(security, kind.soap12Addressing, maxConcurrentX509Calls())
                        : new UsernameTokenHandler(security.users(), kind.soap12Addressing));
                endpoint.getBinding().setHandlerChain(chain);
            }
            endpoint.publish(context);
            server.start();
        } catch (RuntimeException e) {
            server.stop(0);
            workers.shutdownNow();
            throw e;
        }
        int actualPort = server.getAddress().getPort();
        String address = (kind.tls ? "https://" : "http://") + options.advertiseInUrl() + ":" + actualPort + PATH;
        return new MetroVariant(server, endpoint, workers, kind.endpoint(address, address + "?wsdl"));
    }

    /** X.509 exchanges processed at once per endpoint: {@code -Ddashboard.maxConcurrentX509Calls}, default 4 per core. */
    private static int maxConcurrentX509Calls() {
        int value = Integer.getInteger("dashboard.maxConcurrentX509Calls", 4 * Runtime.getRuntime().availableProcessors());
        return Math.max(1, value);
    }

    private static String bindingId(VariantKind kind) {
        return kind.soap12Addressing ? SOAPBinding.SOAP12HTTP_BINDING : SOAPBinding.SOAP11HTTP_BINDING;
    }

    private static WebServiceFeature[] features(VariantKind kind) {
        if (kind.isIce()) {
            throw new IllegalArgumentException(kind + " is not a Metro variant");
        }
        if (kind.fastInfoset) {
            return new WebServiceFeature[] {new FastInfosetFeature(true)};
        }
        return kind.soap12Addressing
                ? new WebServiceFeature[] {new FastInfosetFeature(false), new AddressingFeature(true, true)}
                : new WebServiceFeature[] {new FastInfosetFeature(false)};
    }

    /**
     * HTTP Basic (RFC 7617) against the credential profiles: a request without credentials, or with a user or password
     * that is not a profile's, gets 401 with {@code WWW-Authenticate: Basic realm="dashboard"} before Metro sees it.
     * The metadata ({@code GET ?wsdl}, {@code GET ?xsd=N}) is served without credentials, as a self-hosted WCF service's
     * HTTP GET metadata is: a client with a wrong password then reads the contract and has each call refused (401, outcome
     * 4) instead of failing before its first call (docs/security.md).
     */
    private static final class ProfileAuthenticator extends BasicAuthenticator {
        private final SecurityMaterial security;

        ProfileAuthenticator(SecurityMaterial security) {
            super("dashboard", StandardCharsets.UTF_8);
            this.security = security;
        }

        @Override
        public Result authenticate(HttpExchange exchange) {
            String query = exchange.getRequestURI().getRawQuery();
            boolean metadata = "GET".equals(exchange.getRequestMethod()) && query != null
                    && (query.equalsIgnoreCase("wsdl") || query.toLowerCase(Locale.ROOT).startsWith("xsd="));
            return metadata ? new Success(new HttpPrincipal("metadata", getRealm())) : super.authenticate(exchange);
        }

        @Override
        public boolean checkCredentials(String user, String password) {
            return security.checkPassword(user, password);
        }
    }

    private static ThreadPoolExecutor workerPool(String name) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, name + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Override
    public HostEndpoint endpoint() {
        return info;
    }

    @Override
    public void close() {
        if (closed.getAndIncrement() != 0) {
            return;
        }
        try {
            endpoint.stop();
        } finally {
            server.stop(0);
            workers.shutdownNow();
        }
    }
}
