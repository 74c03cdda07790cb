package dashboard.security;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.soap.SOAPConstants;
import javax.xml.soap.SOAPBody;
import javax.xml.soap.SOAPException;
import javax.xml.soap.SOAPFault;
import javax.xml.soap.SOAPMessage;
import javax.xml.transform.dom.DOMSource;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSDataRef;
import org.apache.ws.security.WSEncryptionPart;
import org.apache.ws.security.WSPasswordCallback;
import org.apache.ws.security.WSSConfig;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.WSSecurityException;
import org.apache.ws.security.components.crypto.Merlin;
import org.apache.ws.security.message.WSSecEncrypt;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecSignature;
import org.apache.ws.security.message.WSSecTimestamp;
import org.apache.ws.security.message.WSSecUsernameToken;
import org.apache.ws.security.util.WSSecurityUtil;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * WS-Security 1.0 (OASIS 2004) through Apache WSS4J 1.6. Shared by the JVM service's and the java driver's JAX-WS
 * handlers. X.509 works on a plain JDK DOM of the whole envelope (WSS4J cannot work on SAAJ 1.4's own DOM: docs/security.md): the service copies its SAAJ messages ({@link #copy}, {@link #replace}), the driver parses the RI's bytes;
 * UsernameToken only on the security header, in a small document of its own, so the body is never parsed twice.
 *
 * <p>Message security profile (as WCF's Basic256Sha256 suite): a Timestamp (5 minutes), an RSA-SHA256 signature with
 * exclusive C14N and SHA-256 digests over Body and Timestamp by the sender's key (its certificate travels as a
 * BinarySecurityToken), then the Body's content encrypted with AES-256-CBC under a key wrapped with RSA-OAEP for the
 * recipient's certificate (referenced by issuer and serial number). UserName: a UsernameToken with the password in
 * clear text (PasswordText: the TLS channel protects it, as WCF's TransportWithMessageCredential does), a nonce and a
 * creation time; a verifier accepts PasswordText and PasswordDigest.</p>
 */
public final class WsSecurity {
    /** The WS-Security 1.0 namespace of the security header and its fault codes. */
    public static final String WSSE_NS = WSConstants.WSSE_NS;

    /** The fault codes a refused message is answered with (docs/security.md: they map to outcome 4). */
    public static final Set<String> AUTH_FAULT_CODES = Set.of("FailedAuthentication", "FailedCheck", "InvalidSecurity",
            "SecurityTokenUnavailable");

    private static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
    private static final int TIMESTAMP_TTL_SECONDS = 300;
    private static final WSSConfig CONFIG;
    /**
     * WSS4J and Santuario log through commons-logging to java.util.logging; left at INFO they warn on every verified
     * message ("No Subject DN Certificate Constraints"). Strong references: JUL keeps loggers weakly.
     */
    private static final Logger[] QUIET_LOGGERS = {Logger.getLogger("org.apache.ws.security"), Logger.getLogger("org.apache.xml.security")};

    static {
        for (Logger logger : QUIET_LOGGERS) {
            logger.setLevel(Level.SEVERE);
        }
        WSSConfig.init();
        CONFIG = WSSConfig.getNewInstance();
    }

    private WsSecurity() {
    }

    /** The name of the security header, for {@code SOAPHandler.getHeaders()} (it carries mustUnderstand). */
    public static QName securityHeader() {
        return new QName(WSSE_NS, "Security", "wsse");
    }

    // ---- DOM copies --------------------------------------------------------------------------------------------

    /** A plain (JDK) DOM copy of the message's envelope. */
    public static Document copy(SOAPMessage message) throws SOAPException {
        Document doc = newDocument();
        doc.appendChild(doc.importNode(message.getSOAPPart().getEnvelope(), true));
        return doc;
    }

    /** Puts a (secured, verified or decrypted) copy back as the message's content. */
    public static void replace(SOAPMessage message, Document doc) throws SOAPException {
        message.getSOAPPart().setContent(new DOMSource(doc));
        message.saveChanges();
    }

    // ---- sending -----------------------------------------------------------------------------------------------

    /** Adds a security header with a UsernameToken (PasswordText, nonce, created). */
    public static void addUsernameToken(Document doc, String userName, String password) throws WSSecurityException {
        WSSecHeader header = new WSSecHeader();
        header.setMustUnderstand(true);
        header.insertSecurityHeader(doc);
        WSSecUsernameToken token = new WSSecUsernameToken(CONFIG);
        token.setPasswordType(WSConstants.PASSWORD_TEXT);
        token.setUserInfo(userName, password);
        token.addNonce();
        token.addCreated();
        token.build(doc, header);
    }

    /**
     * A security header with a UsernameToken (PasswordText, nonce, created) for an envelope of namespace {@code soapNs}
     * (its mustUnderstand attribute is of that SOAP version), built in a document of its own: a handler adds it to the
     * message as a header without parsing the message's body (docs/security.md, "What the JAX-WS handlers cost").
     */
    public static Element usernameTokenHeader(String soapNs, String userName, String password) throws WSSecurityException {
        Document doc = newDocument();
        Element envelope = doc.createElementNS(soapNs, "soapenv:Envelope");
        envelope.appendChild(doc.createElementNS(soapNs, "soapenv:Header"));
        envelope.appendChild(doc.createElementNS(soapNs, "soapenv:Body"));
        doc.appendChild(envelope);
        addUsernameToken(doc, userName, password);
        return WSSecurityUtil.getSecurityHeader(doc, null);
    }

    /** An empty namespace-aware JDK DOM document. */
    public static Document newDocument() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            return factory.newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("no DOM builder: " + e.getMessage(), e);
        }
    }

    /** Adds a security header with a Timestamp, signs Body and Timestamp with {@code self}, encrypts the Body's content to {@code recipient}. */
    public static void signAndEncrypt(Document doc, X509Party self, X509Certificate recipient) throws WSSecurityException {
        signAlterAndEncrypt(doc, self, recipient, null);
    }

    /**
     * {@link #signAndEncrypt}, with {@code alterBody} (when not null) applied to the Body between signing and encrypting:
     * a message whose signature no longer matches its content, for tests of the receiver.
     */
    public static void signAlterAndEncrypt(Document doc, X509Party self, X509Certificate recipient, Consumer<Element> alterBody)
            throws WSSecurityException {
        String soapNs = doc.getDocumentElement().getNamespaceURI();
        WSSecHeader header = new WSSecHeader();
        header.setMustUnderstand(true);
        header.insertSecurityHeader(doc);

        WSSecTimestamp timestamp = new WSSecTimestamp(CONFIG);
        timestamp.setTimeToLive(TIMESTAMP_TTL_SECONDS);
        timestamp.build(doc, header);

        WSSecSignature signature = new WSSecSignature(CONFIG);
        signature.setUserInfo(self.alias(), X509Party.KEY_PASSWORD);
        signature.setKeyIdentifierType(WSConstants.BST_DIRECT_REFERENCE);
        signature.setSignatureAlgorithm(RSA_SHA256);
        signature.setDigestAlgo(WSConstants.SHA256);
        signature.setSigCanonicalization(WSConstants.C14N_EXCL_OMIT_COMMENTS);
        List<WSEncryptionPart> signed = new ArrayList<>();
        signed.add(new WSEncryptionPart(WSConstants.ELEM_BODY, soapNs, "Element"));
        signed.add(new WSEncryptionPart("Timestamp", WSConstants.WSU_NS, "Element"));
        signature.setParts(signed);
        signature.build(doc, self.crypto(), header);
        if (alterBody != null) {
            alterBody.accept(WSSecurityUtil.findBodyElement(doc));
        }

        WSSecEncrypt encrypt = new WSSecEncrypt(CONFIG);
        encrypt.setUseThisCert(recipient);
        encrypt.setKeyIdentifierType(WSConstants.ISSUER_SERIAL);
        encrypt.setSymmetricEncAlgorithm(WSConstants.AES_256);
        encrypt.setKeyEnc(WSConstants.KEYTRANSPORT_RSAOEP);
        List<WSEncryptionPart> encrypted = new ArrayList<>();
        encrypted.add(new WSEncryptionPart(WSConstants.ELEM_BODY, soapNs, "Content"));
        encrypt.setParts(encrypted);
        encrypt.build(doc, self.crypto(), header);
    }

    // ---- receiving ---------------------------------------------------------------------------------------------

    /**
     * Verifies the UsernameToken of a security header (a {@code wsse:Security} element, alone in its document or in an
     * envelope) against {@code users} (user name → password). Returns the user name; throws FailedAuthentication for an
     * unknown user or a wrong password, InvalidSecurity when {@code security} is null or has no UsernameToken.
     */
    public static String verifyUsernameToken(Element security, Map<String, String> users) throws WSSecurityException {
        if (security == null) {
            throw invalid("missingSecurityHeader");
        }
        List<WSSecurityEngineResult> results = engine().processSecurityHeader(security, passwordsOf(users), null, null);
        WSSecurityEngineResult token = single(results, WSConstants.UT, "missingUsernameToken");
        Object principal = token.get(WSSecurityEngineResult.TAG_PRINCIPAL);
        return principal instanceof java.security.Principal p ? p.getName() : "";
    }

    private static CallbackHandler passwordsOf(Map<String, String> users) {
        return callbacks -> {
            for (Callback c : callbacks) {
                if (c instanceof WSPasswordCallback pc && pc.getUsage() == WSPasswordCallback.USERNAME_TOKEN) {
                    String password = users.get(pc.getIdentifier());
                    if (password == null) {
                        throw new UnsupportedCallbackException(c, "unknown user");
                    }
                    pc.setPassword(password);
                } else {
                    throw new UnsupportedCallbackException(c);
                }
            }
        };
    }

    /**
     * Decrypts with {@code self}'s key and verifies the signature, whose certificate must chain to {@code self}'s
     * trust anchors; the Body must be signed and its content encrypted. Removes the security header and returns the
     * signer's certificate. Throws FailedCheck for a signature that does not verify (a changed body), FailedAuthentication
     * for an untrusted signer, InvalidSecurity when a part is missing.
     */
    public static X509Certificate verifyAndDecrypt(Document doc, X509Party self) throws WSSecurityException {
        List<WSSecurityEngineResult> results = engine().processSecurityHeader(doc, null, self.callbacks(),
                self.trustOnly(), self.crypto());
        WSSecurityEngineResult signature = single(results, WSConstants.SIGN, "requiredElementNotSigned");
        WSSecurityEngineResult encryption = single(results, WSConstants.ENCR, "requiredElementNotProtected");
        QName body = new QName(doc.getDocumentElement().getNamespaceURI(), WSConstants.ELEM_BODY);
        if (!covers(signature, body)) {
            throw invalid("requiredElementNotSigned", body);
        }
        if (!covers(encryption, body)) {
            throw invalid("requiredElementNotProtected", body);
        }
        X509Certificate signer = (X509Certificate) signature.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
        if (signer == null) {
            throw invalid("invalidCert");
        }
        removeSecurityHeader(doc);
        return signer;
    }

    private static WSSecurityEngine engine() {
        WSSecurityEngine engine = new WSSecurityEngine();
        engine.setWssConfig(CONFIG);
        return engine;
    }

    /** The first result of {@code action}; InvalidSecurity ({@code missingId}, or no security header) when there is none. */
    private static WSSecurityEngineResult single(List<WSSecurityEngineResult> results, int action, String missingId)
            throws WSSecurityException {
        if (results != null) {
            for (WSSecurityEngineResult r : results) {
                if (Integer.valueOf(action).equals(r.get(WSSecurityEngineResult.TAG_ACTION))) {
                    return r;
                }
            }
        }
        throw results == null ? invalid("missingSecurityHeader") : invalid(missingId, "Body");
    }

    /** InvalidSecurity with one of WSS4J's message ids (errors.properties). */
    private static WSSecurityException invalid(String messageId, Object... arguments) {
        return new WSSecurityException(WSSecurityException.INVALID_SECURITY, messageId, arguments);
    }

    @SuppressWarnings("unchecked")
    private static boolean covers(WSSecurityEngineResult result, QName element) {
        Object refs = result.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
        if (!(refs instanceof List<?> list)) {
            return false;
        }
        for (WSDataRef ref : (List<WSDataRef>) list) {
            if (element.equals(ref.getName())) {
                return true;
            }
            Element protectedElement = ref.getProtectedElement();
            if (protectedElement != null && protectedElement.getParentNode() instanceof Element parent
                    && element.getNamespaceURI().equals(parent.getNamespaceURI()) && element.getLocalPart().equals(parent.getLocalName())) {
                return true;
            }
        }
        return false;
    }

    private static void removeSecurityHeader(Document doc) throws WSSecurityException {
        Element header = WSSecurityUtil.getSecurityHeader(doc, null);
        if (header != null) {
            header.getParentNode().removeChild(header);
        }
    }

    // ---- faults ------------------------------------------------------------------------------------------------

    /** The WS-Security fault code (one of {@link #AUTH_FAULT_CODES}) for a failure. */
    public static String faultCode(WSSecurityException e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof java.security.cert.CertPathValidatorException || c instanceof java.security.cert.CertificateException) {
                return "FailedAuthentication"; // the signer's certificate does not chain to a trusted CA, or has expired
            }
        }
        return switch (e.getErrorCode()) {
            case WSSecurityException.FAILED_AUTHENTICATION -> "FailedAuthentication";
            case WSSecurityException.FAILED_CHECK, WSSecurityException.FAILED_SIGNATURE -> "FailedCheck";
            case WSSecurityException.SECURITY_TOKEN_UNAVAILABLE -> "SecurityTokenUnavailable";
            default -> "InvalidSecurity";
        };
    }

    /**
     * Adds the fault for a refused message to {@code body}: SOAP 1.1 {@code faultcode} is {@code wsse:<code>}; SOAP 1.2
     * {@code Code} is {@code env:Sender} with subcode {@code wsse:<code>} (WS-Security 1.0 §12). No detail, no stack trace.
     */
    public static SOAPFault addFault(SOAPBody body, boolean soap12, String code, String reason) throws SOAPException {
        QName wsseCode = new QName(WSSE_NS, code, "wsse");
        SOAPFault fault = body.addFault();
        if (soap12) {
            fault.setFaultCode(SOAPConstants.SOAP_SENDER_FAULT);
            fault.appendFaultSubcode(wsseCode);
            fault.addFaultReasonText(reason, Locale.ENGLISH);
        } else {
            fault.setFaultCode(wsseCode);
            fault.setFaultString(reason);
        }
        return fault;
    }

    /** The WS-Security fault code of a fault ({@code wsse:*} as code or subcode) when it is one of {@link #AUTH_FAULT_CODES}, else null. */
    public static String authFaultCode(SOAPFault fault) {
        if (fault == null) {
            return null;
        }
        List<QName> codes = new ArrayList<>();
        QName code = fault.getFaultCodeAsQName();
        if (code != null) {
            codes.add(code);
        }
        if (SOAPConstants.URI_NS_SOAP_1_2_ENVELOPE.equals(fault.getNamespaceURI())) { // SOAP 1.1 faults have no subcodes
            Iterator<QName> subcodes = fault.getFaultSubcodes();
            subcodes.forEachRemaining(codes::add);
        }
        for (QName c : codes) {
            if (AUTH_FAULT_CODES.contains(c.getLocalPart()) && (WSSE_NS.equals(c.getNamespaceURI()) || c.getNamespaceURI().isEmpty())) {
                return c.getLocalPart();
            }
        }
        return null;
    }

    // ---- keys --------------------------------------------------------------------------------------------------

    /**
     * One side of X.509 message security: its key (signing, decrypting) and the anchors it trusts for the other side's
     * signatures. The key is held decrypted (WSS4J would otherwise run PKCS#12's key derivation on every message).
     */
    public static final class X509Party {
        static final String KEY_PASSWORD = "in-memory";

        private final KeyMaterial.KeyEntry key;
        private final Merlin crypto;
        private final Merlin trustOnly;

        public X509Party(KeyMaterial.KeyEntry key, List<X509Certificate> anchors) {
            this.key = key;
            this.crypto = new CachedKeyMerlin(key);
            crypto.setKeyStore(KeyMaterial.keyStore(key, KEY_PASSWORD.toCharArray()));
            crypto.setTrustStore(KeyMaterial.trustStore(anchors));
            // Signatures are checked against the anchors alone: not against our own key entry.
            this.trustOnly = new Merlin();
            trustOnly.setKeyStore(KeyMaterial.trustStore(List.of()));
            trustOnly.setTrustStore(KeyMaterial.trustStore(anchors));
        }

        public X509Certificate certificate() {
            return key.certificate();
        }

        String alias() {
            return key.alias();
        }

        Merlin crypto() {
            return crypto;
        }

        Merlin trustOnly() {
            return trustOnly;
        }

        CallbackHandler callbacks() {
            return callbacks -> {
                for (Callback c : callbacks) {
                    // Only the key's own password: never an answer for a UsernameToken's password.
                    if (c instanceof WSPasswordCallback pc
                            && (pc.getUsage() == WSPasswordCallback.DECRYPT || pc.getUsage() == WSPasswordCallback.SIGNATURE)) {
                        pc.setPassword(KEY_PASSWORD);
                    } else {
                        throw new UnsupportedCallbackException(c);
                    }
                }
            };
        }
    }

    /** A Merlin crypto that hands out its one private key without asking the key store again. */
    private static final class CachedKeyMerlin extends Merlin {
        private final KeyMaterial.KeyEntry key;

        CachedKeyMerlin(KeyMaterial.KeyEntry key) {
            this.key = key;
        }

        @Override
        public PrivateKey getPrivateKey(X509Certificate certificate, CallbackHandler callbackHandler) throws WSSecurityException {
            return certificate.equals(key.certificate()) ? key.key() : super.getPrivateKey(certificate, callbackHandler);
        }

        @Override
        public PrivateKey getPrivateKey(String identifier, String password) throws WSSecurityException {
            return key.alias().equalsIgnoreCase(identifier) ? key.key() : super.getPrivateKey(identifier, password);
        }
    }
}
