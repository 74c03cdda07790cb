package dashboard.service;

import dashboard.common.Json;
import dashboard.security.KeyMaterial;
import dashboard.security.WsSecurity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * What the JVM service reads from the host's security folder (docs/security.md, "Who reads what"): the server's key
 * and certificate ({@code server.p12}, password in {@code keystore.password}), the local CA ({@code ca.crt}: trust for
 * WS-Security signatures) and the credential profiles ({@code credentials.json}: users of Basic and UsernameToken).
 * Read once at start; the host makes the folder before it starts the JVM.
 */
final class SecurityMaterial {
    private final Path directory;
    private final KeyMaterial.KeyEntry serverKey;
    private final List<X509Certificate> anchors;
    private final Map<String, String> users;
    private final SSLContext tls;
    private final WsSecurity.X509Party x509;

    private SecurityMaterial(Path directory, KeyMaterial.KeyEntry serverKey, List<X509Certificate> anchors, Map<String, String> users) {
        this.directory = directory;
        this.serverKey = serverKey;
        this.anchors = anchors;
        this.users = users;
        this.tls = KeyMaterial.serverContext(serverKey);
        this.x509 = new WsSecurity.X509Party(serverKey, anchors);
    }

    /** Reads the folder; IOException naming the file that is missing or unreadable. */
    static SecurityMaterial read(Path directory) throws IOException {
        char[] password = KeyMaterial.readPassword(directory.resolve("keystore.password"));
        KeyMaterial.KeyEntry serverKey = KeyMaterial.readKeyEntry(directory.resolve("server.p12"), password, "server");
        List<X509Certificate> anchors = KeyMaterial.readCertificates(directory.resolve("ca.crt"));
        return new SecurityMaterial(directory, serverKey, anchors, readUsers(directory.resolve("credentials.json")));
    }

    /** {@code {"profiles":{"bench":{"userName":"bench","password":"…"}}}} → user name → password. */
    static Map<String, String> readUsers(Path file) throws IOException {
        Object parsed;
        try {
            parsed = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is not JSON: " + e.getMessage(), e);
        }
        Map<String, String> users = new LinkedHashMap<>();
        if (parsed instanceof Map<?, ?> root && root.get("profiles") instanceof Map<?, ?> profiles) {
            for (Object profile : profiles.values()) {
                if (profile instanceof Map<?, ?> p && p.get("userName") instanceof String user && p.get("password") instanceof String pw
                        && !user.isEmpty()) {
                    users.put(user, pw);
                }
            }
        }
        if (users.isEmpty()) {
            throw new IOException(file + " has no profile with a userName and a password");
        }
        return Collections.unmodifiableMap(users);
    }

    Path directory() {
        return directory;
    }

    KeyMaterial.KeyEntry serverKey() {
        return serverKey;
    }

    List<X509Certificate> anchors() {
        return anchors;
    }

    /** The TLS server context (server.p12); no client certificate is asked for. */
    SSLContext tls() {
        return tls;
    }

    /** The service's side of WS-Security X.509: server.p12's key, ca.crt as trust for client signatures. */
    WsSecurity.X509Party x509() {
        return x509;
    }

    /** User name → password of every credential profile. */
    Map<String, String> users() {
        return users;
    }

    /** True when the user is a profile's and the password is its (compared in constant time). */
    boolean checkPassword(String user, String password) {
        String expected = users.get(user);
        return expected != null && password != null
                && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8));
    }
}
