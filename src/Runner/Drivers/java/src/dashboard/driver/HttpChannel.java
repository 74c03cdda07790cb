package dashboard.driver;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One client's own HTTP/1.1 connection, plain or over TLS (kept alive across requests), with byte counters at the TCP
 * socket: what the counters see is what crossed the socket (request line, headers, body, chunk framing; under TLS the
 * records that carry them). Used by one thread at a time.
 */
final class HttpChannel implements AutoCloseable {
    /** The channel of the client whose request runs on this thread (set around each call by the Metro client). */
    static final ThreadLocal<HttpChannel> CURRENT = new ThreadLocal<>();

    /** TLS socket factory (trusting the job's CA only) for https: addresses, else null. */
    private final SSLSocketFactory tls;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private String target = "";
    private long sent;
    private long received;
    /** True while a response body has not been read to its end; such a connection cannot carry another request. */
    private boolean responsePending;
    private int requestsOnSocket;
    /** Counts requests; a body stream may only complete the exchange it belongs to. */
    private long exchange;
    private InputStream pendingBody;
    /** The status code of the last response read on this channel, 0 before the first. */
    private int lastStatus;

    /** A plain HTTP channel. */
    HttpChannel() {
        this(null);
    }

    /** An HTTP channel over TLS when {@code tls} is not null. */
    HttpChannel(SSLSocketFactory tls) {
        this.tls = tls;
    }

    long sent() {
        return sent;
    }

    long received() {
        return received;
    }

    /**
     * Connects unless a usable connection to {@code host:port} is open; true when the connection is new. Over TLS the
     * handshake happens here (host name verified: {@code SSLParameters.setEndpointIdentificationAlgorithm("HTTPS")});
     * a refused certificate throws {@link javax.net.ssl.SSLHandshakeException}.
     */
    boolean open(String host, int port, int connectTimeoutMs, int readTimeoutMs) throws IOException {
        String wanted = host + ":" + port;
        if (socket != null && (responsePending || !wanted.equals(target) || socket.isClosed())) {
            close();
        }
        if (socket != null) {
            socket.setSoTimeout(readTimeoutMs);
            return false;
        }
        Socket s = new CountingSocket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            s.setSoTimeout(readTimeoutMs);
            if (tls != null) {
                SSLSocket secure = (SSLSocket) tls.createSocket(s, host, port, true);
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                secure.setSSLParameters(parameters);
                secure.startHandshake();
                s = secure;
            }
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        target = wanted;
        requestsOnSocket = 0;
        in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
        out = s.getOutputStream();
        return true;
    }

    /**
     * A TCP socket whose streams count the bytes that cross it. Under TLS the SSLSocket layered on it reads and writes
     * through these streams, so the counts are TLS records (handshake, record headers, MACs), not plaintext.
     */
    private final class CountingSocket extends Socket {
        private InputStream countedIn;
        private OutputStream countedOut;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (countedIn == null) {
                countedIn = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        if (b >= 0) {
                            received++;
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        int n = super.read(buffer, offset, length);
                        if (n > 0) {
                            received += n;
                        }
                        return n;
                    }
                };
            }
            return countedIn;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (countedOut == null) {
                countedOut = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(byte[] buffer, int offset, int length) throws IOException {
                        super.out.write(buffer, offset, length);
                        sent += length;
                    }

                    @Override
                    public void write(int b) throws IOException {
                        super.out.write(b);
                        sent++;
                    }
                };
            }
            return countedOut;
        }
    }

    InputStream input() {
        return in;
    }

    OutputStream output() {
        return out;
    }

    int requestsOnSocket() {
        return requestsOnSocket;
    }

    /** The HTTP status of the last response (0 if none since the last request): 401/403 are authentication refusals. */
    int lastStatus() {
        return lastStatus;
    }

    void responseStatus(int status) {
        lastStatus = status;
    }

    /** Marks a request as written; returns its exchange number. */
    long requestSent() {
        lastStatus = 0;
        requestsOnSocket++;
        responsePending = true;
        pendingBody = null;
        return ++exchange;
    }

    /** The body stream of the current exchange, so {@link #finishPending()} can read it to its end. */
    void responseBody(long id, InputStream body) {
        if (id == exchange) {
            pendingBody = body;
        }
    }

    /** Called by a body stream at its end; ignored when it belongs to an earlier exchange. */
    void responseComplete(long id, boolean keepAlive) {
        if (id != exchange) {
            return;
        }
        responsePending = false;
        pendingBody = null;
        if (!keepAlive) {
            close();
        }
    }

    /**
     * Reads the rest of the current response (the XML parser may stop before the last chunk's terminator), so the
     * connection can carry the next request and its bytes count for this one. Closes the connection on failure.
     */
    void finishPending() {
        InputStream body = pendingBody;
        if (!responsePending || body == null) {
            return;
        }
        byte[] buffer = new byte[4096];
        try {
            while (body.read(buffer, 0, buffer.length) >= 0) {
                // draining
            }
        } catch (IOException e) {
            close();
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        socket = null;
        in = null;
        out = null;
        responsePending = false;
        pendingBody = null;
        exchange++;
    }
}
