package dashboard.service;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The JVM service's request limits (docs/service-contract.md, "Malformed input and limits"), set by the host from
 * {@code ServiceHost:MaxRequestBodyBytes} and {@code ServiceHost:SlowClientTimeoutSeconds} as JVM options:
 * <ul>
 * <li>{@code -Ddashboard.maxRequestBytes=N}: the largest request body a Metro variant reads (413 above it, a chunked body
 * is cut off there) and the largest Ice message ({@code Ice.MessageSizeMax}, in KB);</li>
 * <li>{@code -Dsun.net.httpserver.maxReqTime=S}: the JDK HTTP server closes a connection whose request has not fully
 * arrived within S seconds (default 30), so a slow client cannot hold one of its worker threads for ever (the JDK's
 * default is no limit); {@code maxRspTime} (default 300 s) does the same for a client that never reads its response,
 * and counts the service's processing too.</li>
 * </ul>
 */
final class RequestLimits {
    static final String MAX_REQUEST_BYTES = "dashboard.maxRequestBytes";
    static final long DEFAULT_MAX_REQUEST_BYTES = 8L * 1024 * 1024;
    static final String DEFAULT_MAX_REQ_SECONDS = "30";
    /** The JDK counts processing into the response time: generous, so a slow level is never cut off. */
    static final String DEFAULT_MAX_RSP_SECONDS = "300";

    private RequestLimits() {
    }

    /** Sets the JDK HTTP server's time limits when the command line did not: call before the first server is created. */
    static void applyDefaults() {
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", DEFAULT_MAX_REQ_SECONDS);
        }
        if (System.getProperty("sun.net.httpserver.maxRspTime") == null) {
            System.setProperty("sun.net.httpserver.maxRspTime", DEFAULT_MAX_RSP_SECONDS);
        }
    }

    /** The largest request body or Ice message, in bytes. */
    static long maxRequestBytes() {
        long value = Long.getLong(MAX_REQUEST_BYTES, DEFAULT_MAX_REQUEST_BYTES);
        return value > 0 ? value : DEFAULT_MAX_REQUEST_BYTES;
    }

    /** {@code Ice.MessageSizeMax} for {@link #maxRequestBytes()}: kilobytes, rounded up. */
    static String iceMessageSizeMaxKb() {
        return Long.toString(Math.max(1, (maxRequestBytes() + 1023) / 1024));
    }

    /** A filter for a Metro variant's context that enforces {@link #maxRequestBytes()}. */
    static Filter bodyFilter() {
        return new BodyLimitFilter(maxRequestBytes());
    }

    /**
     * Rejects a request whose Content-Length is over the limit with 413 (and closes the connection, so its body is not
     * read), and cuts a chunked body off at the limit: reading past it fails, and Metro answers with a fault.
     */
    static final class BodyLimitFilter extends Filter {
        private final long limit;

        BodyLimitFilter(long limit) {
            this.limit = limit;
        }

        @Override
        public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
            String length = exchange.getRequestHeaders().getFirst("Content-Length");
            if (length != null) {
                long declared;
                try {
                    declared = Long.parseLong(length.trim());
                } catch (NumberFormatException e) {
                    declared = -1; // the JDK server has already refused a Content-Length that is not a number
                }
                if (declared > limit) {
                    reject(exchange, "a request body of " + declared + " bytes is over the limit of " + limit + " bytes");
                    return;
                }
            } else {
                exchange.setStreams(new CappedInputStream(exchange.getRequestBody(), limit), null);
            }
            chain.doFilter(exchange);
        }

        @Override
        public String description() {
            return "request body limit of " + limit + " bytes";
        }

        private static void reject(HttpExchange exchange, String reason) throws IOException {
            byte[] body = reason.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.getResponseHeaders().set("Connection", "close");
            exchange.sendResponseHeaders(413, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            exchange.close();
        }
    }

    /** A request body that fails once more than {@code limit} bytes have been read from it. */
    static final class CappedInputStream extends FilterInputStream {
        private final long limit;
        private long read;

        CappedInputStream(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws IOException {
            read += n;
            if (read > limit) {
                throw new IOException("the request body is over the limit of " + limit + " bytes");
            }
        }
    }
}
