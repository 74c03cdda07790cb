package dashboard.driver;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.URL;
import java.net.URLStreamHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * A minimal HTTP/1.1 {@link HttpURLConnection} (http: and https:) for the JAX-WS RI client over the calling client's own
 * {@link HttpChannel}: one write per request (head and body together, TCP_NODELAY), Content-Length or chunked
 * responses, keep-alive, one retry on a reused connection that the server had closed. Only what the RI uses.
 */
final class CountingHttpConnection extends HttpURLConnection {
    /** The handler the driver installs for "http" and "https" URLs (URL.setURLStreamHandlerFactory). */
    static final class Handler extends URLStreamHandler {
        private final SSLSocketFactory tls;
        private final int defaultPort;

        /** {@code tls} null: plain HTTP (port 80); else HTTPS over that factory (port 443). */
        Handler(SSLSocketFactory tls) {
            this.tls = tls;
            this.defaultPort = tls == null ? 80 : 443;
        }

        @Override
        protected java.net.URLConnection openConnection(URL url) {
            return new CountingHttpConnection(url, tls, defaultPort);
        }

        @Override
        protected java.net.URLConnection openConnection(URL url, java.net.Proxy proxy) {
            return openConnection(url);
        }

        @Override
        protected int getDefaultPort() {
            return defaultPort;
        }
    }

    private static final String USER_AGENT = "Java/" + System.getProperty("java.version");

    private final HttpChannel channel;
    private final boolean ownChannel;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(1024);
    /** Request headers, kept here: URLConnection refuses to list them once connected. */
    private final Map<String, List<String>> requestHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private Map<String, List<String>> headers;
    private InputStream responseBody;
    private String statusLine;
    private long exchangeId;
    private final int defaultPort;

    private CountingHttpConnection(URL url, SSLSocketFactory tls, int defaultPort) {
        super(url);
        HttpChannel current = HttpChannel.CURRENT.get();
        this.ownChannel = current == null;
        this.channel = current == null ? new HttpChannel(tls) : current;
        this.defaultPort = defaultPort;
    }

    @Override
    public void setRequestProperty(String key, String value) {
        requestHeaders.put(key, new ArrayList<>(List.of(value)));
    }

    @Override
    public void addRequestProperty(String key, String value) {
        requestHeaders.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }

