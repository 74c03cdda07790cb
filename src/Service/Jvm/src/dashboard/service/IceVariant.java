package dashboard.service;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.EndpointInfo;
import com.zeroc.Ice.IPEndpointInfo;
import com.zeroc.Ice.InitializationData;
import com.zeroc.Ice.ObjectAdapter;
import com.zeroc.Ice.Properties;
import com.zeroc.Ice.Util;
import java.util.concurrent.atomic.AtomicInteger;

/** The IceTcp variant: one communicator, one adapter, one stateless servant under identity "benchmark". */
final class IceVariant implements RunningVariant {
    static final String IDENTITY = "benchmark";

    private final Communicator communicator;
    private final HostEndpoint info;
    private final AtomicInteger closed = new AtomicInteger();

    private IceVariant(Communicator communicator, HostEndpoint info) {
        this.communicator = communicator;
        this.info = info;
    }

    static IceVariant start(ServiceOptions options, int port) {
        InitializationData init = new InitializationData();
        init.properties = properties();
        Communicator communicator = Util.initialize(init);
        try {
            ObjectAdapter adapter = communicator.createObjectAdapterWithEndpoints("Benchmark",
                    "tcp -h " + options.bind() + " -p " + port);
            adapter.add(new IceBenchmarkServant(), Util.stringToIdentity(IDENTITY));
            adapter.activate();
            int actualPort = listeningPort(adapter);
            String proxy = IDENTITY + ":tcp -h " + options.advertise() + " -p " + actualPort;
            return new IceVariant(communicator, VariantKind.IceTcp.endpoint(proxy, null));
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
        // KB; the host's request size limit (RequestLimits): a larger message closes the connection.
        p.setProperty("Ice.MessageSizeMax", RequestLimits.iceMessageSizeMaxKb());
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
        throw new IllegalStateException("the Ice adapter has no TCP endpoint");
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
