package dashboard.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Reads the host's security material (docs/security.md: PEM certificates, PKCS#12 key stores protected by
 * {@code keystore.password}) and makes TLS contexts from it. Shared by the JVM service and the java driver.
 */
public final class KeyMaterial {
    private KeyMaterial() {
    }

    /** One private key with its certificate chain (leaf first), read once: signing and decrypting reuse it. */
    public record KeyEntry(String alias, PrivateKey key, List<X509Certificate> chain) {
        public X509Certificate certificate() {
            return chain.get(0);
        }
    }

    /** Every certificate of a PEM file (or a DER file holding one); IOException naming the file when it has none. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> all = CertificateFactory.getInstance("X.509").generateCertificates(in);
            List<X509Certificate> list = new ArrayList<>();
            for (Certificate c : all) {
                list.add((X509Certificate) c);
            }
            if (list.isEmpty()) {
                throw new IOException(file + " holds no certificate");
            }
            return Collections.unmodifiableList(list);
        } catch (GeneralSecurityException e) {
            throw new IOException(file + " is not a PEM certificate file: " + e.getMessage(), e);
        }
    }

    /** The first line of a file, trimmed: {@code keystore.password}. */
    public static char[] readPassword(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || lines.get(0).isBlank()) {
            throw new IOException(file + " is empty");
        }
        return lines.get(0).trim().toCharArray();
    }

    /** A PKCS#12 key store from a file. */
    public static KeyStore loadPkcs12(Path file, char[] password) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read " + file + " as PKCS#12 with keystore.password: " + e.getMessage(), e);
        }
    }

    /**
     * The key entry of a PKCS#12 file (the one named {@code preferredAlias} if there is one, else the first), decrypted
     * once: a PKCS#12 store runs its password-based key derivation on every {@code getKey}.
     */
    public static KeyEntry readKeyEntry(Path file, char[] password, String preferredAlias) throws IOException {
        KeyStore store = loadPkcs12(file, password);
        try {
            String alias = null;
            for (String a : Collections.list(store.aliases())) {
                if (store.isKeyEntry(a) && (alias == null || a.equalsIgnoreCase(preferredAlias))) {
                    alias = a;
                }
            }
            if (alias == null) {
                throw new IOException(file + " holds no private key");
            }
            PrivateKey key = (PrivateKey) store.getKey(alias, password);
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate c : store.getCertificateChain(alias)) {
                chain.add((X509Certificate) c);
            }
            return new KeyEntry(alias, key, Collections.unmodifiableList(chain));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the key in " + file + ": " + e.getMessage(), e);
        }
    }

    /** An in-memory key store holding {@code certificates} as trusted entries (trust anchors). */
    public static KeyStore trustStore(Collection<X509Certificate> certificates) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate c : certificates) {
                store.setCertificateEntry("trusted-" + i++, c);
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make an in-memory trust store: " + e.getMessage(), e);
        }
    }

    /** An in-memory key store holding one key entry (for the TLS key manager). */
    public static KeyStore keyStore(KeyEntry entry, char[] password) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(entry.alias(), entry.key(), password, entry.chain().toArray(new X509Certificate[0]));
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make an in-memory key store: " + e.getMessage(), e);
        }
    }

    /** A TLS server context presenting {@code entry}; no client certificate is asked for. */
    public static SSLContext serverContext(KeyEntry entry) {
        try {
            char[] transientPassword = "in-memory".toCharArray();
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keyStore(entry, transientPassword), transientPassword);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the TLS server context: " + e.getMessage(), e);
        }
    }

    /**
     * A TLS client context that trusts only {@code anchors} (PKIX path validation, expiry included). Host names are
     * checked by the caller's {@code SSLParameters.setEndpointIdentificationAlgorithm("HTTPS")} or by IceSSL.
     */
    public static SSLContext clientContext(Collection<X509Certificate> anchors) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
            tmf.init(trustStore(anchors));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the TLS client context: " + e.getMessage(), e);
        }
    }
}
