package dashboard.driver;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One client's own HTTP/1.1 connection (kept alive across requests) with byte counters at the socket: what the
 * counters see is what crossed the socket (request line, headers, body, chunk framing). Used by one thread at a time.
 */
final class HttpChannel implements AutoCloseable {
    /** The channel of the client whose request runs on this thread (set around each call by the Metro client). */
    static final ThreadLocal<HttpChannel> CURRENT = new ThreadLocal<>();

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

    long sent() {
        return sent;
    }

    long received() {
        return received;
    }

    /** Connects unless a usable connection to {@code host:port} is open; true when the connection is new. */
    boolean open(String host, int port, int connectTimeoutMs, int readTimeoutMs) throws IOException {
        String wanted = host + ":" + port;
        if (socket != null && (responsePending || !wanted.equals(target) || socket.isClosed())) {
            close();
        }
        if (socket != null) {
            socket.setSoTimeout(readTimeoutMs);
            return false;
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            s.setSoTimeout(readTimeoutMs);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        target = wanted;
        requestsOnSocket = 0;
        in = new BufferedInputStream(new FilterInputStream(s.getInputStream()) {
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
        }, 16 * 1024);
        out = new FilterOutputStream(s.getOutputStream()) {
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
        return true;
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

    /** Marks a request as written; returns its exchange number. */
    long requestSent() {
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