    @Override
    public String getRequestProperty(String key) {
        List<String> v = requestHeaders.get(key);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    @Override
    public Map<String, List<String>> getRequestProperties() {
        return Collections.unmodifiableMap(requestHeaders);
    }

    @Override
    public void connect() throws IOException {
        if (!connected) {
            channel.open(url.getHost(), port(), getConnectTimeout(), getReadTimeout());
            connected = true;
        }
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        if (responseBody != null) {
            throw new ProtocolException("cannot write the request after reading the response");
        }
        return body;
    }

    @Override
    public int getResponseCode() throws IOException {
        exchange();
        return responseCode;
    }

    @Override
    public String getResponseMessage() throws IOException {
        exchange();
        return responseMessage;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        exchange();
        if (responseCode >= 400) {
            throw new IOException("Server returned HTTP response code: " + responseCode + " for URL: " + url);
        }
        return responseBody;
    }

    @Override
    public InputStream getErrorStream() {
        return responseBody != null && responseCode >= 400 ? responseBody : null;
    }

    @Override
    public Map<String, List<String>> getHeaderFields() {
        try {
            exchange();
        } catch (IOException e) {
            return Collections.emptyMap();
        }
        return headers;
    }

    @Override
    public String getHeaderField(String name) {
        List<String> values = getHeaderFields().get(name);
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
    }

    @Override
    public String getHeaderField(int n) {
        return n == 0 ? statusLine : null;
    }

    @Override
    public void disconnect() {
        channel.close();
    }

    @Override
    public boolean usingProxy() {
        return false;
    }

    private int port() {
        return url.getPort() < 0 ? defaultPort : url.getPort();
    }

    /** Sends the request (once) and reads the status line and headers. */
    private void exchange() throws IOException {
        if (responseBody != null) {
            return;
        }
        byte[] request = requestBytes();
        for (int attempt = 0; ; attempt++) {
            channel.open(url.getHost(), port(), getConnectTimeout(), getReadTimeout());
            connected = true;
            boolean reused = channel.requestsOnSocket() > 0;
            try {
                channel.output().write(request);
                channel.output().flush();
                exchangeId = channel.requestSent();
                readHead(channel.input());
                channel.responseBody(exchangeId, responseBody);
                return;
            } catch (EOFException | SocketException | SSLException e) { // SSLException: a TLS connection closed under us
                channel.close();
                if (!reused || attempt > 0) {
                    throw e; // a fresh connection failed: a real connection error
                }
                // the server had closed the idle kept-alive connection: send once more on a new one
            }
        }
    }

    private byte[] requestBytes() {
        StringBuilder head = new StringBuilder(256);
        String path = url.getFile().isEmpty() ? "/" : url.getFile();
        head.append(getRequestMethod()).append(' ').append(path).append(" HTTP/1.1\r\n");
        Map<String, List<String>> properties = requestHeaders;
        if (!has(properties, "User-Agent")) {
            head.append("User-Agent: ").append(USER_AGENT).append("\r\n");
        }
        head.append("Host: ").append(url.getHost()).append(url.getPort() < 0 ? "" : ":" + url.getPort()).append("\r\n");
        for (Map.Entry<String, List<String>> e : properties.entrySet()) {
            if (e.getKey() == null || e.getKey().equalsIgnoreCase("Content-Length") || e.getKey().equalsIgnoreCase("Host")) {
                continue;
            }
            for (String v : e.getValue()) {
                head.append(e.getKey()).append(": ").append(v).append("\r\n");
            }
        }
        if (!has(properties, "Connection")) {
            head.append("Connection: keep-alive\r\n");
        }
        byte[] content = body.toByteArray();
        if (content.length > 0 || getDoOutput()) {
            head.append("Content-Length: ").append(content.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[h.length + content.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(content, 0, all, h.length, content.length);
        return all;
    }

    private static boolean has(Map<String, List<String>> properties, String name) {
        return properties.keySet().stream().anyMatch(k -> k != null && k.equalsIgnoreCase(name));
    }

    private void readHead(InputStream in) throws IOException {
        String status = line(in);
        while (status.isEmpty()) {
            status = line(in);
        }
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new ProtocolException("not an HTTP status line: " + status);
        }
        int code = Integer.parseInt(parts[1]);
        Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String l = line(in); !l.isEmpty(); l = line(in)) {
            int colon = l.indexOf(':');
            if (colon > 0) {
                h.computeIfAbsent(l.substring(0, colon).trim(), k -> new ArrayList<>()).add(l.substring(colon + 1).trim());
            }
        }
        if (code == 100) { // 100 Continue: the real response follows
            readHead(in);
            return;
        }
        boolean keepAlive = parts[0].equals("HTTP/1.1") ? !"close".equalsIgnoreCase(last(h, "Connection"))
                : "keep-alive".equalsIgnoreCase(last(h, "Connection"));
        String transferEncoding = last(h, "Transfer-Encoding");
        String length = last(h, "Content-Length");
        InputStream bodyIn;
        if (code == 204 || code == 304 || "HEAD".equals(getRequestMethod())) {
            bodyIn = new Bounded(in, 0, keepAlive);
        } else if (transferEncoding != null && transferEncoding.toLowerCase().contains("chunked")) {
            bodyIn = new Chunked(in, keepAlive);
        } else if (length != null) {
            bodyIn = new Bounded(in, Long.parseLong(length), keepAlive);
        } else {
            bodyIn = new Bounded(in, Long.MAX_VALUE, false); // until the server closes
        }
        statusLine = status;
        responseCode = code;
        channel.responseStatus(code);
        responseMessage = parts.length > 2 ? parts[2] : "";
        headers = Collections.unmodifiableMap(h);
        responseBody = bodyIn;
    }

    private static String last(Map<String, List<String>> h, String name) {
        List<String> v = h.get(name);
        return v == null || v.isEmpty() ? null : v.get(v.size() - 1);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the server closed the connection");
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    /** A body of known length (Long.MAX_VALUE: until end of stream); hands the connection back when done. */
    private final class Bounded extends FilterInputStream {
        private long left;
        private final boolean keepAlive;

        Bounded(InputStream in, long length, boolean keepAlive) {
            super(in);
            this.left = length;
            this.keepAlive = keepAlive;
            if (length == 0) {
                done();
            }
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                if (left != Long.MAX_VALUE) {
                    throw new EOFException("the server closed the connection inside the response body");
                }
                left = 0;
                done();
                return -1;
            }
            if (left != Long.MAX_VALUE) {
                left -= n;
                if (left == 0) {
                    done();
                }
            }
            return n;
        }

        @Override
        public void close() {
            // the RI drains the body before closing; an undrained body leaves the channel pending (reconnect)
        }

        @Override
        public long skip(long n) throws IOException {
            return skipByReading(this, n);
        }

        @Override
        public int available() throws IOException {
            return left <= 0 ? 0 : (int) Math.min(in.available(), left);
        }

        @Override
        public boolean markSupported() {
            return false;
        }

        private void done() {
            channel.responseComplete(exchangeId, keepAlive);
            finish();
        }
    }

    /** A chunked body; hands the connection back after the last chunk and trailers. */
    private final class Chunked extends FilterInputStream {
        private long chunkLeft;
        private boolean finished;
        private final boolean keepAlive;

        Chunked(InputStream in, boolean keepAlive) {
            super(in);
            this.keepAlive = keepAlive;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (finished) {
                return -1;
            }
            if (chunkLeft == 0) {
                String size = line(in);
                int semicolon = size.indexOf(';');
                chunkLeft = Long.parseLong((semicolon >= 0 ? size.substring(0, semicolon) : size).trim(), 16);
                if (chunkLeft == 0) {
                    while (!line(in).isEmpty()) {
                        // trailers
                    }
                    finished = true;
                    channel.responseComplete(exchangeId, keepAlive);
                    finish();
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, chunkLeft));
            if (n < 0) {
                throw new EOFException("the server closed the connection inside a chunk");
            }
            chunkLeft -= n;
            if (chunkLeft == 0) {
                line(in); // the CRLF after the chunk data
            }
            return n;
        }

        @Override
        public void close() {
            // see Bounded.close
        }

        @Override
        public long skip(long n) throws IOException {
            return skipByReading(this, n);
        }

        @Override
        public int available() throws IOException {
            return finished ? 0 : (int) Math.min(in.available(), chunkLeft);
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }

    private static long skipByReading(InputStream in, long n) throws IOException {
        byte[] buffer = new byte[(int) Math.min(Math.max(n, 1), 4096)];
        long skipped = 0;
        while (skipped < n) {
            int r = in.read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    private void finish() {
        if (ownChannel) {
            channel.close();
        }
    }
}
