package dashboard.driver;

import dashboard.common.Json;
import java.util.Map;

/**
 * The job line of docs/driver-protocol.md: the endpoint (as GET /endpoints lists it), the payload id, the timeout, and
 * for secure variants the credentials and the CA certificate to trust (docs/security.md).
 *
 * @param credentials null, or a Basic/UserName profile (userName, password) or a certificate one (certificate: a
 *     PKCS#12 path, password, serverCertificate: a PEM path)
 * @param caCertificate null, or the PEM file of the CA that TLS servers and WS-Security signers must chain to
 */
record Job(String variant, String stack, String address, String payload, int timeoutMs, Credentials credentials,
        String caCertificate) {

    /** The job's {@code credentials} object; absent fields are null. Never logged: it carries a password. */
    record Credentials(String profile, String userName, String password, String certificate, String serverCertificate) {
        @Override
        public String toString() {
            return "Credentials[profile=" + profile + ", userName=" + userName + ", certificate=" + certificate + "]";
        }
    }

    static Job parse(String line) {
        if (!(Json.parse(line) instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("the job line is not a JSON object");
        }
        if (!"job".equals(map.get("type"))) {
            throw new IllegalArgumentException("the first line must be {\"type\":\"job\",...}, got type " + map.get("type"));
        }
        if (!(map.get("protocol") instanceof Long protocol) || protocol != 1) {
            throw new IllegalArgumentException("protocol must be 1, got " + map.get("protocol"));
        }
        if (!(map.get("endpoint") instanceof Map<?, ?> endpoint)) {
            throw new IllegalArgumentException("the job has no endpoint object");
        }
        long timeout = map.get("timeoutMs") instanceof Long t ? t : 30_000L;
        if (timeout <= 0 || timeout > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeoutMs must be positive, got " + timeout);
        }
        Credentials credentials = null;
        Object c = map.get("credentials");
        if (c instanceof Map<?, ?> cm) {
            credentials = new Credentials(optional(cm, "profile"), optional(cm, "userName"), optional(cm, "password"),
                    optional(cm, "certificate"), optional(cm, "serverCertificate"));
        } else if (c != null) {
            throw new IllegalArgumentException("credentials must be an object or null");
        }
        Object ca = map.get("caCertificate");
        if (ca != null && !(ca instanceof String)) {
            throw new IllegalArgumentException("caCertificate must be a file path or null");
        }
        return new Job(text(endpoint, "name"), text(endpoint, "stack"), text(endpoint, "address"), text(map, "payload"),
                (int) timeout, credentials, (String) ca);
    }

    /** The user name and password of a Basic or UserName variant; IllegalArgumentException naming what is missing. */
    Credentials requireUserName() {
        if (credentials == null || credentials.userName() == null || credentials.password() == null) {
            throw new IllegalArgumentException(variant + " needs credentials with userName and password (docs/security.md)");
        }
        return credentials;
    }

    /** The client certificate, its password and the server certificate of an X.509 variant. */
    Credentials requireCertificate() {
        if (credentials == null || credentials.certificate() == null || credentials.password() == null
                || credentials.serverCertificate() == null) {
            throw new IllegalArgumentException(variant + " needs credentials with certificate, password and serverCertificate (docs/security.md)");
        }
        return credentials;
    }

    /** The CA certificate file of a TLS or X.509 variant. */
    String requireCaCertificate() {
        if (caCertificate == null || caCertificate.isEmpty()) {
            throw new IllegalArgumentException(variant + " needs caCertificate (the CA to trust, docs/security.md)");
        }
        return caCertificate;
    }

    private static String text(Map<?, ?> map, String key) {
        if (!(map.get(key) instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("the job needs a string '" + key + "'");
        }
        return s;
    }

    private static String optional(Map<?, ?> map, String key) {
        return map.get(key) instanceof String s && !s.isEmpty() ? s : null;
    }
}
