package dashboard.service;

import dashboard.common.Json;
import dashboard.common.Versions;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * The JVM service process (docs/jvm-service.md): serves the requested Metro and Ice variants, writes one
 * {@code ready} line (or {@code fail} and exits 1), and stops on end of standard input, SIGTERM or SIGINT.
 */
public final class ServiceMain {
    /** The body of the {@code ready} line: the variants served and the versions loaded (name → version). */
    private record Ready(List<HostEndpoint> endpoints, Map<String, String> versions) {
    }

    /** The body of the {@code fail} line. */
    private record Fail(String message) {
    }

    private ServiceMain() {
    }

    public static void main(String[] args) {
        defaultProperty("sun.net.httpserver.nodelay", "true");
        defaultProperty("com.sun.xml.ws.monitoring.endpoint", "false");
        // The JDK HTTP server closes keep-alive connections beyond this many idle ones (default 200).
        defaultProperty("sun.net.httpserver.maxIdleConnections", "1000");
        RequestLimits.applyDefaults();
        // SOAP faults carry no Java stack trace (the RI adds one to every fault's detail by default).
        defaultProperty("com.sun.xml.ws.fault.SOAPFaultBuilder.disableCaptureStackTrace", "true");
        // Name SAAJ's factory: the deprecated lookup it would use otherwise logs a warning for every new factory.
        defaultProperty("javax.xml.soap.SAAJMetaFactory", "com.sun.xml.messaging.saaj.soap.SAAJMetaFactoryImpl");
        // ... and closes a keep-alive connection idle for longer than this (default 30 s): at 300 clients a closed-loop
        // client may take longer than that between two calls (reading a 450 KB reply on a busy load generator), and its
        // next call then fails as a connection error (issue 14 stress run).
        defaultProperty("sun.net.httpserver.idleInterval", "300");

        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // nothing but the ready/fail line may reach standard output

        ServiceOptions options;
        try {
            options = ServiceOptions.parse(args);
        } catch (IllegalArgumentException e) {
            fail(protocol, e.getMessage(), 2);
            return;
        }

        SecurityMaterial security = null;
        if (options.ports().keySet().stream().anyMatch(VariantKind::isSecure)) {
            try {
                security = SecurityMaterial.read(options.securityDirectory());
                Log.info("security material from " + options.securityDirectory() + " (" + security.users().size() + " user(s))");
            } catch (IOException | RuntimeException e) {
                fail(protocol, "cannot read the security material in " + options.securityDirectory() + ": " + describe(e), 1);
                return;
            }
        }

        List<RunningVariant> running = new ArrayList<>();
        for (Map.Entry<VariantKind, Integer> entry : options.ports().entrySet()) {
            try {
                running.add(start(entry.getKey(), options, security, entry.getValue()));
                Log.info(entry.getKey() + " listens at " + running.get(running.size() - 1).endpoint().address());
            } catch (Exception e) {
                closeAll(running);
                fail(protocol, entry.getKey() + " cannot start on " + options.bind() + ":" + entry.getValue() + ": " + describe(e), 1);
                return;
            }
        }

        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        Thread stdin = new Thread(() -> {
            drain(System.in);
            stop.countDown();
        }, "stdin-watch");
        stdin.setDaemon(true);
        stdin.start();

        protocol.println(Json.record("ready", new Ready(running.stream().map(RunningVariant::endpoint).toList(), versions())));

        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Log.info("stopping");
        closeAll(running);
        Log.info("stopped");
        System.exit(0);
    }

    /**
     * The versions of this service's stacks as loaded (docs/statistics.md, "Environment"): the JVM, Metro (the JAX-WS
     * RI, with JAXB and FastInfoset under it), WSS4J for WS-Security, ZeroC Ice (its own
     * {@code Util.stringVersion()}) and Gson.
     */
    static Map<String, String> versions() {
        Map<String, String> v = Versions.ordered();
        v.put("Java", Versions.jvm());
        v.put("Metro (JAX-WS RI)", Versions.ofClass("com.sun.xml.ws.api.WSService"));
        v.put("JAXB RI", Versions.ofClass("com.sun.xml.bind.v2.ContextFactory"));
        v.put("FastInfoset", Versions.ofClass("com.sun.xml.fastinfoset.Encoder"));
        v.put("WSS4J", Versions.ofClass("org.apache.ws.security.WSConstants"));
        v.put("ZeroC Ice", com.zeroc.Ice.Util.stringVersion());
        v.put("Gson", Versions.ofClass("com.google.gson.Gson"));
        return v;
    }

    private static RunningVariant start(VariantKind kind, ServiceOptions options, SecurityMaterial security, int port)
            throws IOException {
        return kind.isIce() ? IceVariant.start(kind, options, security, port) : MetroVariant.start(kind, options, security, port);
    }

    private static void closeAll(List<RunningVariant> running) {
        for (int i = running.size() - 1; i >= 0; i--) {
            try {
                running.get(i).close();
            } catch (RuntimeException e) {
                Log.info("closing " + running.get(i).endpoint().name() + " failed: " + describe(e));
            }
        }
    }

    private static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // input is ignored; its end means "stop"
            }
        } catch (IOException e) {
            Log.info("standard input failed (" + e.getMessage() + "); stopping");
        }
    }

    private static void fail(PrintStream protocol, String message, int exitCode) {
        Log.info(message);
        protocol.println(Json.record("fail", new Fail(message)));
        System.exit(exitCode);
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return root == e ? message : e.getClass().getSimpleName() + " (" + message + ")";
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
