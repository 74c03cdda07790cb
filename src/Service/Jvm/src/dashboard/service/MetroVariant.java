package dashboard.service;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import com.sun.xml.ws.api.fastinfoset.FastInfosetFeature;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.ws.Endpoint;
import javax.xml.ws.WebServiceFeature;
import javax.xml.ws.soap.AddressingFeature;
import javax.xml.ws.soap.SOAPBinding;

/** A Metro (JAX-WS RI) variant on its own JDK HTTP server and port, at path /benchmark. */
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

    static MetroVariant start(VariantKind kind, ServiceOptions options, int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(options.bind(), port), BACKLOG);
        ThreadPoolExecutor workers = workerPool(kind.name());
        server.setExecutor(workers);
        Endpoint endpoint;
        try {
            HttpContext context = server.createContext(PATH);
            context.getFilters().add(RequestLimits.bodyFilter());
            endpoint = Endpoint.create(bindingId(kind), new BenchmarkService(), features(kind));
            endpoint.publish(context);
            server.start();
        } catch (RuntimeException e) {
            server.stop(0);
            workers.shutdownNow();
            throw e;
        }
        int actualPort = server.getAddress().getPort();
        String address = "http://" + options.advertiseInUrl() + ":" + actualPort + PATH;
        return new MetroVariant(server, endpoint, workers, kind.endpoint(address, address + "?wsdl"));
    }

    private static String bindingId(VariantKind kind) {
        return kind == VariantKind.MetroSoap12Wsa ? SOAPBinding.SOAP12HTTP_BINDING : SOAPBinding.SOAP11HTTP_BINDING;
    }

    private static WebServiceFeature[] features(VariantKind kind) {
        return switch (kind) {
            case MetroSoap11 -> new WebServiceFeature[] {new FastInfosetFeature(false)};
            case MetroSoap11FastInfoset -> new WebServiceFeature[] {new FastInfosetFeature(true)};
            case MetroSoap12Wsa -> new WebServiceFeature[] {new FastInfosetFeature(false), new AddressingFeature(true, true)};
            default -> throw new IllegalArgumentException(kind + " is not a Metro variant");
        };
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
