package dashboard.driver;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.Connection;
import com.zeroc.Ice.ConnectionClose;
import com.zeroc.Ice.InitializationData;
import com.zeroc.Ice.LocalException;
import com.zeroc.Ice.ObjectPrx;
import com.zeroc.Ice.Properties;
import com.zeroc.Ice.Util;
import com.zeroc.IceSSL.Plugin;
import dashboard.common.Catalogue;
import dashboard.security.KeyMaterial;
import dashboard.slice.Bench.BenchmarkServicePrx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

/**
 * Ice variants through Slice-generated proxies: one communicator per driver process, one connection per client
 * (ice_connectionId "c{index}"), wire bytes from the communicator's connection observer (Ice protocol bytes; under
 * IceSSL the plaintext inside the TLS records). IceSsl: the IceSSL plug-in with a TLS context that trusts only the job's
 * CA, the server's certificate name checked against the proxy's host.
 */
final class IceClients implements ClientFactory {
    private final Communicator communicator;
    private final IceByteCounter counter = new IceByteCounter();
    private final ObjectPrx base;
    private final Payload.Call<BenchmarkServicePrx> call;
    private final int timeoutMs;
    private int generation;

    IceClients(Job job, Payload payload) {
        Catalogue.Variant variant = Catalogue.variant(job.variant()).filter(v -> "ice".equals(v.codec()))
                .orElseThrow(() -> new IllegalArgumentException("the java driver does not call variant '" + job.variant() + "'"));
        boolean ssl = variant.tls();
        this.call = IceCalls.of(payload);
        this.timeoutMs = job.timeoutMs();
        SSLContext tls = ssl ? tlsContext(job.requireCaCertificate()) : null;
        InitializationData init = new InitializationData();
        init.properties = properties(job.timeoutMs());
        if (ssl) {
            init.properties.setProperty("Ice.Plugin.IceSSL", "com.zeroc.IceSSL.PluginFactory");
            init.properties.setProperty("Ice.InitPlugins", "0"); // the TLS context is set before the plug-in starts
            init.properties.setProperty("IceSSL.VerifyPeer", "2"); // the server's certificate must verify
            init.properties.setProperty("IceSSL.CheckCertName", "1"); // and name the host of the proxy's endpoint
        }
        init.observer = counter;
        this.communicator = Util.initialize(init);
        try {
            if (ssl) {
                ((Plugin) communicator.getPluginManager().getPlugin("IceSSL")).setContext(tls);
                communicator.getPluginManager().initializePlugins();
            }
            this.base = communicator.stringToProxy(job.address());
        } catch (RuntimeException e) {
            communicator.destroy();
            throw new IllegalArgumentException("bad Ice proxy '" + job.address() + "': " + Failures.describe(e));
        }
    }

    /** A TLS client context trusting only the job's CA (IceSSL checks the host name itself: CheckCertName). */
    private static SSLContext tlsContext(String caCertificate) {
        try {
            return KeyMaterial.clientContext(KeyMaterial.readCertificates(Path.of(caCertificate)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties properties(int timeoutMs) {
        Properties p = Util.createProperties();
        p.setProperty("Ice.MessageSizeMax", "65536"); // KB
        p.setProperty("Ice.Override.ConnectTimeout", Integer.toString(timeoutMs));
        p.setProperty("Ice.ACM.Client.Close", "0"); // keep idle connections between levels
        p.setProperty("Ice.ACM.Client.Heartbeat", "0"); // no heartbeat bytes inside a measurement
        p.setProperty("Ice.ThreadPool.Client.Size", "2");
        p.setProperty("Ice.ThreadPool.Client.SizeMax", "4");
        p.setProperty("Ice.Warn.Connections", "0");
        // Slice module Bench is generated into Java package dashboard.slice: tell Ice where its classes live.
        p.setProperty("Ice.Package.Bench", "dashboard.slice");
        p.setProperty("Ice.RetryIntervals", "-1"); // a failed request is a sample, not a silent retry
        return p;
    }

    @Override
    public synchronized BenchmarkClient create(int index) {
        // a replaced client (abandoned on cancel) gets a fresh connection id, so a new connection
        String id = "c" + index + (generation++ == 0 ? "" : "-" + generation);
        BenchmarkServicePrx prx = BenchmarkServicePrx.uncheckedCast(
                base.ice_connectionId(id).ice_invocationTimeout(timeoutMs));
        return new IceClient(prx, counter.totals(id));
    }

    @Override
    public int classify(Throwable t) {
        if (t instanceof com.zeroc.Ice.SecurityException) {
            return Outcome.AUTHENTICATION; // IceSSL refused the handshake: the server's certificate did not verify
        }
        if (t instanceof com.zeroc.Ice.InvocationTimeoutException || t instanceof com.zeroc.Ice.TimeoutException) {
            return Outcome.TIMEOUT;
        }
        if (t instanceof com.zeroc.Ice.SocketException || t instanceof com.zeroc.Ice.ConnectFailedException
                || t instanceof com.zeroc.Ice.CloseConnectionException
                || t instanceof com.zeroc.Ice.ConnectionManuallyClosedException
                || t instanceof com.zeroc.Ice.CommunicatorDestroyedException
                || t instanceof com.zeroc.Ice.DNSException) {
            return Outcome.CONNECTION;
        }
        if (t instanceof com.zeroc.Ice.UnknownException || t instanceof com.zeroc.Ice.UserException
                || t instanceof com.zeroc.Ice.RequestFailedException || t instanceof com.zeroc.Ice.ProtocolException) {
            return Outcome.FAULT;
        }
        return Outcome.OTHER;
    }

    @Override
    public String library() {
        return "ZeroC Ice " + Util.stringVersion();
    }

    @Override
    public void close() {
        communicator.destroy();
    }

    private final class IceClient implements BenchmarkClient {
        private final BenchmarkServicePrx prx;
        private final IceByteCounter.Totals totals;

        IceClient(BenchmarkServicePrx prx, IceByteCounter.Totals totals) {
            this.prx = prx;
            this.totals = totals;
        }

        @Override
        public void connect() {
            prx.ice_getConnection();
        }

        @Override
        public void invoke() throws Exception {
            call.invoke(prx);
        }

        @Override
        public long sentBytes() {
            return totals.sent.get();
        }

        @Override
        public long receivedBytes() {
            return totals.received.get();
        }

        @Override
        public void close() {
            try {
                Connection c = prx.ice_getCachedConnection();
                if (c != null) {
                    c.close(ConnectionClose.Forcefully);
                }
            } catch (LocalException e) {
                // already closed or the communicator is gone
            }
        }
    }
}
