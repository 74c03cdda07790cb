package dashboard.driver;

import dashboard.common.Catalogue;
import dashboard.driver.grpc.BenchmarkGrpc;
import dashboard.driver.grpc.BenchmarkGrpc.BenchmarkBlockingStub;
import dashboard.driver.grpc.Empty;
import dashboard.security.KeyMaterial;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.DebianJdkAlpn;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * gRPC variants ({@code AspNetGrpc}, {@code AspNetGrpcTls}) through the stub protoc's grpc-java plugin generates from
 * the one benchmark.proto: Debian's gRPC for Java 1.41 on its Netty transport (Debian ships grpc-netty and Netty 4.1,
 * not grpc-okhttp). One {@link ManagedChannel} per client, so one HTTP/2 connection each; the channels share one NIO
 * event loop group (2 threads), as the channels of one process share gRPC's default group. Wire bytes: each client's
 * channel is a {@link CountingSocketChannel}, counting at the socket (below TLS). AspNetGrpcTls: a JDK TLS context that
 * trusts only the job's CA (ALPN h2 through {@link DebianJdkAlpn}), the host name checked (grpc-netty sets endpoint
 * identification HTTPS on the engine), the client
 * certificate of {@code credentials.certificate} presented (without it the service answers Unauthenticated: outcome 4).
 */
final class GrpcClients implements ClientFactory {
    private final String host;
    private final int port;
    private final SslContext tls;
    private final int timeoutMs;
    private final Payload.Call<BenchmarkBlockingStub> call;
    private final NioEventLoopGroup group = new NioEventLoopGroup(2);

    GrpcClients(Job job, Payload payload) {
        Catalogue.Variant variant = Catalogue.variant(job.variant()).filter(v -> "protobuf".equals(v.codec()))
                .orElseThrow(() -> new IllegalArgumentException("the java driver does not call variant '" + job.variant() + "'"));
        boolean secure = variant.tls();
        URI uri = URI.create(job.address());
        if (uri.getHost() == null || uri.getPort() <= 0) {
            throw new IllegalArgumentException("the endpoint address must be http(s)://host:port/, got '" + job.address() + "'");
        }
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.timeoutMs = job.timeoutMs();
        this.call = GrpcCalls.of(payload);
        this.tls = secure ? tlsContext(job) : null;
    }

    /**
     * A JDK TLS context trusting only the job's CA (PKIX) and presenting the job's client certificate, wrapped for Netty
     * with ALPN h2 ({@link io.netty.handler.ssl.DebianJdkAlpn}: Debian's Netty lacks the JDK ALPN negotiator).
     */
    private static SslContext tlsContext(Job job) {
        String ca = job.requireCaCertificate();
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
            trust.init(KeyMaterial.trustStore(KeyMaterial.readCertificates(Path.of(ca))));
            KeyManager[] keys = null;
            Job.Credentials c = job.credentials();
            if (c != null && c.certificate() != null && c.password() != null) {
                char[] password = c.password().toCharArray();
                KeyMaterial.KeyEntry key = KeyMaterial.readKeyEntry(Path.of(c.certificate()), password, "client");
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(KeyMaterial.keyStore(key, password), password);
                keys = factory.getKeyManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust.getTrustManagers(), null);
            return DebianJdkAlpn.clientContext(context, new String[] {"TLSv1.3", "TLSv1.2"}, "h2");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the TLS context: " + Failures.describe(e), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public BenchmarkClient create(int index) {
        CountingSocketChannel.Counts counts = new CountingSocketChannel.Counts();
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port)
                .eventLoopGroup(group)
                .channelFactory(() -> new CountingSocketChannel(counts))
                .maxInboundMessageSize(64 * 1024 * 1024)
                // A fixed window as the host's (4 MiB): this also turns off gRPC for Java's flow-control auto-tuning, whose
                // BDP PING frames (17 bytes each way) would otherwise ride along with calls and be counted as their bytes.
                .flowControlWindow(4 * 1024 * 1024)
                .disableRetry() // a failed request is a sample, not a silent retry
                .userAgent("dashboard-java-driver");
        if (tls == null) {
            builder.usePlaintext();
        } else {
            builder.sslContext(tls);
        }
        return new GrpcClient(builder.build(), counts);
    }

    @Override
    public int classify(Throwable t) {
        if (!(t instanceof StatusRuntimeException e)) {
            return Outcome.OTHER;
        }
        Status.Code code = e.getStatus().getCode();
        return switch (code) {
            case UNAUTHENTICATED, PERMISSION_DENIED -> Outcome.AUTHENTICATION;
            case DEADLINE_EXCEEDED -> Outcome.TIMEOUT;
            case UNAVAILABLE -> MetroClients.isCertificateRefusal(t) ? Outcome.AUTHENTICATION : Outcome.CONNECTION;
            default -> Outcome.FAULT;
        };
    }

    @Override
    public String library() {
        return "gRPC for Java " + io.grpc.internal.GrpcUtil.getGrpcBuildVersion().getImplementationVersion() + " (Netty)";
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    private final class GrpcClient implements BenchmarkClient {
        private final ManagedChannel channel;
        private final BenchmarkBlockingStub stub;
        private final CountingSocketChannel.Counts counts;

        GrpcClient(ManagedChannel channel, CountingSocketChannel.Counts counts) {
            this.channel = channel;
            this.stub = BenchmarkGrpc.newBlockingStub(channel);
            this.counts = counts;
        }

        /**
         * Opens the channel's connection with one EmptyMethod call (not recorded), as the dotnet and node drivers probe.
         * Its deadline is at least a minute: a cold JVM's first TLS handshake (Netty and JSSE loading, RSA) took more than
         * 8 s on a loaded 2-core machine; a refused connection still fails at once (UNAVAILABLE).
         */
        @Override
        public void connect() {
            stub.withDeadlineAfter(Math.max(timeoutMs, 60_000), TimeUnit.MILLISECONDS).emptyMethod(Empty.getDefaultInstance());
        }

        @Override
        public void invoke() throws Exception {
            call.invoke(stub.withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS));
        }

        @Override
        public long sentBytes() {
            return counts.sent.get();
        }

        @Override
        public long receivedBytes() {
            return counts.received.get();
        }

        @Override
        public void close() {
            channel.shutdownNow();
        }
    }
}
