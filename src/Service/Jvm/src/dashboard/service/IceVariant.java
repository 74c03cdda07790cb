package dashboard.service;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.EndpointInfo;
import com.zeroc.Ice.IPEndpointInfo;
import com.zeroc.Ice.InitializationData;
import com.zeroc.Ice.ObjectAdapter;
import com.zeroc.Ice.Properties;
import com.zeroc.Ice.Util;
import com.zeroc.IceSSL.Plugin;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The IceTcp and IceSsl variants: one communicator, one adapter, one stateless servant under identity "benchmark".
 * IceSsl: the IceSSL plug-in with the TLS context of server.p12; no client certificate is asked for
 * ({@code IceSSL.VerifyPeer=0}), clients check the server's certificate against the local CA.
 */
final class IceVariant implements RunningVariant {
    static final String IDENTITY = "benchmark";

    private final Communicator communicator;
    private final HostEndpoint info;
    private final AtomicInteger closed = new AtomicInteger();

    private IceVariant(Communicator communicator, HostEndpoint info) {
        this.communicator = communicator;
        this.info = info;
    }

    static IceVariant start(VariantKind kind, ServiceOptions options, SecurityMaterial security, int port) {
        InitializationData init = new InitializationData();
        init.properties = properties();
        String protocol = kind.tls ? "ssl" : "tcp";
        if (kind.tls) {
            init.properties.setProperty("Ice.Plugin.IceSSL", "com.zeroc.IceSSL.PluginFactory");
            init.properties.setProperty("Ice.InitPlugins", "0"); // the TLS context is set before the plug-in starts
            init.properties.setProperty("IceSSL.VerifyPeer", "0");
        }
        Communicator communicator = Util.initialize(init);
        try {
            if (kind.tls) {
                Plugin ssl = (Plugin) communicator.getPluginManager().getPlugin("IceSSL");
                ssl.setContext(security.tls());
                communicator.getPluginManager().initializePlugins();
            }
            ObjectAdapter adapter = communicator.createObjectAdapterWithEndpoints("Benchmark",
                    protocol + " -h " + options.bind() + " -p " + port);
            adapter.add(new IceBenchmarkServant(), Util.stringToIdentity(IDENTITY));
            adapter.activate();
            int actualPort = listeningPort(adapter);
            String proxy = IDENTITY + ":" + protocol + " -h " + options.advertise() + " -p " + actualPort;
            return new IceVariant(communicator, kind.endpoint(proxy, null));
        } catch (RuntimeException e) {
            communicator.destroy();
            throw e;
        }
    }

    private static Properties properties() {
        Properties p = Util.createProperties();
        // Dispatch threads: start small (2 cores here), grow up to one per client of the thesis sweep.
        p.setProperty("Ice.ThreadPool.Server.Size", "4");
        p.setProperty("Ice.ThreadPool.Server.SizeMax", "300");
        p.setProperty("Ice.ThreadPool.Server.SizeWarn", "0");
        // KB; Bytes256K and 1000-element arrays need more than the 1 MB default leaves for headroom.
        p.setProperty("Ice.MessageSizeMax", "65536");
        // Keep idle client connections between levels; no heartbeats on the wire during a measurement.
        p.setProperty("Ice.ACM.Server.Close", "0");
        p.setProperty("Ice.ACM.Server.Heartbeat", "0");
        p.setProperty("Ice.Warn.Connections", "0");
        // Slice module Bench is generated into Java package dashboard.slice: tell Ice where its classes live.
        p.setProperty("Ice.Package.Bench", "dashboard.slice");
        return p;
    }

    private static int listeningPort(ObjectAdapter adapter) {
        for (com.zeroc.Ice.Endpoint e : adapter.getEndpoints()) {
            for (EndpointInfo i = e.getInfo(); i != null; i = i.underlying) {
                if (i instanceof IPEndpointInfo ip) {
                    return ip.port;
                }
            }
        }
        throw new IllegalStateException("the Ice adapter has no IP endpoint");
    }

    @Override
    public HostEndpoint endpoint() {
        return info;
    }

    @Override
    public void close() {
        if (closed.getAndIncrement() == 0) {
            communicator.destroy();
        }
    }
}
